// One attach mechanism: puts the tracer's entry and exit programs on every selected function and
// takes them off again. Implementations must leave nothing attached after detach() or
// destruction, whatever happened in between.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "attach/progress_meter.h"
#include "attach/tracer_object.h"
#include "discovery/func_info.h"

namespace retsnoop {

class Kallsyms;
class RunLock;

struct AttachOpts {
  // Polled between attachments (SIGINT/SIGTERM): stop attaching as soon as it returns true.
  std::function<bool()> should_stop = [] { return false; };
  // Counts attached probes, an entry and an exit one per function; may be null.
  ProgressMeter* progress = nullptr;
  // --debug multi-kprobe: log every link step whatever the verbosity, and on a refused link the
  // functions the kernel refuses.
  bool debug = false;
};

struct AttachResult {
  size_t attached = 0;
  size_t skipped = 0;
  bool interrupted = false;
  double seconds = 0;  // how long the attach took
};

class Attacher {
 public:
  virtual ~Attacher() = default;
  virtual const char* name() const = 0;
  // Throws UserError when nothing sensible can be attached.
  virtual AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) = 0;
  // Probes attached now, an entry and an exit one per function.
  virtual size_t probe_count() const = 0;
  // Probe hits the kernel dropped instead of running our programs (recursion, no free
  // kretprobe instance), as far as this kernel counts them. Read it before detach().
  virtual uint64_t missed_hits() const = 0;
  // Takes every probe off, counting them on progress (may be null).
  virtual void detach(ProgressMeter* progress) = 0;
};

// For destructors: detach() that never throws, since an exception leaving a destructor ends the
// process on the spot. What went wrong is logged; every implementation takes each probe off
// even when another one failed (attach/parallel.h), so nothing stays attached.
void detach_or_log(Attacher& attacher) noexcept;

std::unique_ptr<Attacher> make_kprobe_attacher(TracerObject& obj);
// For a TracerObject loaded with TracerConfig::kprobe_events; ksyms: where the start of the
// kernel text is found, which probe definitions are relative to (attach/kprobe_events.h); run:
// the run's registration (attach/run_registry.h), which names its events and is kept past the
// run when some of them cannot be removed.
std::unique_ptr<Attacher> make_kprobe_event_attacher(TracerObject& obj, const Kallsyms& ksyms,
                                                     RunLock& run);
std::unique_ptr<Attacher> make_multi_kprobe_attacher(TracerObject& obj);
std::unique_ptr<Attacher> make_fentry_attacher(TracerObject& obj);

}  // namespace retsnoop
