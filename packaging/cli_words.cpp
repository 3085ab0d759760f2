// Build-time helper, not installed: the words of retsnoop's command line, taken from the option
// and settings tables themselves, so that shell completions and the man page can never fall
// behind them.
//
//   cli_words list              every option spelling and -C key, one per line
//   cli_words fill TEMPLATE     TEMPLATE with its placeholders filled in: @WORDS@ lists for the
//                               completions; for the man page, @OPTION name@ (an option's
//                               spellings and argument, as an scdoc term) and @SETTINGS@ (every
//                               setting with its default, values and description)
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

// scdoc: '*' toggles bold; '_' only at a word's edge, which our texts never have.
std::string scdoc_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '*' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// "*-R*, *-B*, *--lbr*[=_SPEC_]": the short spellings, the aliases' ones, then the long one with
// the argument. Empty when no option has that long name.
std::string option_term(const std::string& name) {
  auto specs = option_specs();
  for (size_t i = 0; i < specs.size(); ++i) {
    const argp_option& o = specs[i].argp;
    if (!o.name || name != o.name || (o.flags & OPTION_ALIAS)) continue;
    std::string term;
    for (size_t j = i; j < specs.size() && (j == i || (specs[j].argp.flags & OPTION_ALIAS)); ++j) {
      if (is_short(specs[j].argp.key))
        term.append("*-").append(1, char(specs[j].argp.key)).append("*, ");
    }
    term.append("*--").append(o.name).append("*");
    if (o.arg) {
      std::string arg = "_" + scdoc_text(o.arg) + "_";
      term += (o.flags & OPTION_ARG_OPTIONAL) ? "[=" + arg + "]" : " " + arg;
    }
    return term;
  }
  return "";
}

std::string settings_section() {
  std::string out;
  for (const SettingInfo& s : setting_infos()) {
    out.append("*").append(s.key).append("* (default ").append(scdoc_text(s.default_value));
    // A line that starts with '-' would open a list.
    out.append(")\n\t").append(s.doc.starts_with('-') ? "\\" : "").append(scdoc_text(s.doc));
    out.append(" Values: ");
    out.append(scdoc_text(s.values)).append(".\n\n");
  }
  out.pop_back();  // the template's line break ends the last one
  return out;
}

// Replaces each "@OPTION name@" with the option's term; false, naming it, for an unknown name.
bool fill_option_terms(std::string& text) {
  const std::string open = "@OPTION ";
  for (size_t at = text.find(open); at != std::string::npos; at = text.find(open, at)) {
    size_t end = text.find('@', at + open.size());
    if (end == std::string::npos) end = text.size();
    std::string name = text.substr(at + open.size(), end - at - open.size());
    std::string term = option_term(name);
    if (term.empty()) {
      std::fprintf(stderr, "cli_words: no option named '%s'\n", name.c_str());
      return false;
    }
    text.replace(at, end + 1 - at, term);
    at += term.size();
  }
  return true;
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
      {"@SETTINGS@", settings_section()},
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
  if (!fill_option_terms(text)) return 1;
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
