// Probes and ftrace hooks registered in the kernel, read from debugfs/tracefs. A tracer that
// detached cleanly leaves none of these behind.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace leakcheck {

// The control files to read: kprobes of every kind (perf, BPF, tracefs), tracefs probe events,
// and functions whose ftrace hook is on (fentry trampolines, multi-kprobes).
struct TraceFile {
  const char* path;
  const char* label;
};
std::span<const TraceFile> trace_files();

// Non-empty lines of one of those files; throws std::system_error when it cannot be read.
std::vector<std::string> registrations(const TraceFile& file);

}  // namespace leakcheck
