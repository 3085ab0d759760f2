#include "discovery/probe_keys.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace retsnoop {
namespace {

TEST(TpEventType, ReadsTheIdLine) {
  EXPECT_EQ(
      tp_event_type(
          "name: sched_process_exec\nID: 312\nformat:\n\tfield:unsigned short common_type;\n"),
      312u);
}

TEST(TpEventType, NoneWithoutAValidIdLine) {
  EXPECT_EQ(tp_event_type("name: x\nformat:\n"), std::nullopt);
  EXPECT_EQ(tp_event_type("ID: many\n"), std::nullopt);
  EXPECT_EQ(tp_event_type(""), std::nullopt);
}

TEST(PlanProbeKeys, KprobesByAddressAndKindOthersEmpty) {
  Kallsyms ksyms = Kallsyms::parse_text(
      "ffffffff81000000 T _stext\n"
      "ffffffff81200000 t array_map_alloc_check\n"
      "ffffffff81200100 T bprm_execve\n");
  ProbeTable probes = {parse_probe_spec("kprobe:array_map_alloc_check+0x4"),
                       parse_probe_spec("kretprobe:array_map_alloc_check"),
                       parse_probe_spec("tp:sched:sched_process_exec"),
                       parse_probe_spec("rawtp:sched_process_exec")};

  std::vector<rs_probe_key> keys = plan_probe_keys(probes, ksyms);

  ASSERT_EQ(keys.size(), 4u);
  EXPECT_EQ(keys[0].value, 0xffffffff81200004u);
  EXPECT_EQ(keys[0].kind, uint32_t(RS_PROBE_KEY_KPROBE));
  EXPECT_EQ(keys[1].value, 0xffffffff81200000u);
  EXPECT_EQ(keys[1].kind, uint32_t(RS_PROBE_KEY_KRETPROBE));
  EXPECT_EQ(keys[2].kind, 0u);
  EXPECT_EQ(keys[3].kind, 0u);
}

TEST(PlanProbeKeys, RefusesAFunctionKallsymsLacks) {
  Kallsyms ksyms = Kallsyms::parse_text("ffffffff81000000 T _stext\n");
  EXPECT_THROW(plan_probe_keys({parse_probe_spec("kprobe:no_such_function")}, ksyms), UserError);
}

}  // namespace
}  // namespace retsnoop
