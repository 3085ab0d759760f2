#include "discovery/case_presets.h"

#include <algorithm>
#include <array>
#include <string>

#include "util/error.h"

namespace retsnoop {

namespace {

constexpr std::string_view kBpfEntry[] = {"*_sys_bpf"};

// Where bpf() commands fail: the syscall layer (map_*, bpf_*), BTF loading and checks, the map
// implementations by family, the verifier's main passes, and the LSM gate. Without DWARF there
// is no ':kernel/bpf/*.c', so these are name prefixes; verifier ones are its own (check_* as a
// whole would pull in hot scheduler functions like check_cfs_rq_runtime).
constexpr std::string_view kBpfAllow[] = {
    "bpf_*",
    "btf_*",
    "__btf_*",
    "map_*",
    "security_bpf*",
    // map families
    "array_map_*",
    "percpu_array_map_*",
    "array_of_map_*",
    "prog_array_map_*",
    "fd_array_map_*",
    "htab_*",
    "__htab_*",
    "trie_*",
    "stack_map_*",
    "queue_stack_map_*",
    "ringbuf_map_*",
    "bloom_map_*",
    "arena_map_*",
    "cgroup_storage_*",
    "dev_map_*",
    "cpu_map_*",
    "sock_map_*",
    "sock_hash_*",
    "xsk_map_*",
    // verifier
    "do_check*",
    "check_cfg",
    "check_subprogs",
    "check_btf_*",
    "check_attach_btf_id",
    "check_struct_ops_btf_id",
    "check_helper_call*",
    "check_kfunc_call*",
    "check_func_call*",
    "check_func_arg*",
    "check_mem_access*",
    "check_map_*",
    "check_ld_*",
    "check_alu_op",
    "check_cond_jmp_op",
    "check_core_relo",
    "check_max_stack_depth*",
    "check_return_code",
    "check_ptr_*",
    "check_reg_*",
    "check_stack_*",
    "resolve_pseudo_ldimm64",
    "add_subprog*",
    "add_kfunc_call",
    "push_stack",
    "push_insn",
    "visit_insn",
    "convert_ctx_accesses",
    "do_misc_fixups",
    "fixup_call_args",
    "jit_subprogs",
};

// Matched by bpf_* but noise for bpf() failures: helpers run by every BPF program (retsnoop's own
// included) at event rate, packet-path helpers, LSM hook stubs called on every security hook,
// and tracepoint/dispatcher runners. Interrupts taken inside a session would record them.
constexpr std::string_view kBpfDeny[] = {
    "bpf_get_current_*",
    "bpf_get_stack*",
    "bpf_get_func_ip*",
    "bpf_get_attach_cookie*",
    "bpf_get_branch_snapshot",
    "bpf_ktime_get_*",
    "bpf_ringbuf_reserve*",
    "bpf_ringbuf_submit*",
    "bpf_ringbuf_discard*",
    "bpf_ringbuf_output",
    "bpf_probe_read_*",
    "bpf_perf_event_output*",
    "bpf_map_lookup_elem",
    "bpf_map_update_elem",
    "bpf_map_delete_elem",
    "bpf_skb_*",
    "bpf_xdp_*",
    "bpf_sk_*",
    "bpf_sock_*",
    "bpf_csum_*",
    "bpf_l3_csum_*",
    "bpf_l4_csum_*",
    "bpf_lsm_*",
    "bpf_trace_run*",
    "bpf_dispatcher_*",
    "bpf_prog_run*",
};

constexpr std::string_view kPerfEntry[] = {"*_sys_perf_event_open", "perf_ioctl"};
constexpr std::string_view kPerfAllow[] = {"*perf_*"};

constexpr std::array<CasePreset, 2> kPresets = {{
    {"bpf", kBpfEntry, kBpfAllow, kBpfDeny},
    {"perf", kPerfEntry, kPerfAllow, {}},
}};

}  // namespace

const CasePreset& find_case_preset(std::string_view name) {
  auto it = std::find_if(kPresets.begin(), kPresets.end(),
                         [name](const CasePreset& p) { return p.name == name; });
  if (it != kPresets.end()) return *it;
  std::string valid;
  for (std::string_view n : case_preset_names())
    valid += (valid.empty() ? "" : ", ") + std::string(n);
  throw UserError("Unknown case '" + std::string(name) + "', valid cases: " + valid);
}

std::vector<std::string_view> case_preset_names() {
  std::vector<std::string_view> names;
  for (const CasePreset& p : kPresets) names.push_back(p.name);
  return names;
}

}  // namespace retsnoop
