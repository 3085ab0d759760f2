#include "discovery/run_paths.h"

#include <elf.h>
#include <gelf.h>
#include <libelf.h>

#include <cstring>
#include <memory>

#include "util/error.h"
#include "util/regular_file.h"

namespace retsnoop {

namespace {

struct RunPathElfCloser {
  void operator()(Elf* e) const { elf_end(e); }
};

// Run paths longer than a path are not a program's.
constexpr size_t kMaxRunPath = 4096;

std::string dynamic_string(Elf* elf, size_t strtab, GElf_Xword off) {
  const char* s = elf_strptr(elf, strtab, off);
  if (!s) return "";
  return std::string(s, strnlen(s, kMaxRunPath));
}

void read_dynamic(Elf* elf, Elf_Scn* scn, const GElf_Shdr& shdr, RunPaths& out) {
  Elf_Data* data = elf_getdata(scn, nullptr);
  if (!data || !shdr.sh_entsize) return;
  size_t count = shdr.sh_size / shdr.sh_entsize;
  for (size_t i = 0; i < count; ++i) {
    GElf_Dyn dyn;
    if (!gelf_getdyn(data, int(i), &dyn) || dyn.d_tag == DT_NULL) break;
    if (dyn.d_tag == DT_RPATH) out.rpath = dynamic_string(elf, shdr.sh_link, dyn.d_un.d_val);
    if (dyn.d_tag == DT_RUNPATH) out.runpath = dynamic_string(elf, shdr.sh_link, dyn.d_un.d_val);
  }
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

}  // namespace

RunPaths read_run_paths(const std::string& path) {
  RunPaths out;
  OwnedFd fd;
  try {
    fd = open_regular_file(path, "run paths");
  } catch (const UserError&) {
    return out;  // the command's own start reports what is wrong with it
  }
  elf_version(EV_CURRENT);
  std::unique_ptr<Elf, RunPathElfCloser> elf(elf_begin(fd.get(), ELF_C_READ, nullptr));
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF) return out;
  for (Elf_Scn* scn = elf_nextscn(elf.get(), nullptr); scn; scn = elf_nextscn(elf.get(), scn)) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_DYNAMIC) {
      read_dynamic(elf.get(), scn, shdr, out);
      break;
    }
  }
  return out;
}

std::vector<std::string> split_search_path(std::string_view list, std::string_view origin) {
  std::vector<std::string> out;
  while (!list.empty()) {
    size_t colon = list.find(':');
    std::string dir(list.substr(0, colon));
    list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
    replace_all(dir, "${ORIGIN}", origin);
    replace_all(dir, "$ORIGIN", origin);
    if (!dir.empty() && dir.find('$') == std::string::npos) out.push_back(std::move(dir));
  }
  return out;
}

std::vector<std::string> loader_first_dirs(const RunPaths& paths, std::string_view ld_library_path,
                                           std::string_view exe_path) {
  std::string_view origin = exe_path.substr(0, exe_path.rfind('/'));
  std::vector<std::string> out;
  if (paths.runpath.empty()) out = split_search_path(paths.rpath, origin);
  for (std::string& dir : split_search_path(ld_library_path, origin)) out.push_back(std::move(dir));
  for (std::string& dir : split_search_path(paths.runpath, origin)) out.push_back(std::move(dir));
  return out;
}

}  // namespace retsnoop
