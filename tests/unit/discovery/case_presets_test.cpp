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
  // Hot run-time helpers and packet paths stay out even though bpf_* selects them.
  for (std::string_view name : {"bpf_ringbuf_reserve", "bpf_get_stack", "bpf_map_lookup_elem",
                                "bpf_skb_load_bytes", "bpf_lsm_file_open", "bpf_trace_run2"})
    EXPECT_TRUE(any_match(p.deny, name)) << name;
  EXPECT_FALSE(any_match(p.deny, "map_create"));
  EXPECT_FALSE(any_match(p.allow, "check_cfs_rq_runtime"));
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
