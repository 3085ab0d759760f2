#include "discovery/deny_list.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>

#include "discovery/glob.h"

namespace retsnoop {
namespace {

bool denied(std::span<const std::string_view> globs, std::string_view name) {
  return std::any_of(globs.begin(), globs.end(),
                     [&](std::string_view g) { return glob_match(g, name); });
}

TEST(DenyList, CoversTheTracingMachinery) {
  auto globs = builtin_deny_globs();
  for (std::string_view name : {"bpf_get_smp_processor_id",
                                "migrate_enable",
                                "migrate_disable",
                                "rcu_read_lock",
                                "rcu_read_lock_held",
                                "rcu_read_unlock",
                                "rcu_read_unlock_special",
                                "__rcu_read_lock",
                                "__rcu_read_unlock",
                                "bpf_spin_lock",
                                "bpf_spin_unlock",
                                "__bpf_prog_enter",
                                "__bpf_prog_enter_sleepable",
                                "__bpf_prog_exit",
                                "__bpf_tramp_enter",
                                "__bpf_tramp_exit",
                                "update_prog_stats",
                                "inc_misses_counter",
                                "bpf_prog_start_time",
                                "arch_cpu_idle",
                                "default_idle",
                                "preempt_count_add",
                                "preempt_count_sub"})
    EXPECT_TRUE(denied(globs, name)) << name;
  EXPECT_FALSE(denied(globs, "map_create"));
  EXPECT_FALSE(denied(globs, "__x64_sys_nanosleep"));
}

}  // namespace
}  // namespace retsnoop
