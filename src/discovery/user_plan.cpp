#include "discovery/user_plan.h"

#include <set>

#include "discovery/glob.h"
#include "discovery/user_symbols.h"
#include "util/error.h"

namespace retsnoop {

namespace {

// A glob with its binary resolved, and how many functions it selected.
struct ResolvedGlob {
  const GlobSpec* spec;
  std::string path;
  size_t matches = 0;
};

std::vector<ResolvedGlob> resolve_all(const std::vector<GlobSpec>& globs,
                                      const LibraryLookup& lookup) {
  std::vector<ResolvedGlob> out;
  out.reserve(globs.size());
  for (const GlobSpec& g : globs) out.push_back({&g, user_binary_path(g, lookup)});
  return out;
}

// Counts every glob of the binary that matches, so that an entry glob's count is exact.
bool match_any(std::vector<ResolvedGlob>& globs, const std::string& path, const std::string& name) {
  bool any = false;
  for (ResolvedGlob& g : globs) {
    if (g.path == path && glob_match(g.spec->pattern, name)) {
      ++g.matches;
      any = true;
    }
  }
  return any;
}

RetKind user_ret_kind(const UserPlanOptions& opts, const std::string& path, uint64_t off) {
  if (opts.ret) return *opts.ret;
  std::optional<RetKind> kind;
  if (opts.debug_info) kind = opts.debug_info->ret_kind(path, off);
  return kind.value_or(RetKind::Int64);
}

}  // namespace

std::string user_binary_path(const GlobSpec& glob, const LibraryLookup& lookup) {
  if (glob.binary.front() == '/') return glob.binary;
  std::optional<std::string> path = resolve_library(glob.binary, lookup);
  if (!path)
    throw UserError("glob '" + glob.text + "': library '" + glob.binary +
                        "' is in neither the loader's cache nor its standard directories",
                    "give the library's absolute path");
  return *path;
}

FuncTable plan_user_functions(const UserGlobs& globs, const UserPlanOptions& opts) {
  std::vector<ResolvedGlob> entry = resolve_all(globs.entry, opts.libraries);
  std::vector<ResolvedGlob> allow = resolve_all(globs.allow, opts.libraries);
  std::vector<ResolvedGlob> deny = resolve_all(globs.deny, opts.libraries);
  std::set<std::string> binaries;  // sorted: the function ids follow the paths
  for (const auto* set : {&entry, &allow})
    for (const ResolvedGlob& g : *set) binaries.insert(g.path);
  FuncTable out;
  for (const std::string& path : binaries) {
    for (const UserSymbol& sym : read_user_symbols(path)) {
      bool is_entry = match_any(entry, path, sym.name);
      bool allowed = match_any(allow, path, sym.name);
      if ((!is_entry && !allowed) || match_any(deny, path, sym.name)) continue;
      // One probe per address: an alias of a function already selected adds nothing.
      if (!out.empty() && out.back().binary == path && out.back().file_offset == sym.offset)
        continue;
      FuncInfo f{.name = sym.name,
                 .addr = sym.vaddr,
                 .ret = user_ret_kind(opts, path, sym.offset),
                 .is_entry = is_entry};
      f.binary = path;
      f.file_offset = sym.offset;
      out.push_back(std::move(f));
    }
  }
  for (const ResolvedGlob& g : entry) {
    if (g.matches == 0)
      throw UserError("entry glob '" + g.spec->text + "' matches no function in '" + g.path + "'",
                      "list a binary's functions with --dry-run -v");
  }
  return out;
}

}  // namespace retsnoop
