#include "discovery/vmlinux.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>

#include "discovery/kallsyms.h"
#include "util/error.h"
#include "util/file_text.h"
#include "util/log.h"
#include "util/root_owned_file.h"

namespace retsnoop {

namespace {

constexpr uint32_t kNoteGnuBuildId = 3;  // NT_GNU_BUILD_ID
// Kallsyms functions compared with the ELF symbol table when the running build id is unknown.
constexpr size_t kMatchSamples = 16;

std::string to_hex(const unsigned char* data, size_t len) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(len * 2);
  for (size_t i = 0; i < len; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 0xf];
  }
  return out;
}

size_t align4(size_t n) { return (n + 3) & ~size_t(3); }

Elf_Scn* find_section(Elf* elf, std::string_view name, GElf_Shdr* shdr) {
  size_t shstrndx;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0) return nullptr;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    if (!gelf_getshdr(scn, shdr)) continue;
    const char* scn_name = elf_strptr(elf, shstrndx, shdr->sh_name);
    if (scn_name && name == scn_name) return scn;
  }
  return nullptr;
}

bool has_compile_units(Dwarf* dwarf) {
  Dwarf_Off next;
  size_t header_size;
  return dwarf_nextcu(dwarf, 0, &next, &header_size, nullptr, nullptr, nullptr) == 0;
}

std::string uname_release() {
  struct utsname u;
  return uname(&u) == 0 ? u.release : "";
}

// Build id of the running kernel from its notes, empty when they can't be read.
std::string running_build_id(const std::string& root) {
  std::optional<std::string> notes =
      read_text_file(std::filesystem::path(root) / "sys/kernel/notes");
  return notes ? build_id_from_notes(*notes) : std::string();
}

std::optional<uint64_t> kaslr_offset(const Vmlinux& image, const Kallsyms& ksyms) {
  uint64_t runtime_stext = ksyms.addr_of("_stext");
  if (runtime_stext == 0) return std::nullopt;
  return runtime_stext - image.text_start();
}

// Evenly spread vmlinux function names from kallsyms, with their runtime addresses.
std::unordered_map<std::string, uint64_t> sample_functions(const Kallsyms& ksyms) {
  std::vector<const KSym*> core;
  for (const KSym& sym : ksyms.symbols()) {
    if (sym.module().empty()) core.push_back(&sym);
  }
  std::unordered_map<std::string, uint64_t> samples;
  size_t step = std::max<size_t>(1, core.size() / kMatchSamples);
  for (size_t i = 0; i < core.size() && samples.size() < kMatchSamples; i += step)
    samples.emplace(core[i]->name(), core[i]->addr);
  return samples;
}

// Without a running build id: the same build places sampled functions at the same link-time
// addresses; another build moves at least some of them or lacks them.
bool symbols_match(const Vmlinux& image, uint64_t offset, const Kallsyms& ksyms) {
  std::unordered_map<std::string, uint64_t> samples = sample_functions(ksyms);
  std::unordered_set<std::string> names;
  for (const auto& [name, addr] : samples) names.insert(name);
  auto elf_addrs = image.symbol_addrs(names);
  size_t found = 0;
  for (const auto& [name, addr] : samples) {
    auto it = elf_addrs.find(name);
    if (it == elf_addrs.end()) continue;
    if (std::find(it->second.begin(), it->second.end(), addr - offset) == it->second.end())
      return false;
    ++found;
  }
  return found * 2 >= samples.size() && found > 0;
}

// Why image is not the running kernel's build, empty when it is.
std::string mismatch_reason(const Vmlinux& image, uint64_t offset, const Kallsyms& ksyms,
                            const std::string& root) {
  std::string running = running_build_id(root);
  if (!running.empty() && !image.build_id().empty()) {
    if (running == image.build_id()) return {};
    return "build id " + image.build_id() + ", running kernel " + running;
  }
  if (symbols_match(image, offset, ksyms)) return {};
  return "its function addresses differ from kallsyms";
}

// The image with its KASLR offset if it is the running kernel's build; else a warning and nullopt.
std::optional<LoadedVmlinux> verify(std::shared_ptr<Vmlinux> image, const Kallsyms& ksyms,
                                    const std::string& root) {
  std::optional<uint64_t> offset = kaslr_offset(*image, ksyms);
  if (!offset) {
    logf(LOG_WARN,
         "kallsyms lacks _stext, cannot relate vmlinux '%s' to the running "
         "kernel; using kallsyms symbols only\n",
         image->path().c_str());
    return std::nullopt;
  }
  std::string reason = mismatch_reason(*image, *offset, ksyms, root);
  if (!reason.empty()) {
    logf(LOG_WARN, "vmlinux '%s' is from another kernel build (%s); ignoring it\n",
         image->path().c_str(), reason.c_str());
    return std::nullopt;
  }
  logf(LOG_INFO, "using vmlinux '%s' (KASLR offset 0x%llx)\n", image->path().c_str(),
       static_cast<unsigned long long>(*offset));
  return LoadedVmlinux{std::move(image), *offset};
}

