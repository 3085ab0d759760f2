// /proc/kallsyms parsing and lookups.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/file_text.h"

namespace retsnoop {

// One function of kallsyms in 24 bytes: it lists ~110,000 of them, kept for the whole run to
// name stack frames. name() and module() view a string of the table that holds the symbol, valid
// as long as the table lives (moving it keeps them); a string of its own per symbol would be as
// many allocations and copies on every start-up.
class KSym {
 public:
  // name and module lie in one text, module (possibly empty) after name; nullopt when either is
  // longer than kallsyms allows.
  static std::optional<KSym> make(uint64_t addr, std::string_view name, std::string_view module,
                                  char type);

  std::string_view name() const { return {text_, name_len_}; }
  std::string_view module() const { return {text_ + name_len_ + module_gap_, module_len_}; }
  // Points the symbol at a copy of its text: name, then module, with nothing between.
  void move_text(const char* copy) {
    text_ = copy;
    module_gap_ = 0;
  }
  // Bytes move_text() needs.
  size_t text_size() const { return size_t(name_len_) + module_len_; }

  char type() const { return type_; }  // kallsyms type letter (t, T, w, W, ...)

  uint64_t addr = 0;

 private:
  KSym() = default;

  const char* text_ = nullptr;
  uint16_t name_len_ = 0;
  uint8_t module_gap_ = 0;  // bytes between the name's end and the module ("\t[" while parsing)
  uint8_t module_len_ = 0;  // empty for vmlinux
  char type_ = 0;
};

class Kallsyms {
 public:
  // Parses kallsyms text; keeps function symbols (t T w W) only, sorted by address.
  static Kallsyms parse(std::istream& in);
  static Kallsyms parse_text(std::string_view text);
  // Reads /proc/kallsyms (or a fixture path); throws UserError if it cannot be read or if its
  // addresses are hidden.
  static Kallsyms load(const std::string& path = "/proc/kallsyms");
  // Like load(), but stops after the vmlinux text symbols (the _etext line, about two thirds of
  // the file), which is what planning needs for vmlinux functions; load_rest() reads the rest
  // (data, modules, BPF programs), off the time to attach.
  static Kallsyms load_text(const std::string& path = "/proc/kallsyms");
  // Whether the whole file has been read.
  bool complete() const { return !rest_; }
  // Reads what load_text() left; nothing when complete. Throws UserError on a read error, after
  // which the table counts as complete. Pointers into the table become invalid.
  void load_rest();

  const std::vector<KSym>& symbols() const { return syms_; }
  // Symbol containing addr (the closest one at or below it), nullptr if none. The last
  // function of vmlinux or of a module ends at the module's next symbol of any type, or at most
  // kMaxLastExtent after its start: an address past it (a BPF program or trampoline kallsyms
  // does not list) belongs to no symbol.
  const KSym* find_by_addr(uint64_t addr) const;
  static constexpr uint64_t kMaxLastExtent = 1 << 20;
  // Every copy of a function name (static functions may exist in several files), in address
  // order. A scan of every symbol: for a few lookups, where an index would cost more to build.
  std::vector<const KSym*> find_by_name(std::string_view name) const;
  // Bytes from sym (one of symbols()) to the next function symbol at a higher address: an upper
  // bound of its size, since kallsyms has no sizes. 0 for the last one.
  uint64_t extent(const KSym& sym) const;
  // Address of a symbol of any type (e.g. _stext), 0 if absent.
  uint64_t addr_of(std::string_view name) const;
  // True when every address reads as zero (kernel.kptr_restrict hides them).
  bool addresses_hidden() const { return addresses_hidden_; }

  // Replaces the symbols of one module with those the file lists now; false, leaving the table
  // alone, when it cannot be read. The [bpf] pseudo-module changes with every BPF program load
  // and trampoline update, so a table read before attaching lacks what fentry stacks run
  // through. Pointers into the table become invalid.
  bool reload_module(std::string_view module, const std::string& path = "/proc/kallsyms");

 private:
  void replace_module(std::string_view module, std::string_view text);

  // Where the functions of one module (empty: vmlinux) end: the lowest address of a symbol of
  // another type above its highest function, 0 when none is known.
  struct ModuleEnd {
    std::string module;
    uint64_t last_function = 0;
    uint64_t end = 0;
  };
  ModuleEnd& module_end(std::string_view module);
  // Adds a function symbol to `to` and notes where its module's functions end.
  void add_symbol(uint64_t addr, char type, std::string_view name, std::string_view module,
                  std::vector<KSym>& to);
  void note_end(std::string_view module, uint64_t addr, bool is_function);
  uint64_t last_extent(const KSym& last) const;

  // Adds the symbols of text; returns whether any address (of any symbol type) is nonzero.
  bool add_text(std::string_view text);
  // Copies the names and modules syms point into to a string of the table's own, and points
  // them there, so that the text they were parsed from can go.
  void own_names(std::span<KSym> syms);

  std::vector<std::unique_ptr<const std::string>> texts_;  // what syms_ point into
  std::vector<KSym> syms_;
  std::vector<ModuleEnd> ends_;
  std::vector<std::pair<std::string, uint64_t>> special_;  // non-function symbols we need (_stext)
  bool addresses_hidden_ = false;
  std::unique_ptr<SplitTextFile> rest_;  // the file load_text() stopped reading
};

}  // namespace retsnoop
