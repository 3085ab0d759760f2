#include "discovery/glob_spec.h"

#include <algorithm>

#include "util/error.h"
#include "util/regular_file.h"
#include "util/strings.h"

namespace retsnoop {

namespace {

[[noreturn]] void invalid_glob(std::string_view text, const std::string& why) {
  throw UserError("Invalid glob '" + std::string(text) + "': " + why);
}

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Kernel symbols are C identifiers, plus '.' in compiler-made suffixes (foo.isra.0).
bool symbol_char(char c) { return is_alnum(c) || c == '_' || c == '.' || c == '*' || c == '?'; }

// Module names in kallsyms are identifiers too: the kernel stores "kvm-intel" as "kvm_intel".
bool module_char(char c) { return is_alnum(c) || c == '_' || c == '*' || c == '?'; }

template <typename Allowed>
void check_chars(std::string_view text, std::string_view part, Allowed allowed,
                 std::string_view what) {
  for (char c : part) {
    if (!allowed(c))
      invalid_glob(text,
                   "character '" + std::string(1, c) + "' can never match a " + std::string(what));
  }
}

void check_pattern(std::string_view text, std::string_view part, std::string_view what) {
  if (part.empty()) invalid_glob(text, "empty " + std::string(what) + " glob");
  if (part.find("**") != std::string_view::npos)
    invalid_glob(text, "'**' is not supported, use '*'");
}

GlobSpec parse_path_glob(std::string_view text, std::string_view path) {
  check_pattern(text, path, "source path");
  for (char c : path) {
    if (kWhitespace.find(c) != std::string_view::npos)
      invalid_glob(text, "source path contains whitespace");
  }
  return {GlobKind::Path, std::string(path), {}, std::string(text)};
}

std::string parse_module_glob(std::string_view text, std::string_view rest) {
  size_t close = rest.find(']');
  if (close == std::string_view::npos) invalid_glob(text, "unterminated '['");
  if (!trim(rest.substr(close + 1)).empty()) invalid_glob(text, "unexpected text after ']'");
  std::string mod(trim(rest.substr(0, close)));
  for (char& c : mod) {
    if (c == '-') c = '_';
  }
  check_pattern(text, mod, "module");
  check_chars(text, mod, module_char, "module name");
  return mod;
}

GlobSpec parse_name_glob(std::string_view text) {
  size_t open = text.find('[');
  std::string_view name = trim(text.substr(0, open));
  check_pattern(text, name, "function");
  check_chars(text, name, symbol_char, "kernel function name");
  GlobSpec spec{GlobKind::Name, std::string(name), {}, std::string(text)};
  if (open != std::string_view::npos)
    spec.module_glob = parse_module_glob(text, text.substr(open + 1));
  return spec;
}

// The binary is everything before the last ':', so that a path may hold ':' itself; user-space
// names are C or mangled C++ symbols, which never do.
GlobSpec parse_user_glob(std::string_view text, std::string_view body) {
  size_t colon = body.rfind(':');
  std::string_view binary = body.substr(0, colon), name = body.substr(colon + 1);
  check_pattern(text, name, "function");
  for (char c : binary) {
    if (c == '*' || c == '?' || c == '[')
      invalid_glob(text, "the binary must be a path or a library name, not a glob");
  }
  if (binary.find_first_of(kWhitespace) != std::string_view::npos)
    invalid_glob(text, "binary contains whitespace");
  if (binary.find('/') != std::string_view::npos && binary.front() != '/')
    invalid_glob(text, "a binary's path must be absolute");
  for (char c : name) {
    if (!symbol_char(c) && c != '$')
      invalid_glob(text, "character '" + std::string(1, c) + "' can never match a function name");
  }
  GlobSpec spec{GlobKind::User, std::string(name), {}, std::string(text)};
  spec.binary = std::string(binary);
  return spec;
}

// Tokens split on whitespace; a token starting with '[' is the module part of the previous one,
// so a file can list "foo [kvm]" just like the command line.
std::vector<std::string> glob_file_entries(std::string_view content) {
  std::vector<std::string> entries;
  for (size_t end = 0;;) {
    size_t start = content.find_first_not_of(kWhitespace, end);
    if (start == std::string_view::npos) break;
    end = std::min(content.find_first_of(kWhitespace, start), content.size());
    std::string_view tok = content.substr(start, end - start);
    if (tok.front() == '[' && !entries.empty())
      entries.back().append(" ").append(tok);
    else
      entries.emplace_back(tok);
  }
  return entries;
}

void append_file_globs(const std::string& path, std::vector<GlobSpec>& out) {
  std::vector<std::string> entries = glob_file_entries(
      read_regular_file(path, kMaxListFileSize, "cannot read glob file '" + path + "'"));
  out.reserve(out.size() + entries.size());
  for (const std::string& entry : entries) {
    if (entry.front() == '@')
      invalid_glob(entry, "nested @FILE in '" + path + "' is not supported");
    out.push_back(parse_glob(entry));
  }
}

}  // namespace

GlobSpec parse_glob(std::string_view text) {
  std::string_view body = trim(text);
  if (body.empty()) invalid_glob(text, "empty glob");
  if (body.front() == ':') return parse_path_glob(text, body.substr(1));
  if (body.find(':') != std::string_view::npos) return parse_user_glob(text, body);
  return parse_name_glob(text);
}

std::vector<GlobSpec> parse_glob_args(const std::vector<std::string>& typed) {
  std::vector<GlobSpec> out;
  for (const std::string& text : typed) {
    std::string_view body = trim(text);
    if (!body.empty() && body.front() == '@') {
      if (body.size() == 1) invalid_glob(text, "missing file name after '@'");
      append_file_globs(std::string(body.substr(1)), out);
    } else {
      out.push_back(parse_glob(text));
    }
  }
  return out;
}

}  // namespace retsnoop
