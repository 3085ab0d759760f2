// The file in which the ':PATHGLOB' index of one vmlinux outlives the run (<build-id>.cuidx in
// the cache directory). A crash may have cut it short and anybody who can write there may have
// changed it: it is checked whole before any of it is trusted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retsnoop {

// CU path relative to the kernel tree root, and the ELF symbol names of the functions whose code
// lies in it (compiler clones under their own names: "foo.isra.0").
using CuFunctions = std::vector<std::pair<std::string, std::vector<std::string>>>;

// The file's text for the vmlinux with that build id.
std::string render_cu_index_cache(const std::string& build_id, const CuFunctions& index);

// nullopt when the text belongs to another build or its trailer does not match its content.
std::optional<CuFunctions> parse_cu_index_cache(std::string_view text, const std::string& build_id);

}  // namespace retsnoop
