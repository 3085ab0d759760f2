// The vmlinux image with DWARF: where to find it, one shared ELF/DWARF handle, and whether it is
// the build of the running kernel. Source lines, inline frames and ':path' globs all read it.
#pragma once

#include <elfutils/libdw.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "util/owned_fd.h"

namespace retsnoop {

class Kallsyms;

// A defined function or label symbol of the ELF symbol table.
struct ElfSymbol {
  std::string_view name;
  uint64_t addr = 0;  // link-time
  uint64_t size = 0;
  bool is_function = false;  // STT_FUNC; else a label such as _stext
  bool is_local = false;     // STB_LOCAL, like static functions ('t' in kallsyms)
};

// An opened vmlinux: ELF and DWARF handles live as long as the object. Not thread-safe (libdw
// fills its caches lazily): use it from one thread at a time.
class Vmlinux {
 public:
  // Throws UserError naming path when it cannot be read, is not a regular file (a FIFO would
  // block, a device never end), is not root's alone (open_root_owned_file(): libdw parses it as
  // root), is not an ELF file or has no DWARF.
  static std::shared_ptr<Vmlinux> open(const std::string& path);

  const std::string& path() const { return path_; }
  Elf* elf() const { return elf_.get(); }
  Dwarf* dwarf() const { return dwarf_.get(); }
  // GNU build id as lowercase hex; empty when the image carries none.
  const std::string& build_id() const { return build_id_; }
  // Link-time start of the kernel text: the _stext symbol, else the .text section address.
  uint64_t text_start() const;
  // Link-time addresses of the named code symbols: functions and labels such as _stext. Static
  // names may have several.
  std::unordered_map<std::string, std::vector<uint64_t>> symbol_addrs(
      const std::unordered_set<std::string>& names) const;
  // Calls fn for every defined function and label symbol of .symtab.
  void for_each_code_symbol(const std::function<void(const ElfSymbol&)>& fn) const;

 private:
  explicit Vmlinux(std::string path);

  struct ElfEnd {
    void operator()(Elf* elf) const { elf_end(elf); }
  };
  struct DwarfEnd {
    void operator()(Dwarf* dwarf) const { dwarf_end(dwarf); }
  };

  std::string path_;
  // Members are released in reverse order: DWARF, then the ELF it reads, then the descriptor.
  OwnedFd fd_;
  std::unique_ptr<Elf, ElfEnd> elf_;
  std::unique_ptr<Dwarf, DwarfEnd> dwarf_;
  std::string build_id_;
};

// A vmlinux verified to be the running kernel's build, with the offset that maps its link-time
// addresses to runtime ones (runtime = link-time + kaslr_offset).
struct LoadedVmlinux {
  std::shared_ptr<Vmlinux> image;
  uint64_t kaslr_offset = 0;
};

struct VmlinuxRequest {
  std::string kernel_path;  // -k; empty: search the standard places
  bool required = false;    // -s/-ss given explicitly, or ':path' globs present
  std::string root = "/";   // prefix of the searched paths and of /sys/kernel/notes (tests)
  std::string release;      // kernel release for the search; empty: uname -r
};

// Standard vmlinux locations for a kernel release, in search order, under root.
std::vector<std::string> vmlinux_candidates(const std::string& root, const std::string& release);

// Finds (or opens -k), opens and verifies the vmlinux. A candidate from another kernel build gets
// a warning and is skipped, so wrong source lines are never printed. Returns nullopt when nothing
// usable exists and it is not required; throws UserError when -k names an unusable file or when
// a required vmlinux cannot be had.
std::optional<LoadedVmlinux> load_vmlinux(const VmlinuxRequest& req, const Kallsyms& ksyms);

// Build id in a raw ELF note stream (an SHT_NOTE section, /sys/kernel/notes); empty if none.
std::string build_id_from_notes(std::string_view notes);
// Build id of any ELF file, from its note sections; empty if none.
std::string read_build_id(Elf* elf);

// A source path recorded in vmlinux DWARF made relative to the kernel tree root
// ("kernel/bpf/syscall.c"): comp_dir prefix and leading "./" "../" are stripped, then the path
// starts at its first top-level kernel directory (arch, fs, include, kernel, ...) if it has one.
std::string kernel_tree_path(std::string_view path, std::string_view comp_dir);
// kernel_tree_path() for a path recorded in compile unit cu, against its DW_AT_comp_dir.
std::string cu_tree_path(std::string_view path, Dwarf_Die* cu);

// Source name of a subprogram or inlined subroutine DIE: out-of-line copies and inlined instances
// carry it through DW_AT_abstract_origin. Null when it has none.
const char* dwarf_function_name(Dwarf_Die* func);

}  // namespace retsnoop
