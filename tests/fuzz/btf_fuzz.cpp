// BTF: vmlinux's and modules' come from the kernel, but -k and test setups point retsnoop at
// files, and a kernel's generator may emit what no compiler would (cycles, dangling ids). The
// input goes through KernelBtf's questions, the -A planner and the renderers that walk a
// function's types over captured bytes (here, the input again), and a system call wrapper's plan
// from its parameters' C type text.
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "captured_render.h"
#include "discovery/btf_types.h"
#include "discovery/kernel_btf.h"
#include "discovery/syscall_args.h"
#include "temp_dir.h"

namespace {

using retsnoop::KernelBtf;

// Enough of each kind to reach every code path; a large input must not make a run slow.
constexpr uint32_t kMaxTypes = 4096;
constexpr int kMaxFuncs = 16;

struct BtfFree {
  void operator()(struct btf* b) const { btf__free(b); }
};

// The -A plan and its rendering for the first FUNCs.
void plan_and_render(const struct btf* b, std::span<const uint8_t> bytes) {
  uint32_t cnt = std::min(btf__type_cnt(b), kMaxTypes);
  int funcs = 0;
  for (uint32_t id = 1; id < cnt && funcs < kMaxFuncs; ++id) {
    retsnoop::resolve_btf_type(b, id);
    const struct btf_type* t = btf__type_by_id(b, id);
    if (!btf_is_func(t)) continue;
    ++funcs;
    retsnoop::FuncArgs plan = retsnoop::args_from_prototype(b, id);
    retsnoop::fuzz::render_every_way(plan, retsnoop::fuzz::capture_of(plan, bytes));
  }
}

// KernelBtf reads a directory like /sys/kernel/btf: the input as its vmlinux.
void ask_kernel_btf(const struct btf* b, std::span<const uint8_t> bytes) {
  static const retsnoop::test::TempDir dir;
  dir.write("vmlinux", std::string(bytes.begin(), bytes.end()));
  KernelBtf kb(dir.path());
  uint32_t cnt = std::min(btf__type_cnt(b), kMaxTypes);
  for (uint32_t id = 1; id < cnt; ++id) {
    const struct btf_type* t = btf__type_by_id(b, id);
    std::string name = btf__name_by_offset(b, t->name_off);
    if (btf_is_func(t)) kb.func_type("", name);
    if ((!btf_is_struct(t) && !btf_is_union(t)) || btf_vlen(t) == 0) continue;
    std::string member = btf__name_by_offset(b, btf_members(t)->name_off);
    kb.has_member(btf_kind(t), name.c_str(), member);
    kb.has_member(btf_kind(t), name.c_str(), member + "." + member);
  }
}

// The types a sys_enter format file names, looked up in the input and planned as bpf(2)'s.
void plan_syscall(const struct btf* b, std::span<const uint8_t> bytes) {
  static const std::vector<retsnoop::SyscallParam> kParams = {
      {"cmd", "int"},           {"uattr", "union bpf_attr __user *"},
      {"size", "unsigned int"}, {"argv", "const char __user *const __user *"},
      {"st", "struct stat *"},  {"len", "size_t"}};
  retsnoop::BtfTypeText types(b);
  retsnoop::FuncArgs plan = retsnoop::syscall_args_from_params(b, types, "bpf", kParams);
  retsnoop::fuzz::render_every_way(plan, retsnoop::fuzz::capture_of(plan, bytes));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  libbpf_set_print(nullptr);  // a warning per malformed input would drown the fuzzer's output
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::unique_ptr<struct btf, BtfFree> b(btf__new(data, size));
  if (!b) return 0;
  std::span<const uint8_t> bytes(data, size);
  plan_and_render(b.get(), bytes);
  ask_kernel_btf(b.get(), bytes);
  plan_syscall(b.get(), bytes);
  return 0;
}
