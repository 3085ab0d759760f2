// Symbols and source lines of one mapped ELF file, an executable or a shared library. The file is
// opened while its process runs (by descriptor, through the process's root) and read on the first
// lookup, so a process that exited since is still symbolized.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "discovery/ret_kind.h"
#include "symbolize/symbolizer.h"
#include "util/owned_fd.h"

typedef struct Elf Elf;
typedef struct Dwarf Dwarf;
#include <elfutils/libdw.h>

namespace retsnoop {

struct CodeSymbol {
  uint64_t addr = 0;  // link-time virtual address
  uint64_t size = 0;
  std::string name;  // demangled
};

// A function's prototype as raw BTF (DwarfBtfBuilder), and the id of its FUNC in it.
struct FuncBtfBlob {
  std::string raw;
  int func_id = 0;
};

class ElfFile {
 public:
  // debug_roots: the directories a separate debug file is looked for under, in order: the root
  // the process sees (/proc/PID/root), then retsnoop's own (/). Each is the root its paths are
  // resolved in (open_regular_in_root()).
  using Dir = std::shared_ptr<const OwnedFd>;
  ElfFile(OwnedFd fd, std::vector<Dir> debug_roots);
  ~ElfFile();
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  // What is at file offset off: the function symbol (found, name, offset) and, when the file or
  // its debug file has DWARF, the source line. is_return_addr: off follows a call, the source is
  // that of the call instruction. Not thread-safe.
  SymbolizedAddr lookup(uint64_t off, bool is_return_addr);
  // The failure rule the DWARF return type of the function starting at file offset off gives it
  // (dwarf_ret_kind()); nullopt without DWARF for it. Not thread-safe.
  std::optional<RetKind> ret_kind(uint64_t off);
  // The prototype the DWARF gives the function starting at file offset off, as BTF; nullopt
  // without DWARF for it, or when a parameter's type cannot be expressed. Not thread-safe.
  std::optional<FuncBtfBlob> func_btf(uint64_t off);
  // Hex build id (NT_GNU_BUILD_ID), empty when the file has none or is not ELF.
  const std::string& build_id();
  // The file has a build id but no DWARF of its own, and no debug file was taken yet: its lines
  // (and often its full symbol table) are in the debug file of that build id.
  bool wants_debug_file();
  // fd, a candidate for that debug file, is taken when it is ELF of the same build id. The
  // symbolizer worker gets its candidates this way, opened by its parent.
  bool use_debug_file(OwnedFd fd);

  // At most this many function symbols are kept per file (the largest libraries have a few
  // hundred thousand): a crafted symbol table costs no more memory and sorting than that.
  static constexpr size_t kMaxSymbols = size_t(1) << 21;

 private:
  struct Segment {
    uint64_t offset, vaddr, filesz;
  };
  void load();
  std::optional<uint64_t> vaddr_of(uint64_t off) const;
  // The subprogram DIE of the function starting at file offset off.
  std::optional<Dwarf_Die> function_die(uint64_t off);
  const CodeSymbol* symbol_at(uint64_t vaddr) const;
  SourceLoc line_of(uint64_t pc);
  void open_debug_file();

  OwnedFd fd_;
  std::vector<Dir> debug_roots_;
  bool loaded_ = false;
  Elf* elf_ = nullptr;
  std::vector<Segment> segments_;
  std::vector<CodeSymbol> symbols_;  // sorted by addr
  std::string build_id_;
  OwnedFd debug_fd_;
  Elf* debug_elf_ = nullptr;
  Dwarf* dwarf_ = nullptr;
};

// The separate debug file of a build id inside a root, /usr/lib/debug/.build-id/xx/yyyy.debug;
// empty for an id too short to split.
std::string build_id_debug_path(const std::string& build_id);

}  // namespace retsnoop
