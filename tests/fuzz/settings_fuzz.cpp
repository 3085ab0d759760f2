// -C KEY=VALUE. The first byte picks a key from the settings table, the rest is its value: every
// value parser is reached without the fuzzer having to guess key names. The whole input also
// goes through as typed, for the split at '=' and unknown keys.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options.h"
#include "cli/settings.h"
#include "util/error.h"

namespace {

void apply(std::string_view key_value) {
  retsnoop::Options opts;
  try {
    retsnoop::apply_setting(opts, key_value);
  } catch (const retsnoop::UserError&) {
    // A refusal is the parser's answer to bad input; anything else escaping is a bug.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<retsnoop::SettingInfo> settings = retsnoop::setting_infos();
  if (size == 0) return 0;
  std::string_view value(reinterpret_cast<const char*>(data) + 1, size - 1);
  apply(settings[data[0] % settings.size()].key + "=" + std::string(value));
  apply(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
