// /proc/kallsyms parsing and lookups.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace retsnoop {

struct KSym {
  uint64_t addr = 0;
  std::string name;
  std::string module;  // empty for vmlinux
  char type = 0;       // kallsyms type letter (t, T, w, W, ...)
};

class Kallsyms {
 public:
  // Parses kallsyms text; keeps function symbols (t T w W) only, sorted by address.
  static Kallsyms parse(std::istream& in);
  static Kallsyms parse_text(std::string_view text);
  // Reads /proc/kallsyms (or a fixture path); throws UserError if it cannot be read or if its
  // addresses are hidden.
  static Kallsyms load(const std::string& path = "/proc/kallsyms");

  const std::vector<KSym>& symbols() const { return syms_; }
  // Symbol containing addr (the closest one at or below it), nullptr if none.
  const KSym* find_by_addr(uint64_t addr) const;
  // Every copy of a function name (static functions may exist in several files).
  std::vector<const KSym*> find_by_name(std::string_view name) const;
  // Address of a symbol of any type (e.g. _stext), 0 if absent.
  uint64_t addr_of(std::string_view name) const;
  // True when every address reads as zero (kernel.kptr_restrict hides them).
  bool addresses_hidden() const { return addresses_hidden_; }

 private:
  void index_names();

  std::vector<KSym> syms_;
  // (hash of name, index into syms_), sorted: a name's copies are adjacent and in address order.
  // Integer keys sort several times faster than names and stay valid when the object is copied.
  std::vector<std::pair<uint64_t, uint32_t>> by_name_;
  std::vector<std::pair<std::string, uint64_t>> special_;  // non-function symbols we need (_stext)
  bool addresses_hidden_ = false;
};

}  // namespace retsnoop
