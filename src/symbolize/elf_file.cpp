#include "symbolize/elf_file.h"

#include <cxxabi.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include <bpf/btf.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "discovery/vmlinux.h"
#include "symbolize/dwarf_btf.h"
#include "symbolize/dwarf_lookup.h"
#include "symbolize/dwarf_ret_kind.h"
#include "util/root_confined_open.h"

namespace retsnoop {

namespace {

std::string demangle(const char* name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !out) return name;
  std::string text(out);
  std::free(out);
  return text;
}

bool is_code_symbol(const GElf_Sym& sym) {
  int type = GELF_ST_TYPE(sym.st_info);
  return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym.st_shndx != SHN_UNDEF && sym.st_value;
}

void read_symbols(Elf* elf, Elf_Scn* scn, std::vector<CodeSymbol>& out) {
  GElf_Shdr shdr;
  Elf_Data* data = elf_getdata(scn, nullptr);
  if (!gelf_getshdr(scn, &shdr) || !data || !shdr.sh_entsize) return;
  size_t count = shdr.sh_size / shdr.sh_entsize;
  for (size_t i = 0; i < count && out.size() < ElfFile::kMaxSymbols; ++i) {
    GElf_Sym sym;
    if (!gelf_getsym(data, int(i), &sym) || !is_code_symbol(sym)) continue;
    const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
    if (name && *name) out.push_back({sym.st_value, sym.st_size, demangle(name)});
  }
}

// .symtab when there is one (it includes what .dynsym has), else .dynsym.
std::vector<CodeSymbol> code_symbols(Elf* elf) {
  Elf_Scn* symtab = nullptr;
  Elf_Scn* dynsym = nullptr;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr)) continue;
    if (shdr.sh_type == SHT_SYMTAB) symtab = scn;
    if (shdr.sh_type == SHT_DYNSYM) dynsym = scn;
  }
  std::vector<CodeSymbol> out;
  if (symtab || dynsym) read_symbols(elf, symtab ? symtab : dynsym, out);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.addr < b.addr; });
  return out;
}

// The files are other users': read, not mapped, since a mapping of a file its owner truncates
// later kills the reader with SIGBUS (root, with probes attached). Reading costs memory instead,
// which this bounds: a file with more DWARF than that gives symbols without source lines.
constexpr uint64_t kMaxDwarfBytes = uint64_t(512) << 20;

// What elf holds in .debug_info, and in every .debug_* section.
struct DwarfSize {
  bool has_info = false;
  uint64_t bytes = 0;
};

// Calls fn(name, scn, shdr) for each section of elf that has a name and content in the file.
template <class Fn>
void for_each_section(Elf* elf, Fn fn) {
  size_t shstrndx;
  if (elf_getshdrstrndx(elf, &shstrndx)) return;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    const char* name = gelf_getshdr(scn, &shdr) ? elf_strptr(elf, shstrndx, shdr.sh_name) : nullptr;
    if (name && shdr.sh_type != SHT_NOBITS) fn(name, scn, shdr);
  }
}

DwarfSize dwarf_size(Elf* elf) {
  DwarfSize size;
  for_each_section(elf, [&](const char* name, Elf_Scn*, const GElf_Shdr& shdr) {
    if (std::strncmp(name, ".debug_", 7) != 0) return;
    size.bytes += shdr.sh_size;
    if (std::strcmp(name, ".debug_info") == 0) size.has_info = true;
  });
  return size;
}

// libdw (0.188) reads a string that DWARF points at in .debug_str or .debug_line_str up to its
// NUL, unbounded: in a section that does not end in one, the last string runs past its end.
// Checked once libdw has opened the sections (and decompressed them in place).
bool strings_terminated(Elf* elf) {
  bool terminated = true;
  for_each_section(elf, [&](const char* name, Elf_Scn* scn, const GElf_Shdr&) {
    if (std::strcmp(name, ".debug_str") != 0 && std::strcmp(name, ".debug_line_str") != 0) return;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data && data->d_buf && data->d_size)
      terminated &= static_cast<const char*>(data->d_buf)[data->d_size - 1] == '\0';
  });
  return terminated;
}

// The DWARF of elf; null when it has none, too much, or strings libdw cannot read safely.
Dwarf* begin_dwarf(Elf* elf) {
  if (dwarf_size(elf).bytes > kMaxDwarfBytes) return nullptr;
  Dwarf* dw = dwarf_begin_elf(elf, DWARF_C_READ, nullptr);
  if (dw && !strings_terminated(elf)) {
    dwarf_end(dw);
    return nullptr;
  }
  return dw;
}

// The compile unit whose code covers pc: through .debug_aranges when present, else by asking
// every unit (compilers no longer emit aranges by default).
bool cu_of(Dwarf* dw, Dwarf_Addr pc, Dwarf_Die* cu) {
  if (dwarf_addrdie(dw, pc, cu)) return true;
  Dwarf_Off off = 0, next;
  size_t hsize;
  while (dwarf_nextcu(dw, off, &next, &hsize, nullptr, nullptr, nullptr) == 0) {
    if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, pc) == 1) return true;
    off = next;
  }
  return false;
}

}  // namespace

std::string build_id_debug_path(const std::string& build_id) {
  if (build_id.size() < 3) return "";
  return "/usr/lib/debug/.build-id/" + build_id.substr(0, 2) + "/" + build_id.substr(2) + ".debug";
}

ElfFile::ElfFile(OwnedFd fd, std::vector<Dir> debug_roots)
    : fd_(std::move(fd)), debug_roots_(std::move(debug_roots)) {}

