// Every JSON document retsnoop prints or writes: strings from outside (comms, paths, symbol
// names) may hold any bytes. Invalid UTF-8 is replaced instead of throwing, and everything past
// ASCII is written as \uXXXX, so that a C1 control (U+009B, a CSI to some terminals) never
// reaches a terminal that shows the JSON.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace retsnoop {

inline std::string dump_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

}  // namespace retsnoop
