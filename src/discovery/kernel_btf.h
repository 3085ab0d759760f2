// Questions to the running kernel's BTF (vmlinux and module BTF): the return kind and BTF id of
// a function, a type's id, whether a type has a member (kernel features without a probe of
// their own are recognized by the types they introduced). Each BTF is parsed on the first
// question about it: vmlinux's is about 5 MB, and start-up pays for it only when asked.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "discovery/func_info.h"

struct btf;

namespace retsnoop {

struct FuncType {
  RetKind ret = RetKind::Int32;  // what functions without BTF are assumed to return
  bool has_btf = false;
  uint32_t btf_id = 0;  // FUNC id usable for fentry; 0 when the name is a compiler clone
  uint8_t nargs = 0;    // parameters of the BTF prototype
};

class KernelBtf {
 public:
  // btf_dir holds "vmlinux" and one split BTF file per module, like /sys/kernel/btf.
  explicit KernelBtf(std::string btf_dir = "/sys/kernel/btf");
  ~KernelBtf();
  KernelBtf(const KernelBtf&) = delete;
  KernelBtf& operator=(const KernelBtf&) = delete;

  bool has_vmlinux();
  // Type of a kallsyms function (module empty for vmlinux); the name may carry a compiler suffix.
  FuncType func_type(std::string_view module, std::string_view name);
  // Whether the module's (vmlinux's when empty) BTF has a FUNC named exactly name.
  bool has_func(std::string_view module, std::string_view name);
  // The parsed BTF of the module (of vmlinux when empty), owned by this object; null when
  // there is none. Type ids of FuncType::btf_id point into it.
  const struct btf* btf_of(std::string_view module);

  // vmlinux type ids. kind is BTF_KIND_STRUCT, BTF_KIND_FUNC, ...; 0 when there is no such
  // type, or no BTF.
  int type_id(int kind, const char* name);
  // path is "member" or "member.submember"; anonymous struct and union members are looked
  // through, as C does.
  bool has_member(int kind, const char* type, std::string_view path);
  // Whether vmlinux's enum type has a value named name.
  bool has_enumerator(const char* type, std::string_view name);

 private:
  struct Source;
  Source* vmlinux();
  Source* source_for(std::string_view module);
  FuncType lookup(Source& src, std::string_view module, std::string_view name);

  std::string dir_;
  bool vmlinux_loaded_ = false;
  std::unique_ptr<Source> vmlinux_;
  // Loaded on first use; null when the module has no BTF. Destroyed before vmlinux_, their base.
  std::unordered_map<std::string, std::unique_ptr<Source>> modules_;
};

}  // namespace retsnoop