// First searched candidate that opens and matches; broken files in standard places are skipped.
std::optional<LoadedVmlinux> search(const std::string& root, const std::string& release,
                                    const Kallsyms& ksyms) {
  for (const std::string& path : vmlinux_candidates(root, release)) {
    if (access(path.c_str(), F_OK) != 0) continue;
    try {
      if (auto loaded = verify(Vmlinux::open(path), ksyms, root)) return loaded;
    } catch (const UserError& e) {
      logf(LOG_INFO, "skipping vmlinux candidate: %s\n", e.what());
    }
  }
  return std::nullopt;
}

bool is_tree_root(std::string_view dir) {
  static constexpr std::array<std::string_view, 22> kRoots = {
      "arch",     "block",    "certs",  "crypto", "drivers", "fs",  "include", "init",
      "io_uring", "ipc",      "kernel", "lib",    "mm",      "net", "rust",    "samples",
      "scripts",  "security", "sound",  "tools",  "usr",     "virt"};
  return std::find(kRoots.begin(), kRoots.end(), dir) != kRoots.end();
}

std::string_view strip_dir_prefix(std::string_view path, std::string_view dir) {
  if (dir.empty() || !path.starts_with(dir)) return path;
  std::string_view rest = path.substr(dir.size());
  if (!dir.ends_with('/')) {
    if (!rest.starts_with('/')) return path;
    rest.remove_prefix(1);
  }
  return rest;
}

}  // namespace

// Read, not mapped: a file truncated while it is mapped raises SIGBUS at the next access.
Vmlinux::Vmlinux(std::string path)
    : path_(std::move(path)),
      fd_(open_root_owned_file(path_, "cannot open vmlinux '" + path_ + "'")) {
  elf_version(EV_CURRENT);
  elf_.reset(elf_begin(fd_.get(), ELF_C_READ, nullptr));
  if (!elf_ || elf_kind(elf_.get()) != ELF_K_ELF)
    throw UserError("'" + path_ + "' is not an ELF file",
                    "-k expects an uncompressed vmlinux image with DWARF debug info");
  dwarf_.reset(dwarf_begin_elf(elf_.get(), DWARF_C_READ, nullptr));
  if (!dwarf_ || !has_compile_units(dwarf_.get()))
    throw UserError("'" + path_ + "' has no DWARF debug info",
                    "use the vmlinux of the kernel's debug package (e.g. linux-image-*-dbg) or "
                    "of a build with CONFIG_DEBUG_INFO");
  build_id_ = read_build_id(elf_.get());
}

std::shared_ptr<Vmlinux> Vmlinux::open(const std::string& path) {
  return std::shared_ptr<Vmlinux>(new Vmlinux(path));
}

uint64_t Vmlinux::text_start() const {
  auto stext = symbol_addrs({"_stext"});
  if (auto it = stext.find("_stext"); it != stext.end()) return it->second.front();
  GElf_Shdr shdr;
  return find_section(elf_.get(), ".text", &shdr) ? shdr.sh_addr : 0;
}

std::unordered_map<std::string, std::vector<uint64_t>> Vmlinux::symbol_addrs(
    const std::unordered_set<std::string>& names) const {
  std::unordered_map<std::string, std::vector<uint64_t>> out;
  for_each_code_symbol([&](const ElfSymbol& sym) {
    if (auto it = names.find(std::string(sym.name)); it != names.end())
      out[*it].push_back(sym.addr);
  });
  return out;
}

