// Where the discovery tests' fixture files (kallsyms listings, tracefs trees, glob lists) live.
#pragma once

#include <string>

namespace retsnoop {

inline const std::string kFixtures = std::string(RS_FIXTURES_DIR) + "/discovery/";

}  // namespace retsnoop
