// Return kinds and BTF ids of kernel functions, from vmlinux and module BTF.
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
};

class BtfFuncs {
 public:
  // btf_dir holds "vmlinux" and one split BTF file per module, like /sys/kernel/btf.
  explicit BtfFuncs(std::string btf_dir);
  ~BtfFuncs();
  BtfFuncs(const BtfFuncs&) = delete;
  BtfFuncs& operator=(const BtfFuncs&) = delete;

  bool has_vmlinux() const;
  // Type of a kallsyms function (module empty for vmlinux); the name may carry a compiler suffix.
  FuncType func_type(std::string_view module, std::string_view name);
  // Whether the module's (vmlinux's when empty) BTF has a FUNC named exactly name.
  bool has_func(std::string_view module, std::string_view name);

 private:
  struct Source;
  Source* source_for(std::string_view module);
  FuncType lookup(Source& src, std::string_view module, std::string_view name);

  std::string dir_;
  std::unique_ptr<Source> vmlinux_;
  // Loaded on first use; null when the module has no BTF. Destroyed before vmlinux_, their base.
  std::unordered_map<std::string, std::unique_ptr<Source>> modules_;
};

}  // namespace retsnoop
