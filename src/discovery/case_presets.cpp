#include "discovery/case_presets.h"

#include <algorithm>
#include <array>
#include <string>

#include "util/error.h"

namespace retsnoop {

namespace {

constexpr std::string_view kBpfEntry[] = {"*_sys_bpf"};

// Upstream retsnoop's bpf case, so that its users' command lines match the same functions: the
// syscall layer, BTF, the verifier's passes (broad prefixes: without DWARF there is no
// ':kernel/bpf/*.c'), the map families, and the allocations and user copies bpf() makes.
constexpr std::string_view kBpfAllow[] = {
    "*bpf*",         "*btf*",       "do_check*",  "reg_*",    "check_*",     "resolve_*",
    "convert_*",     "adjust_*",    "sanitize_*", "map_*",    "ringbuf_*",   "array_*",
    "__vmalloc_*",   "__alloc*",    "pcpu_*",     "memdup_*", "stack_map_*", "htab_*",
    "generic_map_*", "*copy_from*", "*copy_to*",
};

// Upstream's deny list (helpers every BPF program calls, migration and RCU read-side markers,
// hot scheduler and VMA lookups that check_* and find_* would pull in, a comparison callback
// that never fails, one function that cannot be attached), then ours: the helpers retsnoop's
// own programs call on every probe hit and the runners of BPF programs. *bpf* matches them,
// and traced they would record retsnoop itself inside every session of the thread.
constexpr std::string_view kBpfDeny[] = {
    "bpf_get_smp_processor_id",
    "bpf_get_current_pid_tgid",
    "*migrate*",
    "rcu_read_lock*",
    "rcu_read_unlock*",
    "bpf_lsm_*",
    "check_cfs_rq_runtime",
    "find_busiest_group",
    "find_vma*",
    "btf_sec_info_cmp",
    "copy_to_user_nofault",
    // retsnoop's own
    "bpf_get_current_*",
    "bpf_get_stack*",
    "bpf_get_func_ip*",
    "bpf_get_func_arg*",
    "bpf_get_attach_cookie*",
    "bpf_get_branch_snapshot",
    "bpf_ktime_get_*",
    "bpf_ringbuf_reserve*",
    "bpf_ringbuf_submit*",
    "bpf_ringbuf_discard*",
    "bpf_ringbuf_output",
    "bpf_probe_read_*",
    "bpf_map_lookup_elem",
    "bpf_map_update_elem",
    "bpf_map_delete_elem",
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
  names.reserve(std::size(kPresets));
  for (const CasePreset& p : kPresets) names.push_back(p.name);
  return names;
}

}  // namespace retsnoop
