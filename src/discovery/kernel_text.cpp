#include "discovery/kernel_text.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <cstring>

namespace retsnoop {

namespace {

// /proc/kcore has a few dozen segments (one per memory range); more means a corrupt header.
constexpr uint16_t kMaxSegments = 4096;

bool read_at(int fd, void* buf, size_t len, uint64_t off) {
  auto* p = static_cast<uint8_t*>(buf);
  while (len > 0) {
    ssize_t n = pread(fd, p, len, off_t(off));
    if (n <= 0) return false;
    p += n;
    len -= size_t(n);
    off += uint64_t(n);
  }
  return true;
}

bool is_core_header(const Elf64_Ehdr& eh) {
  return std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
         eh.e_ident[EI_DATA] == ELFDATA2LSB && eh.e_type == ET_CORE &&
         eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum <= kMaxSegments;
}

}  // namespace

std::optional<std::vector<CoreSegment>> read_core_segments(int fd) {
  Elf64_Ehdr eh{};
  if (!read_at(fd, &eh, sizeof(eh), 0) || !is_core_header(eh)) return std::nullopt;
  std::vector<Elf64_Phdr> phdrs(eh.e_phnum);
  if (!read_at(fd, phdrs.data(), phdrs.size() * sizeof(Elf64_Phdr), eh.e_phoff))
    return std::nullopt;
  std::vector<CoreSegment> segs;
  for (const Elf64_Phdr& ph : phdrs) {
    if (ph.p_type == PT_LOAD && ph.p_filesz > 0)
      segs.push_back({ph.p_vaddr, ph.p_filesz, ph.p_offset});
  }
  return segs;
}

const CoreSegment* find_core_segment(std::span<const CoreSegment> segs, uint64_t addr, size_t len) {
  for (const CoreSegment& s : segs) {
    if (addr >= s.vaddr && addr - s.vaddr <= s.size && len <= s.size - (addr - s.vaddr)) return &s;
  }
  return nullptr;
}

std::unique_ptr<CoreText> CoreText::open(const std::string& path) {
  OwnedFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return nullptr;
  std::optional<std::vector<CoreSegment>> segs = read_core_segments(fd.get());
  if (!segs) return nullptr;
  return std::unique_ptr<CoreText>(new CoreText(path, std::move(fd), std::move(*segs)));
}

std::optional<std::vector<uint8_t>> CoreText::read(uint64_t addr, size_t len) const {
  const CoreSegment* s = find_core_segment(segs_, addr, len);
  if (!s) return std::nullopt;
  std::vector<uint8_t> bytes(len);
  if (!read_at(fd_.get(), bytes.data(), len, s->offset + (addr - s->vaddr))) return std::nullopt;
  return bytes;
}

std::optional<std::vector<uint8_t>> VmlinuxText::read(uint64_t addr, size_t len) const {
  const uint64_t link = addr - vmlinux_.kaslr_offset;
  Elf* elf = vmlinux_.image->elf();
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
      continue;
    if (link < sh.sh_addr || link - sh.sh_addr > sh.sh_size ||
        len > sh.sh_size - (link - sh.sh_addr))
      continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    const uint64_t off = link - sh.sh_addr;
    if (!data || !data->d_buf || data->d_size < off + len) return std::nullopt;
    const auto* p = static_cast<const uint8_t*>(data->d_buf) + off;
    return std::vector<uint8_t>(p, p + len);
  }
  return std::nullopt;
}

std::unique_ptr<KernelText> open_kernel_text(const std::string& kcore_path,
                                             const LoadedVmlinux* vmlinux) {
  if (std::unique_ptr<CoreText> core = CoreText::open(kcore_path)) return core;
  if (vmlinux) return std::make_unique<VmlinuxText>(*vmlinux);
  return nullptr;
}

}  // namespace retsnoop
