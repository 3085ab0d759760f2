#include "discovery/probe_spec.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "util/error.h"
#include "util/regular_file.h"
#include "util/strings.h"

namespace retsnoop {

namespace {

constexpr const char* kForms =
    "expected kprobe:FUNC[+OFFSET], kretprobe:FUNC, tp:CATEGORY:NAME or rawtp:NAME";

[[noreturn]] void invalid_probe(std::string_view text, const std::string& why) {
  throw UserError("Invalid probe '" + std::string(text) + "': " + why + "; " + kForms);
}

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Function names may carry compiler suffixes (foo.isra.0); kprobes take no globs.
bool func_char(char c) { return ident_char(c) || c == '.'; }

bool glob_char(char c) { return ident_char(c) || c == '*' || c == '?'; }

template <typename Allowed>
std::string checked_part(std::string_view text, std::string_view part, std::string_view what,
                         Allowed allowed) {
  if (part.empty()) invalid_probe(text, "empty " + std::string(what));
  for (char c : part) {
    if (!allowed(c))
      invalid_probe(
          text, "character '" + std::string(1, c) + "' is not allowed in a " + std::string(what));
  }
  return std::string(part);
}

// Decimal or 0x hexadecimal, as perf and kprobe_events accept it.
uint64_t parse_offset(std::string_view text, std::string_view digits) {
  bool hex = digits.starts_with("0x") || digits.starts_with("0X");
  std::string_view body = hex ? digits.substr(2) : digits;
  std::string s(body);
  if (s.empty() ||
      s.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos)
    invalid_probe(text, "offset '" + std::string(digits) + "' is not a decimal or 0x hex number");
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), nullptr, hex ? 16 : 10);
  if (errno == ERANGE) invalid_probe(text, "offset '" + std::string(digits) + "' is out of range");
  return v;
}

ProbeSpec parse_kprobe(std::string_view text, std::string_view rest) {
  size_t plus = rest.find('+');
  ProbeSpec p{
      InjectKind::Kprobe, {}, checked_part(text, rest.substr(0, plus), "function name", func_char)};
  if (plus != std::string_view::npos) p.offset = parse_offset(text, rest.substr(plus + 1));
  return p;
}

ProbeSpec parse_kretprobe(std::string_view text, std::string_view rest) {
  if (rest.find('+') != std::string_view::npos)
    invalid_probe(text, "a kretprobe fires at the return and takes no offset");
  return {InjectKind::Kretprobe, {}, checked_part(text, rest, "function name", func_char)};
}

ProbeSpec parse_tracepoint(std::string_view text, std::string_view rest) {
  size_t colon = rest.find(':');
  if (colon == std::string_view::npos) invalid_probe(text, "a tracepoint needs CATEGORY:NAME");
  return {InjectKind::Tracepoint,
          checked_part(text, rest.substr(0, colon), "tracepoint category", glob_char),
          checked_part(text, rest.substr(colon + 1), "tracepoint name", glob_char)};
}

ProbeSpec parse_raw_tracepoint(std::string_view text, std::string_view rest) {
  return {
      InjectKind::RawTracepoint, {}, checked_part(text, rest, "raw tracepoint name", glob_char)};
}

void parse_probe_file(const std::string& path, std::vector<ProbeSpec>& out) {
  std::istringstream in(read_regular_file(path, kMaxListFileSize, "Failed to read '" + path + "'"));
  for (std::string line; std::getline(in, line);) {
    std::string_view spec = trim(std::string_view(line).substr(0, line.find('#')));
    if (!spec.empty()) out.push_back(parse_probe_spec(spec));
  }
}

}  // namespace

std::string_view inject_kind_name(InjectKind kind) {
  switch (kind) {
    case InjectKind::Kprobe: return "kprobe";
    case InjectKind::Kretprobe: return "kretprobe";
    case InjectKind::Tracepoint: return "tp";
    case InjectKind::RawTracepoint: break;
  }
  return "rawtp";
}

std::string probe_target(const ProbeSpec& p) {
  if (p.kind == InjectKind::Tracepoint) return p.category + ":" + p.name;
  if (p.kind != InjectKind::Kprobe || p.offset == 0) return p.name;
  char off[32];
  std::snprintf(off, sizeof(off), "+0x%llx", (unsigned long long)p.offset);
  return p.name + off;
}

std::string probe_label(const ProbeSpec& p) {
  return std::string(inject_kind_name(p.kind)) + ":" + probe_target(p);
}

ProbeSpec parse_probe_spec(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) invalid_probe(text, "no probe kind");
  std::string_view kind = text.substr(0, colon), rest = text.substr(colon + 1);
  if (kind == "kprobe") return parse_kprobe(text, rest);
  if (kind == "kretprobe") return parse_kretprobe(text, rest);
  if (kind == "tp") return parse_tracepoint(text, rest);
  if (kind == "rawtp") return parse_raw_tracepoint(text, rest);
  invalid_probe(text, "unknown probe kind '" + std::string(kind) + "'");
}

std::vector<ProbeSpec> parse_probe_args(const std::vector<std::string>& typed) {
  std::vector<ProbeSpec> specs;
  for (const std::string& arg : typed) {
    if (arg.starts_with("@"))
      parse_probe_file(arg.substr(1), specs);
    else
      specs.push_back(parse_probe_spec(arg));
  }
  return specs;
}

}  // namespace retsnoop
