#include "discovery/kallsyms.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <iterator>
#include <optional>
#include <span>
#include <sstream>

#include "util/error.h"
#include "util/file_text.h"
#include "util/text_lines.h"

namespace retsnoop {

namespace {

// Non-function symbols kept for addr_of(): symbolization derives the KASLR offset from the text
// anchors; kprobe programs of kernels without bpf_get_func_ip() find the running kprobe through
// the per-CPU ones.
constexpr std::string_view kAnchors[] = {"_text", "_stext", "_etext", "current_kprobe",
                                         "__per_cpu_offset"};

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

bool by_addr(const KSym& a, const KSym& b) { return a.addr < b.addr; }

[[noreturn]] void read_failed(const std::string& path) {
  throw UserError("cannot read " + path + ": " + std::strerror(errno));
}

Kallsyms checked_table(Kallsyms ks) {
  if (ks.addresses_hidden())
    throw UserError("kallsyms addresses are hidden (kernel.kptr_restrict=2 or not root)",
                    "run retsnoop as root, or allow it with `sysctl kernel.kptr_restrict=1`");
  return ks;
}

}  // namespace

std::optional<KSym> KSym::make(uint64_t addr, std::string_view name, std::string_view module,
                               char type) {
  KSym s;
  size_t gap = module.empty() ? 0 : size_t(module.data() - (name.data() + name.size()));
  if (name.size() > UINT16_MAX || module.size() > UINT8_MAX || gap > UINT8_MAX) return std::nullopt;
  s.addr = addr;
  s.type_ = type;
  s.text_ = name.data();
  s.name_len_ = uint16_t(name.size());
  s.module_gap_ = uint8_t(gap);
  s.module_len_ = uint8_t(module.size());
  return s;
}

Kallsyms Kallsyms::parse(std::istream& in) {
  std::ostringstream text;
  text << in.rdbuf();
  return parse_text(text.str());
}

Kallsyms Kallsyms::parse_text(std::string_view text) {
  Kallsyms ks;
  ks.addresses_hidden_ = !ks.add_text(text) && !ks.syms_.empty();
  return ks;
}

// The text is mostly hex addresses and data symbols, about three times the function names.
void Kallsyms::own_names(std::span<KSym> syms) {
  size_t bytes = 0;
  for (const KSym& s : syms) bytes += s.text_size();
  auto names = std::make_unique<std::string>();
  names->reserve(bytes);  // exact: the pointers taken while it is filled stay valid
  for (KSym& s : syms) {
    const char* copy = names->data() + names->size();
    names->append(s.name()).append(s.module());
    s.move_text(copy);
  }
  texts_.push_back(std::move(names));
}

bool Kallsyms::add_text(std::string_view text) {
  size_t old_size = syms_.size();
  syms_.reserve(old_size + text.size() / 40);  // about the line count (lines average ~45 bytes)
  bool any_nonzero = false;
  for_each_line(text, [&](std::string_view text_line) {
    std::optional<Line> line = parse_line(text_line);
    if (!line) return;
    any_nonzero |= line->addr != 0;
    if (is_anchor(line->name)) special_.emplace_back(line->name, line->addr);
    add_symbol(line->addr, line->type, line->name, line->module, syms_);
  });
  own_names(std::span<KSym>(syms_).subspan(old_size));
  // Usually sorted already; BPF programs and modules may be listed out of address order.
  auto added = syms_.begin() + old_size;
  if (!std::is_sorted(added, syms_.end(), by_addr)) std::stable_sort(added, syms_.end(), by_addr);
  std::inplace_merge(syms_.begin(), added, syms_.end(), by_addr);
  return any_nonzero;
}

Kallsyms Kallsyms::load(const std::string& path) {
  std::optional<std::string> text = read_text_file(path);
  if (!text) read_failed(path);
  return checked_table(parse_text(*text));
}

Kallsyms Kallsyms::load_text(const std::string& path) {
  // Symbols are listed by address, vmlinux first: _etext ends its text.
  std::optional<SplitTextFile> file = SplitTextFile::open(path);
  std::optional<std::string> text = file ? file->read_through_line(" _etext") : std::nullopt;
  if (!text) read_failed(path);
  Kallsyms ks = parse_text(*text);
  if (!file->complete()) ks.rest_ = std::make_unique<SplitTextFile>(std::move(*file));
  return checked_table(std::move(ks));
}

void Kallsyms::load_rest() {
  if (!rest_) return;
  std::unique_ptr<SplitTextFile> file = std::move(rest_);
  std::optional<std::string> text = file->read_rest();
  if (!text) read_failed(file->path());
  add_text(*text);
}

bool Kallsyms::reload_module(std::string_view module, const std::string& path) {
  load_rest();  // completing the table later would add the module's lines once more
  std::optional<std::string> text = read_text_file(path);
  if (!text) return false;
  replace_module(module, *text);
  return true;
}

// Only the module's own lines are parsed: they are a few among the ~100k of vmlinux.
void Kallsyms::replace_module(std::string_view module, std::string_view text) {
  std::string suffix = "\t[" + std::string(module) + "]";
  std::vector<KSym> fresh;
  module_end(module) = ModuleEnd{std::string(module)};
  for_each_line(text, [&](std::string_view text_line) {
    if (!text_line.ends_with(suffix)) return;
    std::optional<Line> line = parse_line(text_line);
    if (line) add_symbol(line->addr, line->type, line->name, line->module, fresh);
  });
  own_names(fresh);
  std::stable_sort(fresh.begin(), fresh.end(), by_addr);
  std::erase_if(syms_, [&](const KSym& s) { return s.module() == module; });
  size_t kept_count = syms_.size();
  syms_.insert(syms_.end(), fresh.begin(), fresh.end());
  std::inplace_merge(syms_.begin(), syms_.begin() + kept_count, syms_.end(), by_addr);
}

void Kallsyms::add_symbol(uint64_t addr, char type, std::string_view name, std::string_view module,
                          std::vector<KSym>& to) {
  bool function = is_function_type(type);
  if (function) {
    std::optional<KSym> sym = KSym::make(addr, name, module, type);
    if (!sym) return;
    to.push_back(*sym);
  }
  note_end(module, addr, function);
}

Kallsyms::ModuleEnd& Kallsyms::module_end(std::string_view module) {
  // A module's lines come together: the last one looked up is usually the one.
  if (!ends_.empty() && ends_.back().module == module) return ends_.back();
  auto it = std::find_if(ends_.begin(), ends_.end(),
                         [&](const ModuleEnd& e) { return e.module == module; });
  if (it == ends_.end()) return ends_.emplace_back(ModuleEnd{std::string(module)});
  std::rotate(it, it + 1, ends_.end());
  return ends_.back();
}

// One pass over lines in any order: an end seen before a higher function is forgotten (a
// module's lines need not be sorted; vmlinux's are, so its end is always known when listed).
void Kallsyms::note_end(std::string_view module, uint64_t addr, bool is_function) {
  if (addr == 0) return;
  ModuleEnd& e = module_end(module);
  if (is_function) {
    e.last_function = std::max(e.last_function, addr);
    if (e.end <= e.last_function) e.end = 0;
  } else if (addr > e.last_function && (e.end == 0 || addr < e.end)) {
    e.end = addr;
  }
}

uint64_t Kallsyms::last_extent(const KSym& last) const {
  auto it = std::find_if(ends_.begin(), ends_.end(),
                         [&](const ModuleEnd& e) { return e.module == last.module(); });
  if (it != ends_.end() && it->end > last.addr)
    return std::min(it->end - last.addr, kMaxLastExtent);
  return kMaxLastExtent;
}

const KSym* Kallsyms::find_by_addr(uint64_t addr) const {
  auto it = std::upper_bound(syms_.begin(), syms_.end(), addr,
                             [](uint64_t a, const KSym& s) { return a < s.addr; });
  if (it == syms_.begin()) return nullptr;
  const KSym& sym = *std::prev(it);
  if (it != syms_.end() && it->module() == sym.module()) return &sym;
  return addr - sym.addr < last_extent(sym) ? &sym : nullptr;
}

std::vector<const KSym*> Kallsyms::find_by_name(std::string_view name) const {
  std::vector<const KSym*> out;
  for (const KSym& s : syms_) {
    if (s.name() == name) out.push_back(&s);
  }
  return out;
}

uint64_t Kallsyms::extent(const KSym& sym) const {
  auto it = std::upper_bound(syms_.begin(), syms_.end(), sym.addr,
                             [](uint64_t a, const KSym& s) { return a < s.addr; });
  return it == syms_.end() ? 0 : it->addr - sym.addr;
}

uint64_t Kallsyms::addr_of(std::string_view name) const {
  for (const auto& [anchor, addr] : special_) {
    if (anchor == name) return addr;
  }
  std::vector<const KSym*> copies = find_by_name(name);
  return copies.empty() ? 0 : copies.front()->addr;
}

}  // namespace retsnoop
