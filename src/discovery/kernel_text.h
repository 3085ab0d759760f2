// The running kernel's machine code, for decoding its functions' calls: /proc/kcore, or the
// vmlinux image verified to be the running kernel's build.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "discovery/vmlinux.h"
#include "util/owned_fd.h"

namespace retsnoop {

class KernelText {
 public:
  virtual ~KernelText() = default;
  // The bytes at runtime addresses [addr, addr + len); nullopt when no segment or section holds
  // them all.
  virtual std::optional<std::vector<uint8_t>> read(uint64_t addr, size_t len) const = 0;
  // Where the bytes come from, for -v: "/proc/kcore" or the vmlinux path.
  virtual const std::string& source() const = 0;
};

// A PT_LOAD program header of an ELF core file: memory at [vaddr, vaddr + size) is stored at
// offset.
struct CoreSegment {
  uint64_t vaddr = 0;
  uint64_t size = 0;
  uint64_t offset = 0;
};

// The PT_LOAD segments of the 64-bit little-endian ELF core file open at fd; nullopt when it is
// not one or its program headers cannot be read.
std::optional<std::vector<CoreSegment>> read_core_segments(int fd);

// The segment holding all of [addr, addr + len), nullptr if none.
const CoreSegment* find_core_segment(std::span<const CoreSegment> segs, uint64_t addr, size_t len);

// Kernel memory through an ELF core file such as /proc/kcore: the text as patched at run time
// (alternatives, static calls, ftrace nops), modules included.
class CoreText : public KernelText {
 public:
  // nullptr when path cannot be opened (not root, kernel lockdown, no /proc/kcore) or is not an
  // ELF core file.
  static std::unique_ptr<CoreText> open(const std::string& path);
  std::optional<std::vector<uint8_t>> read(uint64_t addr, size_t len) const override;
  const std::string& source() const override { return path_; }

 private:
  CoreText(std::string path, OwnedFd fd, std::vector<CoreSegment> segs)
      : path_(std::move(path)), fd_(std::move(fd)), segs_(std::move(segs)) {}
  std::string path_;
  OwnedFd fd_;
  std::vector<CoreSegment> segs_;
};

// The executable sections of the running kernel's vmlinux, as linked: vmlinux functions only,
// and sites the kernel patches at boot read as the build left them.
class VmlinuxText : public KernelText {
 public:
  explicit VmlinuxText(LoadedVmlinux vmlinux) : vmlinux_(std::move(vmlinux)) {}
  std::optional<std::vector<uint8_t>> read(uint64_t addr, size_t len) const override;
  const std::string& source() const override { return vmlinux_.image->path(); }

 private:
  LoadedVmlinux vmlinux_;
};

// kcore_path when it can be read, else the vmlinux when there is one; nullptr when neither.
std::unique_ptr<KernelText> open_kernel_text(const std::string& kcore_path,
                                             const LoadedVmlinux* vmlinux);

}  // namespace retsnoop