ElfFile::~ElfFile() {
  if (dwarf_) dwarf_end(dwarf_);
  if (debug_elf_) elf_end(debug_elf_);
  if (elf_) elf_end(elf_);
}

void ElfFile::load() {
  if (loaded_) return;
  loaded_ = true;
  elf_version(EV_CURRENT);
  elf_ = elf_begin(fd_.get(), ELF_C_READ, nullptr);
  size_t nphdr = 0;
  if (!elf_ || elf_kind(elf_) != ELF_K_ELF || elf_getphdrnum(elf_, &nphdr)) return;
  for (size_t i = 0; i < nphdr; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf_, int(i), &ph) && ph.p_type == PT_LOAD)
      segments_.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
  }
  symbols_ = code_symbols(elf_);
  build_id_ = read_build_id(elf_);
  if (dwarf_size(elf_).has_info)
    dwarf_ = begin_dwarf(elf_);
  else
    open_debug_file();
}

// A stripped file's DWARF, and often its full symbol table, are in the debug file of its build id.
// The process's owner controls what its root holds there: a link out of it, a FIFO or a device
// node is never opened, and a file of another build id is not used.
void ElfFile::open_debug_file() {
  std::string path = build_id_debug_path(build_id_);
  if (path.empty()) return;
  for (const Dir& root : debug_roots_) {
    OwnedFd fd = open_regular_in_root(root->get(), path);
    if (fd && use_debug_file(std::move(fd))) return;
  }
}

bool ElfFile::wants_debug_file() {
  load();
  return elf_ && !dwarf_ && !debug_elf_ && !build_id_.empty() && !dwarf_size(elf_).has_info;
}

bool ElfFile::use_debug_file(OwnedFd fd) {
  if (!wants_debug_file()) return false;
  Elf* elf = elf_begin(fd.get(), ELF_C_READ, nullptr);
  if (!elf || elf_kind(elf) != ELF_K_ELF || read_build_id(elf) != build_id_) {
    if (elf) elf_end(elf);
    return false;
  }
  debug_fd_ = std::move(fd);
  debug_elf_ = elf;
  dwarf_ = begin_dwarf(elf);
  if (symbols_.empty()) symbols_ = code_symbols(elf);
  return true;
}

const std::string& ElfFile::build_id() {
  load();
  return build_id_;
}

std::optional<uint64_t> ElfFile::vaddr_of(uint64_t off) const {
  for (const Segment& s : segments_) {
    if (off >= s.offset && off < s.offset + s.filesz) return off - s.offset + s.vaddr;
  }
  return std::nullopt;
}

// The symbol covering vaddr; a symbol without a size covers up to the next one.
const CodeSymbol* ElfFile::symbol_at(uint64_t vaddr) const {
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), vaddr,
                             [](uint64_t a, const CodeSymbol& s) { return a < s.addr; });
  if (it == symbols_.begin()) return nullptr;
  const CodeSymbol& sym = *std::prev(it);
  if (sym.size && vaddr >= sym.addr + sym.size) return nullptr;
  return &sym;
}

// The path as the DWARF names it: user programs have no common tree to trim it to.
SourceLoc ElfFile::line_of(uint64_t pc) {
  Dwarf_Die cu;
  SourceLoc loc;
  if (!dwarf_ || !cu_of(dwarf_, pc, &cu)) return loc;
  Dwarf_Line* line = dwarf_getsrc_die(&cu, pc);
  const char* file = line ? dwarf_linesrc(line, nullptr, nullptr) : nullptr;
  if (!file) return loc;
  loc.file = file;
  dwarf_lineno(line, &loc.line);
  dwarf_linecol(line, &loc.col);
  return loc;
}

SymbolizedAddr ElfFile::lookup(uint64_t off, bool is_return_addr) {
  load();
  SymbolizedAddr out;
  auto vaddr = vaddr_of(off);
  if (!vaddr) return out;
  // A return address may be one past a call that ends its function (a noreturn callee).
  uint64_t pc = is_return_addr && *vaddr ? *vaddr - 1 : *vaddr;
  if (const CodeSymbol* sym = symbol_at(pc)) {
    out.found = true;
    out.name = sym->name;
    out.offset = *vaddr - sym->addr;
  }
  out.loc = line_of(pc);
  return out;
}

std::optional<Dwarf_Die> ElfFile::function_die(uint64_t off) {
  load();
  auto vaddr = vaddr_of(off);
  Dwarf_Die cu;
  if (!vaddr || !dwarf_ || !cu_of(dwarf_, *vaddr, &cu)) return std::nullopt;
  std::vector<Dwarf_Die> scopes = function_scopes(&cu, *vaddr);
  if (scopes.empty()) return std::nullopt;
  return scopes.front();
}

std::optional<RetKind> ElfFile::ret_kind(uint64_t off) {
  std::optional<Dwarf_Die> fn = function_die(off);
  return fn ? dwarf_ret_kind(&*fn) : std::nullopt;
}

std::optional<FuncBtfBlob> ElfFile::func_btf(uint64_t off) {
  std::optional<Dwarf_Die> fn = function_die(off);
  if (!fn) return std::nullopt;
  std::unique_ptr<struct btf, decltype(&btf__free)> btf(btf__new_empty(), &btf__free);
  if (!btf) return std::nullopt;
  int id = DwarfBtfBuilder(btf.get()).add_func(&*fn, "fn");
  uint32_t size = 0;
  const void* raw = id > 0 ? btf__raw_data(btf.get(), &size) : nullptr;
  if (!raw) return std::nullopt;
  return FuncBtfBlob{std::string(static_cast<const char*>(raw), size), id};
}

}  // namespace retsnoop
