#include "discovery/never_failing_entries.h"

#include <set>

namespace retsnoop {
namespace {

std::string display_name(const FuncInfo& f) {
  return f.module.empty() ? f.name : f.name + " [" + f.module + "]";
}

std::string warning(const FuncInfo& f, const std::string& name) {
  return "entry function '" + name + "' returns " + std::string(ret_kind_word(f.ret)) +
         ", which never counts as a failure: its sessions are reported only with -S\n";
}

}  // namespace

std::vector<std::string> never_failing_entry_warnings(const FuncTable& funcs) {
  std::vector<std::string> lines;
  std::set<std::string> warned;
  for (const auto& f : funcs) {
    if (!f.is_entry || can_fail(f.ret)) continue;
    std::string name = display_name(f);
    if (warned.insert(name).second) lines.push_back(warning(f, name));
  }
  return lines;
}

}  // namespace retsnoop
