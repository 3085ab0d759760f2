#include "discovery/tp_format.h"

#include <charconv>

#include "util/file_text.h"
#include "util/strings.h"
#include "util/text_lines.h"

namespace retsnoop {

namespace {

constexpr std::string_view kDataLoc = "__data_loc ";
constexpr std::string_view kRelLoc = "__rel_loc ";

std::optional<uint32_t> number(std::string_view s) {
  uint32_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// The value of "key:value" among a line's ';'-separated parts.
std::optional<std::string_view> part(std::string_view line, std::string_view key) {
  while (!line.empty()) {
    size_t semi = line.find(';');
    std::string_view p = trim(line.substr(0, semi));
    if (p.starts_with(key) && p.size() > key.size() && p[key.size()] == ':')
      return trim(p.substr(key.size() + 1));
    if (semi == std::string_view::npos) break;
    line = line.substr(semi + 1);
  }
  return std::nullopt;
}

// Bytes of one element of the kernel's integer types, for arrays whose length the format file
// gives as a macro name or not at all; 1 for types not listed, which shows their bytes.
uint32_t elem_size_of(std::string_view type) {
  if (type.ends_with('*')) return 8;
  for (std::string_view t : {"short", "u16", "s16", "__u16", "__s16", "__be16", "__le16"})
    if (type.ends_with(t)) return 2;
  for (std::string_view t : {"int", "u32", "s32", "__u32", "__s32", "__be32", "__le32", "pid_t"})
    if (type.ends_with(t)) return 4;
  for (std::string_view t : {"long", "u64", "s64", "__u64", "__s64", "__be64", "__le64"})
    if (type.ends_with(t)) return 8;
  return 1;
}

bool is_char(std::string_view type) { return type == "char" || type == "const char"; }

// "TYPE NAME" or "TYPE NAME[LEN]" (LEN a number, a macro name or empty) into f.
bool parse_decl(std::string_view decl, TpField& f) {
  size_t sp = decl.find_last_of(kWhitespace);
  if (sp == std::string_view::npos) return false;
  std::string_view type = trim(decl.substr(0, sp));
  std::string_view name = decl.substr(sp + 1);
  if (type.starts_with(kDataLoc) || type.starts_with(kRelLoc)) {
    f.loc = type.starts_with(kDataLoc) ? TpLoc::Data : TpLoc::Relative;
    type = trim(type.substr(type.starts_with(kDataLoc) ? kDataLoc.size() : kRelLoc.size()));
    if (type.ends_with("[]")) type = trim(type.substr(0, type.size() - 2));
    f.elem_size = elem_size_of(type);
  } else if (size_t br = name.find('['); br != std::string_view::npos) {
    std::string_view len = name.substr(br + 1);
    name = name.substr(0, br);
    if (len.ends_with(']')) len.remove_suffix(1);
    std::optional<uint32_t> n = number(len);
    f.elem_size = n && *n && f.size % *n == 0 ? f.size / *n : elem_size_of(type);
  }
  if (name.empty() || type.empty()) return false;
  f.name = name;
  f.type = type;
  f.text = f.elem_size == 1 && is_char(type);
  f.pointer = !f.elem_size && type.ends_with('*');
  return true;
}

std::optional<TpField> parse_field(std::string_view line) {
  std::optional<std::string_view> decl = part(line, "field");
  std::optional<std::string_view> off = part(line, "offset");
  std::optional<std::string_view> size = part(line, "size");
  std::optional<std::string_view> sign = part(line, "signed");
  if (!decl || !off || !size) return std::nullopt;
  TpField f;
  std::optional<uint32_t> o = number(*off), s = number(*size);
  if (!o || !s || *s == 0) return std::nullopt;
  f.offset = *o;
  f.size = *s;
  f.is_signed = sign && *sign == "1";
  if (!parse_decl(*decl, f)) return std::nullopt;
  if (f.loc != TpLoc::Fixed && f.size != 4) return std::nullopt;
  return f;
}

}  // namespace

std::vector<TpField> parse_tp_format(std::string_view text) {
  std::vector<TpField> fields;
  for_each_line(text, [&](std::string_view line) {
    std::optional<TpField> f = parse_field(line);
    if (f && !f->name.starts_with("common_")) fields.push_back(std::move(*f));
  });
  return fields;
}

std::optional<std::string> read_tp_format(const std::vector<std::string>& tracefs_dirs,
                                          std::string_view category, std::string_view name) {
  for (const std::string& dir : tracefs_dirs) {
    std::string path =
        dir + "/events/" + std::string(category) + "/" + std::string(name) + "/format";
    if (std::optional<std::string> text = read_text_file(path)) return text;
  }
  return std::nullopt;
}

}  // namespace retsnoop
