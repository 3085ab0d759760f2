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

// System-wide switches a tracer may flip while attaching (function tracing paused, expedited
// RCU) and the value the test VM boots with, which must be back after it exits.
struct Knob {
  const char* path;
  char boot_value;
};
std::span<const Knob> knobs();

// The knob's first character; 0 when it cannot be read (a kernel without the knob).
char knob_value(const Knob& knob);

}  // namespace leakcheck
