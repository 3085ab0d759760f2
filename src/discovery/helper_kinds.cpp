#include "discovery/helper_kinds.h"

#include <algorithm>
#include <array>
#include <utility>

namespace retsnoop {

namespace {

// BPF helpers are defined with BPF_CALL_x(name, ...) (include/linux/filter.h), which emits
// `u64 name(u64, ...)` wrapping the typed body; BTF therefore says u64 and the results would be
// judged "unsigned, never fails". These are the helpers commonly hit inside bpf() and program
// runs, with the kind the ret_type of their bpf_func_proto declares: RET_VOID, RET_INTEGER (a
// long, -errno on failure) or a pointer (most of them NULL on failure). Helpers returning plain
// values that never fail (bpf_ktime_get_ns, bpf_get_current_pid_tgid, ...) are left unsigned.
// Sorted by name for binary search.
constexpr std::array<std::pair<std::string_view, RetKind>, 79> kHelpers = {{
    {"bpf_btf_find_by_name_kind", RetKind::Int64},
    {"bpf_cgrp_storage_get", RetKind::Ptr},
    {"bpf_copy_from_user", RetKind::Int64},
    {"bpf_copy_from_user_task", RetKind::Int64},
    {"bpf_d_path", RetKind::Int64},
    {"bpf_dynptr_data", RetKind::Ptr},
    {"bpf_dynptr_from_mem", RetKind::Int64},
    {"bpf_dynptr_read", RetKind::Int64},
    {"bpf_dynptr_write", RetKind::Int64},
    {"bpf_find_vma", RetKind::Int64},
    {"bpf_for_each_map_elem", RetKind::Int64},
    {"bpf_get_branch_snapshot", RetKind::Int64},
    {"bpf_get_current_comm", RetKind::Int64},
    {"bpf_get_current_task", RetKind::Ptr},
    {"bpf_get_current_task_btf", RetKind::Ptr},
    {"bpf_get_func_arg", RetKind::Int64},
    {"bpf_get_func_arg_cnt", RetKind::Int64},
    {"bpf_get_func_ret", RetKind::Int64},
    {"bpf_get_listener_sock", RetKind::Ptr},
    {"bpf_get_ns_current_pid_tgid", RetKind::Int64},
    {"bpf_get_stack", RetKind::Int64},
    {"bpf_get_stackid", RetKind::Int64},
    {"bpf_get_task_stack", RetKind::Int64},
    {"bpf_ima_inode_hash", RetKind::Int64},
    {"bpf_inode_storage_get", RetKind::Ptr},
    {"bpf_kptr_xchg", RetKind::Ptr},
    {"bpf_loop", RetKind::Int64},
    {"bpf_map_delete_elem", RetKind::Int64},
    {"bpf_map_lookup_elem", RetKind::Ptr},
    {"bpf_map_lookup_percpu_elem", RetKind::Ptr},
    {"bpf_map_peek_elem", RetKind::Int64},
    {"bpf_map_pop_elem", RetKind::Int64},
    {"bpf_map_push_elem", RetKind::Int64},
    {"bpf_map_update_elem", RetKind::Int64},
    {"bpf_per_cpu_ptr", RetKind::Ptr},
    {"bpf_perf_event_output", RetKind::Int64},
    {"bpf_probe_read_kernel", RetKind::Int64},
    {"bpf_probe_read_kernel_str", RetKind::Int64},
    {"bpf_probe_read_user", RetKind::Int64},
    {"bpf_probe_read_user_str", RetKind::Int64},
    {"bpf_ringbuf_discard", RetKind::Void},
    {"bpf_ringbuf_discard_dynptr", RetKind::Void},
    {"bpf_ringbuf_output", RetKind::Int64},
    {"bpf_ringbuf_reserve", RetKind::Ptr},
    {"bpf_ringbuf_reserve_dynptr", RetKind::Int64},
    {"bpf_ringbuf_submit", RetKind::Void},
    {"bpf_ringbuf_submit_dynptr", RetKind::Void},
    {"bpf_send_signal", RetKind::Int64},
    {"bpf_send_signal_thread", RetKind::Int64},
    {"bpf_seq_printf", RetKind::Int64},
    {"bpf_sk_fullsock", RetKind::Ptr},
    {"bpf_sk_lookup_tcp", RetKind::Ptr},
    {"bpf_sk_lookup_udp", RetKind::Ptr},
    {"bpf_sk_storage_delete", RetKind::Int64},
    {"bpf_sk_storage_get", RetKind::Ptr},
    {"bpf_skb_load_bytes", RetKind::Int64},
    {"bpf_skb_store_bytes", RetKind::Int64},
    {"bpf_skc_lookup_tcp", RetKind::Ptr},
    {"bpf_skc_to_mptcp_sock", RetKind::Ptr},
    {"bpf_skc_to_tcp6_sock", RetKind::Ptr},
    {"bpf_skc_to_tcp_request_sock", RetKind::Ptr},
    {"bpf_skc_to_tcp_sock", RetKind::Ptr},
    {"bpf_skc_to_tcp_timewait_sock", RetKind::Ptr},
    {"bpf_skc_to_udp6_sock", RetKind::Ptr},
    {"bpf_skc_to_unix_sock", RetKind::Ptr},
    {"bpf_snprintf", RetKind::Int64},
    {"bpf_sock_from_file", RetKind::Ptr},
    {"bpf_strtol", RetKind::Int64},
    {"bpf_strtoul", RetKind::Int64},
    {"bpf_sys_bpf", RetKind::Int64},
    {"bpf_task_pt_regs", RetKind::Ptr},
    {"bpf_task_storage_delete", RetKind::Int64},
    {"bpf_task_storage_get", RetKind::Ptr},
    {"bpf_tcp_sock", RetKind::Ptr},
    {"bpf_this_cpu_ptr", RetKind::Ptr},
    {"bpf_timer_init", RetKind::Int64},
    {"bpf_timer_start", RetKind::Int64},
    {"bpf_trace_printk", RetKind::Int64},
    {"bpf_user_ringbuf_drain", RetKind::Int64},
}};

static_assert(std::is_sorted(kHelpers.begin(), kHelpers.end()));

}  // namespace

std::optional<RetKind> bpf_helper_ret_kind(std::string_view name) {
  auto it = std::lower_bound(kHelpers.begin(), kHelpers.end(), name,
                             [](const auto& entry, std::string_view n) { return entry.first < n; });
  if (it == kHelpers.end() || it->first != name) return std::nullopt;
  return it->second;
}

}  // namespace retsnoop
