#include "discovery/user_symbols.h"

#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>

#include "util/error.h"
#include "util/regular_file.h"

namespace retsnoop {

namespace {

#if defined(__x86_64__)
constexpr int kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr int kHostMachine = EM_AARCH64;
#else
constexpr int kHostMachine = EM_NONE;
#endif

struct ElfCloser {
  void operator()(Elf* e) const { elf_end(e); }
};
using ElfPtr = std::unique_ptr<Elf, ElfCloser>;

struct LoadSegment {
  uint64_t vaddr, offset, filesz;
};

[[noreturn]] void not_usable(const std::string& path, const std::string& why) {
  throw UserError("cannot trace functions of '" + path + "': " + why);
}

std::vector<LoadSegment> exec_segments(Elf* elf) {
  size_t n = 0;
  std::vector<LoadSegment> out;
  if (elf_getphdrnum(elf, &n) != 0) return out;
  for (size_t i = 0; i < n; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf, int(i), &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
      out.push_back({ph.p_vaddr, ph.p_offset, ph.p_filesz});
  }
  return out;
}

// The file offset of vaddr, in the executable segment holding the whole function.
std::optional<uint64_t> file_offset(const std::vector<LoadSegment>& segs, uint64_t vaddr,
                                    uint64_t size) {
  for (const LoadSegment& s : segs) {
    if (vaddr >= s.vaddr && size <= s.filesz && vaddr - s.vaddr <= s.filesz - size)
      return vaddr - s.vaddr + s.offset;
  }
  return std::nullopt;
}

Elf_Scn* symbol_section(Elf* elf) {
  Elf_Scn* dynsym = nullptr;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr)) continue;
    if (shdr.sh_type == SHT_SYMTAB) return scn;
    if (shdr.sh_type == SHT_DYNSYM) dynsym = scn;
  }
  return dynsym;
}

// PLT stubs are named in no symbol table but a linker's; their sections say what they are.
bool in_plt(Elf* elf, size_t shstrndx, uint16_t shndx) {
  GElf_Shdr shdr;
  Elf_Scn* scn = elf_getscn(elf, shndx);
  const char* name =
      scn && gelf_getshdr(scn, &shdr) ? elf_strptr(elf, shstrndx, shdr.sh_name) : nullptr;
  return name && std::string_view(name).starts_with(".plt");
}

void add_symbols(Elf* elf, Elf_Scn* scn, const std::vector<LoadSegment>& segs,
                 std::vector<UserSymbol>& out) {
  GElf_Shdr shdr;
  Elf_Data* data = elf_getdata(scn, nullptr);
  size_t shstrndx = 0;
  if (!gelf_getshdr(scn, &shdr) || !data || !shdr.sh_entsize) return;
  elf_getshdrstrndx(elf, &shstrndx);
  size_t count = std::min<uint64_t>(shdr.sh_size / shdr.sh_entsize, data->d_size / shdr.sh_entsize);
  for (size_t i = 0; i < count && out.size() < kMaxUserSymbols; ++i) {
    GElf_Sym sym;
    if (!gelf_getsym(data, int(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC) continue;
    if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE || sym.st_size == 0) continue;
    const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
    if (!name || !*name || in_plt(elf, shstrndx, sym.st_shndx)) continue;
    auto off = file_offset(segs, sym.st_value, sym.st_size);
    if (!off) continue;
    std::string_view n(name);
    out.push_back({std::string(n.substr(0, n.find('@'))), *off, sym.st_value, sym.st_size});
  }
}

}  // namespace

std::vector<UserSymbol> read_user_symbols(const std::string& path) {
  OwnedFd fd = open_regular_file(path, "cannot trace functions of '" + path + "'");
  elf_version(EV_CURRENT);
  // Read, not mapped: a mapped file its owner truncates would kill retsnoop with SIGBUS.
  ElfPtr elf(elf_begin(fd.get(), ELF_C_READ, nullptr));
  GElf_Ehdr eh;
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF || !gelf_getehdr(elf.get(), &eh))
    not_usable(path, "not an ELF file");
  if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
    not_usable(path, "not an executable or a shared library");
  if (eh.e_machine != kHostMachine || gelf_getclass(elf.get()) != ELFCLASS64)
    not_usable(path, "built for another architecture");
  std::vector<UserSymbol> out;
  if (Elf_Scn* scn = symbol_section(elf.get()))
    add_symbols(elf.get(), scn, exec_segments(elf.get()), out);
  // Of aliases, the public name first: "malloc" before "__libc_malloc".
  std::sort(out.begin(), out.end(), [](const UserSymbol& a, const UserSymbol& b) {
    auto key = [](const UserSymbol& s) {
      return std::tuple(s.offset, s.name.starts_with('_'), s.name);
    };
    return key(a) < key(b);
  });
  return out;
}

}  // namespace retsnoop