void Vmlinux::for_each_code_symbol(const std::function<void(const ElfSymbol&)>& fn) const {
  GElf_Shdr shdr;
  Elf_Scn* scn = find_section(elf_.get(), ".symtab", &shdr);
  Elf_Data* data = scn ? elf_getdata(scn, nullptr) : nullptr;
  if (!data || shdr.sh_entsize == 0) return;
  size_t count = shdr.sh_size / shdr.sh_entsize;
  for (size_t i = 0; i < count; ++i) {
    GElf_Sym sym;
    if (!gelf_getsym(data, static_cast<int>(i), &sym) || sym.st_shndx == SHN_UNDEF) continue;
    int type = GELF_ST_TYPE(sym.st_info);
    if (type != STT_FUNC && type != STT_NOTYPE) continue;
    const char* name = elf_strptr(elf_.get(), shdr.sh_link, sym.st_name);
    if (!name || !*name) continue;
    fn({name, sym.st_value, sym.st_size, type == STT_FUNC, GELF_ST_BIND(sym.st_info) == STB_LOCAL});
  }
}

std::vector<std::string> vmlinux_candidates(const std::string& root, const std::string& release) {
  const std::string in_root[] = {
      "boot/vmlinux-" + release,
      "lib/modules/" + release + "/vmlinux-" + release,
      "lib/modules/" + release + "/build/vmlinux",
      "usr/lib/modules/" + release + "/kernel/vmlinux",
      "usr/lib/debug/boot/vmlinux-" + release,
      "usr/lib/debug/boot/vmlinux-" + release + ".debug",
      "usr/lib/debug/lib/modules/" + release + "/vmlinux",
  };
  std::vector<std::string> out;
  for (const std::string& p : in_root) out.push_back(std::filesystem::path(root) / p);
  return out;
}

std::optional<LoadedVmlinux> load_vmlinux(const VmlinuxRequest& req, const Kallsyms& ksyms) {
  std::optional<LoadedVmlinux> loaded;
  std::string release = req.release.empty() ? uname_release() : req.release;
  if (!req.kernel_path.empty())
    loaded = verify(Vmlinux::open(req.kernel_path), ksyms, req.root);
  else
    loaded = search(req.root, release, ksyms);
  if (!loaded && req.required && !req.kernel_path.empty())
    throw UserError(
        "vmlinux '" + req.kernel_path + "' does not match the running kernel " + release,
        "pass the running kernel's vmlinux with -k PATH");
  if (!loaded && req.required)
    throw UserError("no vmlinux with DWARF matches the running kernel " + release,
                    "pass one with -k PATH (needed by -s, -ss, ':path' globs and --line-trace)");
  if (!loaded) logf(LOG_DEBUG, "no usable vmlinux with DWARF; using kallsyms symbols only\n");
  return loaded;
}

std::string build_id_from_notes(std::string_view notes) {
  // Elf{32,64}_Nhdr are both three 32-bit words (namesz, descsz, type); kernel notes are 4-byte
  // aligned.
  uint32_t hdr[3];
  while (notes.size() >= sizeof(hdr)) {
    std::memcpy(hdr, notes.data(), sizeof(hdr));
    size_t name_size = align4(hdr[0]), desc_size = align4(hdr[1]);
    std::string_view body = notes.substr(sizeof(hdr));
    if (name_size > body.size() || desc_size > body.size() - name_size) break;
    std::string_view name = body.substr(0, hdr[0]);
    std::string_view desc = body.substr(name_size, hdr[1]);
    if (hdr[2] == kNoteGnuBuildId && name == std::string_view("GNU\0", 4) && !desc.empty())
      return to_hex(reinterpret_cast<const unsigned char*>(desc.data()), desc.size());
    notes = body.substr(name_size + desc_size);
  }
  return {};
}

std::string kernel_tree_path(std::string_view path, std::string_view comp_dir) {
  std::string_view rel = strip_dir_prefix(path, comp_dir);
  while (rel.starts_with("./") || rel.starts_with("../")) rel.remove_prefix(rel.find('/') + 1);
  for (size_t start = 0; start < rel.size();) {
    size_t slash = rel.find('/', start);
    if (slash == std::string_view::npos) break;
    if (is_tree_root(rel.substr(start, slash - start))) return std::string(rel.substr(start));
    start = slash + 1;
  }
  return std::string(rel);
}

std::string read_build_id(Elf* elf) {
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data || !data->d_buf) continue;
    std::string id = build_id_from_notes({static_cast<const char*>(data->d_buf), data->d_size});
    if (!id.empty()) return id;
  }
  return {};
}

std::string cu_tree_path(std::string_view path, Dwarf_Die* cu) {
  Dwarf_Attribute attr;
  const char* comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
  return kernel_tree_path(path, comp_dir ? comp_dir : "");
}

const char* dwarf_function_name(Dwarf_Die* func) {
  Dwarf_Attribute attr;
  return dwarf_formstring(dwarf_attr_integrate(func, DW_AT_name, &attr));
}

}  // namespace retsnoop
