#include "discovery/case_presets.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "discovery/glob.h"
#include "discovery/glob_spec.h"
#include "util/error.h"

namespace retsnoop {
namespace {

bool any_match(std::span<const std::string_view> globs, std::string_view name) {
  return std::any_of(globs.begin(), globs.end(),
                     [&](std::string_view g) { return glob_match(g, name); });
}

TEST(CasePresets, NamesAreBpfAndPerf) {
  EXPECT_EQ(case_preset_names(), (std::vector<std::string_view>{"bpf", "perf"}));
}

TEST(CasePresets, BpfSelectsTheSyscallAndItsFailurePaths) {
  const CasePreset& p = find_case_preset("bpf");
  EXPECT_TRUE(any_match(p.entry, "__x64_sys_bpf"));
  EXPECT_TRUE(any_match(p.entry, "__sys_bpf"));
  for (std::string_view name :
       {"map_create", "array_map_alloc", "array_map_alloc_check", "bpf_map_alloc_percpu",
        "bpf_prog_load", "btf_parse", "bpf_check", "check_helper_call", "do_check_common",
        "htab_map_alloc", "security_bpf_map"})
    EXPECT_TRUE(any_match(p.allow, name)) << name;
  EXPECT_FALSE(any_match(p.deny, "map_create"));
}

// Upstream retsnoop's bpf case, glob for glob: the same command line selects the same functions.
TEST(CasePresets, BpfHasUpstreamsGlobs) {
  const CasePreset& p = find_case_preset("bpf");
  for (std::string_view glob :
       {"*bpf*",         "*btf*",       "do_check*",  "reg_*",    "check_*",     "resolve_*",
        "convert_*",     "adjust_*",    "sanitize_*", "map_*",    "ringbuf_*",   "array_*",
        "__vmalloc_*",   "__alloc*",    "pcpu_*",     "memdup_*", "stack_map_*", "htab_*",
        "generic_map_*", "*copy_from*", "*copy_to*"})
    EXPECT_NE(std::find(p.allow.begin(), p.allow.end(), glob), p.allow.end()) << glob;
  EXPECT_EQ(p.allow.size(), 21u);
  for (std::string_view glob :
       {"bpf_get_smp_processor_id", "bpf_get_current_pid_tgid", "*migrate*", "rcu_read_lock*",
        "rcu_read_unlock*", "bpf_lsm_*", "check_cfs_rq_runtime", "find_busiest_group", "find_vma*",
        "btf_sec_info_cmp", "copy_to_user_nofault"})
    EXPECT_NE(std::find(p.deny.begin(), p.deny.end(), glob), p.deny.end()) << glob;
  for (std::string_view name : {"__vmalloc_node_range", "pcpu_alloc", "memdup_user",
                                "_copy_from_user", "reg_bounds_sync", "sanitize_ptr_alu"})
    EXPECT_TRUE(any_match(p.allow, name)) << name;
}

// Ours on top: the helpers retsnoop's own programs call on every hit, which *bpf* selects.
TEST(CasePresets, BpfKeepsRetsnoopsOwnHelpersOut) {
  const CasePreset& p = find_case_preset("bpf");
  for (std::string_view name :
       {"bpf_ringbuf_reserve", "bpf_get_stack", "bpf_map_lookup_elem", "bpf_get_current_task_btf",
        "bpf_probe_read_kernel", "bpf_trace_run2", "bpf_lsm_file_open"})
    EXPECT_TRUE(any_match(p.deny, name)) << name;
}

TEST(CasePresets, PerfMatchesTheSpec) {
  const CasePreset& p = find_case_preset("perf");
  EXPECT_TRUE(any_match(p.entry, "__x64_sys_perf_event_open"));
  EXPECT_TRUE(any_match(p.entry, "perf_ioctl"));
  EXPECT_TRUE(any_match(p.allow, "perf_event_alloc"));
  EXPECT_TRUE(any_match(p.allow, "__perf_event_read"));
  EXPECT_TRUE(p.deny.empty());
}

TEST(CasePresets, EveryGlobIsValid) {
  for (std::string_view name : case_preset_names()) {
    const CasePreset& p = find_case_preset(name);
    for (auto list : {p.entry, p.allow, p.deny}) {
      for (std::string_view g : list) EXPECT_NO_THROW(parse_glob(g)) << g;
    }
  }
}

TEST(CasePresets, UnknownNameListsTheValidOnes) {
  try {
    find_case_preset("net");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()), "Unknown case 'net', valid cases: bpf, perf");
  }
}

}  // namespace
}  // namespace retsnoop
