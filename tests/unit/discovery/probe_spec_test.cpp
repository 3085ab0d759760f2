#include "discovery/probe_spec.h"

#include <gtest/gtest.h>

#include "temp_dir.h"
#include "util/error.h"

namespace retsnoop {
namespace {

constexpr const char* kForms =
    "; expected kprobe:FUNC[+OFFSET], kretprobe:FUNC, tp:CATEGORY:NAME or rawtp:NAME";

std::string probe_error_of(std::string_view text) {
  try {
    parse_probe_spec(text);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(ProbeSpec, Kprobe) {
  EXPECT_EQ(parse_probe_spec("kprobe:bprm_execve"),
            (ProbeSpec{InjectKind::Kprobe, "", "bprm_execve", 0}));
  EXPECT_EQ(parse_probe_spec("kprobe:helper.isra.0"),
            (ProbeSpec{InjectKind::Kprobe, "", "helper.isra.0", 0}));
}

TEST(ProbeSpec, KprobeOffsetsInDecimalAndHex) {
  EXPECT_EQ(parse_probe_spec("kprobe:f+16").offset, 16u);
  EXPECT_EQ(parse_probe_spec("kprobe:f+0x10").offset, 16u);
  EXPECT_EQ(parse_probe_spec("kprobe:f+0XfF").offset, 255u);
  EXPECT_EQ(parse_probe_spec("kprobe:f+0").offset, 0u);
}

TEST(ProbeSpec, KretprobeTracepointAndRawTracepoint) {
  EXPECT_EQ(parse_probe_spec("kretprobe:f"), (ProbeSpec{InjectKind::Kretprobe, "", "f", 0}));
  EXPECT_EQ(parse_probe_spec("tp:sched:sched_switch"),
            (ProbeSpec{InjectKind::Tracepoint, "sched", "sched_switch", 0}));
  EXPECT_EQ(parse_probe_spec("tp:*:*_exec"), (ProbeSpec{InjectKind::Tracepoint, "*", "*_exec", 0}));
  EXPECT_EQ(parse_probe_spec("rawtp:sched_*"),
            (ProbeSpec{InjectKind::RawTracepoint, "", "sched_*", 0}));
}

TEST(ProbeSpec, LabelsAreWrittenLikeSpecs) {
  EXPECT_EQ(probe_label(parse_probe_spec("kprobe:f+16")), "kprobe:f+0x10");
  EXPECT_EQ(probe_label(parse_probe_spec("kprobe:f+0")), "kprobe:f");
  EXPECT_EQ(probe_label(parse_probe_spec("kretprobe:f")), "kretprobe:f");
  EXPECT_EQ(probe_label(parse_probe_spec("tp:sched:sched_switch")), "tp:sched:sched_switch");
  EXPECT_EQ(probe_label(parse_probe_spec("rawtp:sched_switch")), "rawtp:sched_switch");
  EXPECT_EQ(probe_target(parse_probe_spec("tp:sched:sched_switch")), "sched:sched_switch");
  EXPECT_EQ(inject_kind_name(InjectKind::Tracepoint), "tp");
}

TEST(ProbeSpec, EveryErrorNamesTheSpecAndTheForms) {
  const std::pair<const char*, const char*> cases[] = {
      {"bprm_execve", "no probe kind"},
      {"uprobe:f", "unknown probe kind 'uprobe'"},
      {"kprobe:", "empty function name"},
      {"kprobe:f*", "character '*' is not allowed in a function name"},
      {"kprobe:f+", "offset '' is not a decimal or 0x hex number"},
      {"kprobe:f+0x", "offset '0x' is not a decimal or 0x hex number"},
      {"kprobe:f+12a", "offset '12a' is not a decimal or 0x hex number"},
      {"kprobe:f+-1", "offset '-1' is not a decimal or 0x hex number"},
      {"kprobe:f+0x10000000000000000", "offset '0x10000000000000000' is out of range"},
      {"kretprobe:f+4", "a kretprobe fires at the return and takes no offset"},
      {"tp:sched", "a tracepoint needs CATEGORY:NAME"},
      {"tp::x", "empty tracepoint category"},
      {"tp:sched:", "empty tracepoint name"},
      {"tp:sched:a:b", "character ':' is not allowed in a tracepoint name"},
      {"rawtp:", "empty raw tracepoint name"},
      {"rawtp:a/b", "character '/' is not allowed in a raw tracepoint name"},
  };
  for (const auto& [spec, why] : cases)
    EXPECT_EQ(probe_error_of(spec), "Invalid probe '" + std::string(spec) + "': " + why + kForms)
        << spec;
}

TEST(ProbeSpec, ArgsReadFilesOneSpecPerLineWithComments) {
  test::TempDir dir;
  std::string file = dir.write("probes.txt",
                               "# probes for the exec path\n"
                               "kprobe:bprm_execve+0x5\n"
                               "\n"
                               "  tp:sched:sched_process_*   # every process event\n");
  auto specs = parse_probe_args({"rawtp:sched_switch", "@" + file, "kretprobe:f"});
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(probe_label(specs[0]), "rawtp:sched_switch");
  EXPECT_EQ(probe_label(specs[1]), "kprobe:bprm_execve+0x5");
  EXPECT_EQ(probe_label(specs[2]), "tp:sched:sched_process_*");
  EXPECT_EQ(probe_label(specs[3]), "kretprobe:f");
}

TEST(ProbeSpec, ArgsFileErrors) {
  test::TempDir dir;
  std::string file = dir.write("bad.txt", "kprobe:f\nkprobe f\n");
  try {
    parse_probe_args({"@" + file});
    FAIL();
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()),
              std::string("Invalid probe 'kprobe f': no probe kind") + kForms);
  }
  try {
    parse_probe_args({"@" + dir.path() + "/missing.txt"});
    FAIL();
  } catch (const UserError& e) {
    EXPECT_TRUE(
        std::string(e.what()).starts_with("Failed to read '" + dir.path() + "/missing.txt'"))
        << e.what();
  }
}

}  // namespace
}  // namespace retsnoop
