#include "discovery/kallsyms.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <functional>
#include <optional>
#include <sstream>

#include "discovery/file_text.h"
#include "util/error.h"

namespace retsnoop {

namespace {

// Non-function symbols kept for addr_of(): symbolization derives the KASLR offset from them.
constexpr std::string_view kAnchors[] = {"_text", "_stext", "_etext"};

bool is_function_type(char type) {
  return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

bool is_anchor(std::string_view name) {
  return std::find(std::begin(kAnchors), std::end(kAnchors), name) != std::end(kAnchors);
}

struct Line {
  uint64_t addr;
  char type;
  std::string_view name;
  std::string_view module;
};

// "ffffffff81000000 T _stext" or "ffffffffc0a01000 t foo\t[kvm]"; nullopt when malformed.
std::optional<Line> parse_line(std::string_view line) {
  Line out{};
  auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), out.addr, 16);
  size_t pos = end - line.data();
  if (ec != std::errc() || pos + 3 > line.size() || line[pos] != ' ' || line[pos + 2] != ' ')
    return std::nullopt;
  out.type = line[pos + 1];
  std::string_view rest = line.substr(pos + 3);
  size_t tab = rest.find('\t');
  out.name = rest.substr(0, tab);
  if (tab != std::string_view::npos) {
    std::string_view mod = rest.substr(tab + 1);
    if (mod.size() >= 2 && mod.front() == '[' && mod.back() == ']')
      out.module = mod.substr(1, mod.size() - 2);
  }
  if (out.name.empty()) return std::nullopt;
  return out;
}

uint64_t name_hash(std::string_view name) { return std::hash<std::string_view>{}(name); }

}  // namespace

Kallsyms Kallsyms::parse(std::istream& in) {
  std::ostringstream text;
  text << in.rdbuf();
  return parse_text(text.str());
}

Kallsyms Kallsyms::parse_text(std::string_view text) {
  Kallsyms ks;
  ks.syms_.reserve(text.size() / 40);  // about the line count (lines average ~45 bytes)
  bool any_nonzero = false;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::optional<Line> line = parse_line(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line) continue;
    any_nonzero |= line->addr != 0;
    if (is_anchor(line->name)) ks.special_.emplace_back(line->name, line->addr);
    if (is_function_type(line->type))
      ks.syms_.push_back(
          {line->addr, std::string(line->name), std::string(line->module), line->type});
  }
  ks.addresses_hidden_ = !ks.syms_.empty() && !any_nonzero;
  // Usually sorted already; BPF programs and modules may be listed out of address order.
  auto by_addr = [](const KSym& a, const KSym& b) { return a.addr < b.addr; };
  if (!std::is_sorted(ks.syms_.begin(), ks.syms_.end(), by_addr))
    std::stable_sort(ks.syms_.begin(), ks.syms_.end(), by_addr);
  ks.index_names();
  return ks;
}

Kallsyms Kallsyms::load(const std::string& path) {
  std::optional<std::string> text = read_text_file(path);
  if (!text) throw UserError("Can't read " + path + ": " + std::strerror(errno));
  Kallsyms ks = parse_text(*text);
  if (ks.addresses_hidden())
    throw UserError("kallsyms addresses are hidden (kernel.kptr_restrict=2 or not root)",
                    "run retsnoop as root, or allow it with `sysctl kernel.kptr_restrict=1`");
  return ks;
}

void Kallsyms::index_names() {
  by_name_.reserve(syms_.size());
  for (uint32_t i = 0; i < syms_.size(); ++i) by_name_.emplace_back(name_hash(syms_[i].name), i);
  std::sort(by_name_.begin(), by_name_.end());
}

const KSym* Kallsyms::find_by_addr(uint64_t addr) const {
  auto it = std::upper_bound(syms_.begin(), syms_.end(), addr,
                             [](uint64_t a, const KSym& s) { return a < s.addr; });
  return it == syms_.begin() ? nullptr : &*std::prev(it);
}

std::vector<const KSym*> Kallsyms::find_by_name(std::string_view name) const {
  uint64_t h = name_hash(name);
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), std::pair<uint64_t, uint32_t>(h, 0));
  std::vector<const KSym*> out;
  for (; it != by_name_.end() && it->first == h; ++it) {
    if (syms_[it->second].name == name) out.push_back(&syms_[it->second]);
  }
  return out;
}

uint64_t Kallsyms::addr_of(std::string_view name) const {
  for (const auto& [anchor, addr] : special_) {
    if (anchor == name) return addr;
  }
  std::vector<const KSym*> copies = find_by_name(name);
  return copies.empty() ? 0 : copies.front()->addr;
}

}  // namespace retsnoop
