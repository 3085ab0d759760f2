// One category of globs (entry, allow or deny) matched against candidate functions, counting
// how many functions each glob selects.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "discovery/glob_spec.h"
#include "discovery/source_path_index.h"
#include "util/hash_index.h"

namespace retsnoop {

struct GlobCount {
  std::string category;     // "entry", "allow", "deny", with the origin: "entry (-c bpf)"
  std::string glob;         // as written
  size_t matches = 0;       // traceable functions (unique names) it selects
  bool must_match = false;  // a user's -e name glob: matching nothing is an error
  bool typed = false;       // the user's (command line or @FILE), not a preset's or built-in
};

class GlobSet {
 public:
  explicit GlobSet(std::string category) : category_(std::move(category)) {}

  // origin is appended to the category in counts ("-c bpf", "built-in"); empty for user globs.
  void add(GlobSpec spec, std::string_view origin, bool must_match);
  // Room for more globs: an @FILE may list thousands.
  void reserve(size_t more);
  // Resolves ':PATHGLOB' globs to function names. Throws UserError if there is one and no index
  // (no vmlinux with DWARF).
  void resolve_paths(SourcePathIndex* index);

  bool empty() const { return entries_.empty(); }
  bool has_path_globs() const;

  // Tries every glob (to keep counts exact) and tells whether any selected the function.
  bool match(std::string_view module, std::string_view name);

  std::vector<GlobCount> counts() const;

 private:
  // Lets the name sets and maps be probed with string_views without building strings.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Entry {
    GlobSpec spec;
    std::string origin;  // of a preset or built-in glob, for its category in counts()
    size_t matches = 0;
    bool must_match = false;
    std::unordered_set<std::string, NameHash, std::equal_to<>>
        path_funcs;  // Path globs: names DWARF puts under the path
  };
  bool entry_matches(const Entry& e, std::string_view module, std::string_view name) const;
  bool count_match(Entry& e, std::string_view module, std::string_view name);
  void index_exact();

  std::string category_;
  std::vector<Entry> entries_;
  // Name globs without wildcards, as indexes into entries_, looked up by name: an @FILE may list
  // thousands of plain names, and a lookup keeps matching linear in the candidates instead of
  // growing with candidates x globs (10,000 names took seconds). Indexed at the first match.
  std::vector<uint32_t> exact_;
  std::optional<HashIndex> exact_index_;
  std::vector<size_t> scanned_;  // every other entry, tried one by one
};

}  // namespace retsnoop
