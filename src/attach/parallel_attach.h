// Attaching and detaching one function at a time, on many threads: what single kprobes and
// fentry/fexit share. A failure tied to one function (a notrace function, a verifier rejection)
// skips that function with a -v message; a failure of the whole system (out of file descriptors
// or memory, no permission) would hit every function after it, so it stops the attach.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "attach/attacher.h"

namespace retsnoop {

// Threads that attach or detach at once. Both are dominated by RCU grace periods, which
// concurrent waiters share; more threads than this stop paying off under the kernel's locks.
constexpr size_t kAttachThreads = 16;

struct AttachError {
  int err = 0;       // negative errno; 0: attached
  std::string what;  // what failed, e.g. "kretprobe attach failed"
};

// True for errors that say nothing about the function being attached.
bool is_system_error(int err);

// "function 'NAME' [MODULE]: WHAT: REASON", the line that names a function that failed.
std::string failure_message(const FuncInfo& fn, const AttachError& e);

// A function that failed for a reason of its own is skipped with a -v line naming it: true. A
// system error stops the whole attach instead: false, and the caller fails with
// failure_message().
bool skip_function(const FuncInfo& fn, const AttachError& e);

// Runs attach_one(id) for every function until all are done, a stop is requested or a system
// error occurs; each attached function counts two probes (entry and exit) on opts.progress.
// Throws UserError naming the function for a system error: the caller must detach what was
// attached (its destructor does).
AttachResult attach_each(const FuncTable& funcs, const AttachOpts& opts,
                         const std::function<AttachError(size_t id)>& attach_one);

// Runs detach_one(i) for i in [0, n) and counts two probes per item on progress (may be null).
void detach_each(size_t n, ProgressMeter* progress, const std::function<void(size_t)>& detach_one);

}  // namespace retsnoop
