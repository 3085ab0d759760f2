#include "trace_registrations.h"

#include <cerrno>
#include <fstream>
#include <system_error>

namespace leakcheck {

std::span<const TraceFile> trace_files() {
  static constexpr TraceFile kFiles[] = {
      {"/sys/kernel/debug/kprobes/list", "kprobe"},
      {"/sys/kernel/tracing/kprobe_events", "kprobe_event"},
      {"/sys/kernel/tracing/enabled_functions", "ftrace"},
  };
  return kFiles;
}

std::span<const Knob> knobs() {
  static constexpr Knob kKnobs[] = {
      {"/proc/sys/kernel/ftrace_enabled", '1'},
      {"/sys/kernel/rcu_expedited", '0'},
  };
  return kKnobs;
}

char knob_value(const Knob& knob) {
  char value = 0;
  std::ifstream(knob.path) >> value;
  return value;
}

std::vector<std::string> registrations(const TraceFile& file) {
  std::ifstream in(file.path);
  if (!in)
    throw std::system_error(errno, std::generic_category(),
                            std::string("cannot read ") + file.path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

}  // namespace leakcheck
