#include "discovery/glob_set.h"

#include <algorithm>

#include "discovery/glob.h"
#include "discovery/symbol_name.h"
#include "util/error.h"

namespace retsnoop {

namespace {

bool is_plain_name(const GlobSpec& spec) {
  return spec.kind == GlobKind::Name && spec.pattern.find_first_of("*?") == std::string::npos;
}

}  // namespace

void GlobSet::add(GlobSpec spec, std::string_view origin, bool must_match) {
  if (is_plain_name(spec)) {
    exact_.push_back(entries_.size());
    exact_index_.reset();
  } else {
    scanned_.push_back(entries_.size());
  }
  bool must = must_match && spec.kind == GlobKind::Name;
  entries_.push_back({std::move(spec), std::string(origin), 0, must, {}});
}

void GlobSet::reserve(size_t more) { entries_.reserve(entries_.size() + more); }

void GlobSet::index_exact() {
  exact_index_.emplace(exact_.size());
  for (uint32_t i : exact_) exact_index_->insert(hash_name(entries_[i].spec.pattern), i);
}

bool GlobSet::has_path_globs() const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [](const Entry& e) { return e.spec.kind == GlobKind::Path; });
}

void GlobSet::resolve_paths(SourcePathIndex* index) {
  for (Entry& e : entries_) {
    if (e.spec.kind != GlobKind::Path) continue;
    if (!index)
      throw UserError("source path glob '" + e.spec.text +
                          "' needs a vmlinux image with DWARF, and none was found",
                      "give its path with -k PATH, or select functions by name");
    for (std::string& name : index->functions_in_paths(e.spec.pattern))
      e.path_funcs.insert(std::move(name));
  }
}

bool GlobSet::entry_matches(const Entry& e, std::string_view module, std::string_view name) const {
  if (e.spec.kind == GlobKind::Path) {
    // The index covers vmlinux only. A clone (foo.isra.0) is defined where its source function
    // is, for indexes that list source names.
    return module.empty() &&
           (e.path_funcs.contains(name) || e.path_funcs.contains(base_name(name)));
  }
  if (!e.spec.module_glob.empty() && (module.empty() || !glob_match(e.spec.module_glob, module)))
    return false;
  return glob_match(e.spec.pattern, name);
}

bool GlobSet::count_match(Entry& e, std::string_view module, std::string_view name) {
  if (!entry_matches(e, module, name)) return false;
  ++e.matches;
  return true;
}

bool GlobSet::match(std::string_view module, std::string_view name) {
  bool any = false;
  if (!exact_.empty()) {  // every traceable name comes here: don't hash it for nothing
    if (!exact_index_) index_exact();
    exact_index_->find(hash_name(name), [&](uint32_t i) {
      if (entries_[i].spec.pattern == name) any |= count_match(entries_[i], module, name);
      return false;
    });
  }
  for (size_t i : scanned_) any |= count_match(entries_[i], module, name);
  return any;
}

std::vector<GlobCount> GlobSet::counts() const {
  std::vector<GlobCount> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) {
    std::string category = e.origin.empty() ? category_ : category_ + " (" + e.origin + ")";
    out.push_back({std::move(category), e.spec.text, e.matches, e.must_match, e.origin.empty()});
  }
  return out;
}

}  // namespace retsnoop
