// Build-time helper, not installed: the words of retsnoop's command line, taken from the option
// and settings tables themselves, so that shell completions can never fall behind them and a
// test can hold the man page to them.
//
//   cli_words list              every option spelling and -C key, one per line
//   cli_words fill TEMPLATE     TEMPLATE with its @WORDS@ placeholders filled in
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "cli/lbr_flags.h"
#include "cli/option_table.h"
#include "cli/settings.h"
#include "discovery/case_presets.h"
#include "util/errno_names.h"

namespace retsnoop {
namespace {

// The kernel-internal errnos end at 530 (include/linux/errno.h).
constexpr int kLastErrno = 600;

bool is_short(int key) { return key > 0 && key < 256 && std::isprint(key); }

std::vector<std::string> option_words(bool with_arg_only) {
  std::vector<std::string> words;
  for (const OptionSpec& spec : option_specs()) {
    const argp_option& o = spec.argp;
    if (with_arg_only && (!o.arg || (o.flags & OPTION_ARG_OPTIONAL))) continue;
    if (o.name) words.push_back(std::string("--") + o.name);
    if (is_short(o.key)) words.push_back(std::string("-") + char(o.key));
  }
  return words;
}

std::vector<std::string> errno_words() {
  std::vector<std::string> words = {"any", "NULL"};
  for (int err = 1; err <= kLastErrno; ++err) {
    if (const char* name = errno_name(err)) words.emplace_back(name);
  }
  return words;
}

template <typename Range>
std::string joined(const Range& words, const char* sep) {
  std::string out;
  for (const auto& w : words) out.append(out.empty() ? "" : sep).append(w);
  return out;
}

std::vector<std::string> setting_keys() {
  std::vector<std::string> keys;
  for (const SettingInfo& s : setting_infos()) keys.push_back(s.key);
  return keys;
}

// Lines of an associative array body, valid in bash and zsh: [key]="yes no".
std::string setting_values() {
  std::string out;
  for (const SettingInfo& s : setting_infos())
    out += "  [" + s.key + "]=\"" + joined(s.words, " ") + "\"\n";
  return out;
}

std::map<std::string, std::string> placeholders() {
  return {
      {"@OPTIONS@", joined(option_words(false), " ")},
      {"@ARG_OPTIONS@", joined(option_words(true), "|")},
      {"@SETTING_KEYS@", joined(setting_keys(), " ")},
      {"@SETTING_VALUES@", setting_values()},
      {"@PRESETS@", joined(case_preset_names(), " ")},
      {"@LBR_SPECS@", joined(lbr_spec_names(), " ")},
      {"@ERRNOS@", joined(errno_words(), " ")},
  };
}

int fill(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cli_words: cannot read %s\n", path);
    return 1;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [token, value] : placeholders()) {
    for (size_t at = text.find(token); at != std::string::npos;
         at = text.find(token, at + value.size()))
      text.replace(at, token.size(), value);
  }
  std::cout << text;
  return 0;
}

int list() {
  for (const std::string& w : option_words(false)) std::cout << w << "\n";
  for (const std::string& k : setting_keys()) std::cout << k << "\n";
  return 0;
}

}  // namespace
}  // namespace retsnoop

int main(int argc, char** argv) {
  std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "list" && argc == 2) return retsnoop::list();
  if (cmd == "fill" && argc == 3) return retsnoop::fill(argv[2]);
  std::fprintf(stderr, "usage: cli_words list | cli_words fill TEMPLATE\n");
  return 2;
}
