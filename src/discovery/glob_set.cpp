#include "discovery/glob_set.h"

#include "discovery/glob.h"
#include "discovery/symbol_name.h"
#include "util/error.h"

namespace retsnoop {

void GlobSet::add(GlobSpec spec, std::string_view origin, bool must_match) {
  std::string category = origin.empty() ? category_ : category_ + " (" + std::string(origin) + ")";
  GlobCount count{std::move(category), spec.text, 0, must_match && spec.kind == GlobKind::Name};
  entries_.push_back({std::move(spec), std::move(count), {}});
}

void GlobSet::resolve_paths(SourcePathIndex* index) {
  for (Entry& e : entries_) {
    if (e.spec.kind != GlobKind::Path) continue;
    if (!index)
      throw UserError("Source path glob '" + e.spec.text +
                          "' needs a vmlinux image with DWARF, and none was found",
                      "give its path with -k PATH, or select functions by name");
    for (std::string& name : index->functions_in_paths(e.spec.pattern))
      e.path_funcs.insert(std::move(name));
  }
}

bool GlobSet::entry_matches(const Entry& e, std::string_view module, std::string_view name) const {
  if (e.spec.kind == GlobKind::Path) {
    // DWARF describes vmlinux only, under source names: foo.isra.0 is defined where foo is.
    return module.empty() &&
           (e.path_funcs.contains(name) || e.path_funcs.contains(base_name(name)));
  }
  if (!e.spec.module_glob.empty() && (module.empty() || !glob_match(e.spec.module_glob, module)))
    return false;
  return glob_match(e.spec.pattern, name);
}

bool GlobSet::match(std::string_view module, std::string_view name) {
  bool any = false;
  for (Entry& e : entries_) {
    if (entry_matches(e, module, name)) {
      ++e.count.matches;
      any = true;
    }
  }
  return any;
}

std::vector<GlobCount> GlobSet::counts() const {
  std::vector<GlobCount> out;
  for (const Entry& e : entries_) out.push_back(e.count);
  return out;
}

}  // namespace retsnoop
