#include "discovery/arg_plan_report.h"

#include <set>

namespace retsnoop {

std::vector<std::string> arg_plan_notes(const FuncTable& funcs,
                                        const std::vector<FuncArgs>& plans) {
  size_t typed = 0;
  std::set<std::string> raw_names;  // copies of one function at several addresses: one note
  std::vector<std::string> notes;
  for (size_t id = 0; id < plans.size() && id < funcs.size(); ++id) {
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
  std::string summary = "Arguments will be captured (-A) for " + std::to_string(plans.size()) +
                        " functions: " + std::to_string(typed) + " typed from BTF, " +
                        std::to_string(plans.size() - typed) + " as raw registers.\n";
  notes.insert(notes.begin(), summary);
  return notes;
}

}  // namespace retsnoop
