#include "discovery/deny_list.h"

namespace retsnoop {

namespace {

// Called by the BPF programs or by the kprobe/trampoline machinery that runs them: tracing them
// recurses (and the recursion is silently dropped) or hangs the machine. The idle functions
// never return while the CPU sleeps and fire on every CPU constantly.
constexpr std::string_view kAlwaysDenied[] = {
    "bpf_get_smp_processor_id", "migrate_enable",    "migrate_disable",
    "rcu_read_lock*",           "rcu_read_unlock*",  "__rcu_read_lock*",
    "__rcu_read_unlock*",       "bpf_spin_lock",     "bpf_spin_unlock",
    "__bpf_prog_enter*",        "__bpf_prog_exit*",  "__bpf_tramp_enter*",
    "__bpf_tramp_exit*",        "update_prog_stats", "inc_misses_counter",
    "bpf_prog_start_time",      "arch_cpu_idle",     "default_idle",
    "preempt_count_add",        "preempt_count_sub",
};

}  // namespace

std::span<const std::string_view> builtin_deny_globs() { return kAlwaysDenied; }

}  // namespace retsnoop
