#include "discovery/func_args_report.h"

#include <algorithm>
#include <set>

#include "util/strings.h"

namespace retsnoop {

namespace {

std::string arg_names(const FuncArgs& plan) {
  std::vector<std::string> names;
  for (const ArgInfo& a : plan.args) names.push_back(a.name);
  return names.empty() ? "(none)" : join(names, ", ");
}

}  // namespace

std::vector<std::string> func_args_notes(const FuncTable& funcs,
                                         const std::vector<FuncArgs>& plans) {
  size_t typed = 0;
  std::set<std::string> raw_names;  // copies of one function at several addresses: one note
  std::vector<std::string> notes;
  size_t syscalls = 0;
  for (size_t id = 0; id < plans.size() && id < funcs.size(); ++id) {
    if (plans[id].syscall_regs && ++syscalls <= kMaxRawNotes)
      notes.push_back("  " + funcs[id].name + ": the system call's arguments " +
                      arg_names(plans[id]) + "\n");
    if (plans[id].raw_reason.empty()) {
      ++typed;
      continue;
    }
    if (!raw_names.insert(funcs[id].name).second) continue;
    if (raw_names.size() <= kMaxRawNotes)
      notes.push_back("  " + funcs[id].name + ": raw registers, " + plans[id].raw_reason + "\n");
  }
  if (raw_names.size() > kMaxRawNotes)
    notes.push_back("  ... and " + std::to_string(raw_names.size() - kMaxRawNotes) +
                    " more functions with raw registers\n");
  std::string summary = "arguments will be captured (-A) for " + std::to_string(plans.size()) +
                        " functions: " + std::to_string(typed) + " typed from BTF, " +
                        std::to_string(plans.size() - typed) + " as raw registers\n";
  notes.insert(notes.begin(), summary);
  return notes;
}

namespace {

std::string shown_names(const FuncArgs& plan) {
  std::vector<std::string> names;
  if (!plan.tp_fields.empty()) {
    for (const TpField& f : plan.tp_fields) names.push_back(f.name);
  } else {
    for (const ArgInfo& a : plan.args) names.push_back(a.name);
  }
  if (names.empty()) return "nothing" + (plan.raw_reason.empty() ? "" : ", " + plan.raw_reason);
  std::string out = join(names, ", ");
  if (plan.uncaptured) out += " (" + std::to_string(plan.uncaptured) + " more not captured)";
  return out;
}

}  // namespace

std::vector<std::string> probe_args_notes(const ProbeTable& probes,
                                          const std::vector<FuncArgs>& plans) {
  size_t n = std::min(probes.size(), plans.size());
  std::vector<std::string> notes{"probe hits will capture (-A), for " + std::to_string(n) +
                                 " probes:\n"};
  for (size_t id = 0; id < n && id < kMaxRawNotes; ++id)
    notes.push_back("  " + probe_label(probes[id]) + ": " + shown_names(plans[id]) + "\n");
  if (n > kMaxRawNotes)
    notes.push_back("  ... and " + std::to_string(n - kMaxRawNotes) + " more probes\n");
  return notes;
}

}  // namespace retsnoop
