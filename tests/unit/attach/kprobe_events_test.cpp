#include "attach/kprobe_events.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <set>
#include <sstream>

namespace retsnoop {
namespace {

TEST(KprobeEvents, ProbeDefinitionsAnchorOnText) {
  TextAnchor text{"_text", 0xffffffff81000000};
  EXPECT_EQ(
      probe_definition(ProbeKind::Entry, "retsnoop_42", "retsnoop_42_e0", text, 0xffffffff812345a0),
      "p:retsnoop_42/retsnoop_42_e0 _text+0x2345a0");
  EXPECT_EQ(probe_definition(ProbeKind::Return, "g", "ev", text, 0xffffffffc0a01000),
            "r:g/ev _text+0x3fa01000");
}

TEST(KprobeEvents, AnchorIsTextElseStext) {
  auto x86 = find_text_anchor([](const char* name) -> uint64_t {
    return std::string_view(name) == "_text"    ? 0x1000
           : std::string_view(name) == "_stext" ? 0x2000
                                                : 0;
  });
  ASSERT_TRUE(x86);
  EXPECT_EQ(x86->name, "_text");
  auto arm64 = find_text_anchor(
      [](const char* name) -> uint64_t { return std::string_view(name) == "_stext" ? 0x2000 : 0; });
  ASSERT_TRUE(arm64);
  EXPECT_EQ(arm64->name, "_stext");
  EXPECT_EQ(arm64->addr, 0x2000u);
  EXPECT_FALSE(find_text_anchor([](const char*) -> uint64_t { return 0; }));
  EXPECT_EQ(probe_definition(ProbeKind::Entry, "g", "ev", *arm64, 0x2010), "p:g/ev _stext+0x10");
}

TEST(KprobeEvents, RemovalNamesTheEvent) { EXPECT_EQ(event_removal("g", "ev"), "-:g/ev"); }

TEST(KprobeEvents, GroupNamesItsRun) {
  EXPECT_EQ(run_group("0123456789ab"), "retsnoop_0123456789ab");
  EXPECT_EQ(group_run_id("retsnoop_0123456789ab"), "0123456789ab");
  EXPECT_EQ(group_run_id(run_group("a1b2c3d4e5f6")), "a1b2c3d4e5f6");
  EXPECT_FALSE(group_run_id("kprobes"));
  EXPECT_FALSE(group_run_id("retsnoop_"));
  EXPECT_FALSE(group_run_id("retsnoop_1234"));  // a PID-named group of another tool's making
  EXPECT_FALSE(group_run_id("retsnoop_0123456789AB"));
  EXPECT_FALSE(group_run_id("retsnoop_0123456789abc"));
}

TEST(KprobeEvents, ParsesListingIntoDistinctEvents) {
  const char* listing =
      "p:retsnoop_9/retsnoop_9_e0 _text+0x2345a0\n"
      "p:retsnoop_9/retsnoop_9_e0 _text+0x2345f0\n"
      "r16:retsnoop_9/retsnoop_9_r0 _text+0x2345a0\n"
      "p:kprobes/myprobe do_sys_open dfd=%ax\n"
      "garbage\n";
  auto events = parse_kprobe_events(listing);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0], (EventName{"retsnoop_9", "retsnoop_9_e0"}));
  EXPECT_EQ(events[1], (EventName{"retsnoop_9", "retsnoop_9_r0"}));
  EXPECT_EQ(events[2], (EventName{"kprobes", "myprobe"}));
}

TEST(KprobeEvents, SumsMissedHitsOfOwnEvents) {
  const char* profile =
      "  retsnoop_9_e0                                              120               3\n"
      "  retsnoop_9_r0                                              118               5\n"
      "  myprobe                                                     10             100\n";
  EXPECT_EQ(parse_missed_hits(profile, "retsnoop_9_"), 8u);
  EXPECT_EQ(parse_missed_hits(profile, "retsnoop_1_"), 0u);
  EXPECT_EQ(parse_missed_hits("", "retsnoop_9_"), 0u);
}

// kprobe_events as the kernel runs a write: line by line, stopping at the first refused line
// with the lines before it applied, and refusing a probe the event already has.
struct FakeKprobeEvents {
  std::set<std::string> refused;
  std::multiset<std::string> defined;
  int writes = 0;

  int operator()(const std::string& text) {
    ++writes;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
      if (refused.count(line)) return -EINVAL;
      if (defined.count(line)) return -EEXIST;
      defined.insert(line);
    }
    return 0;
  }
};

std::vector<std::string> definitions(int n) {
  std::vector<std::string> commands;
  commands.reserve(n);
  for (int i = 0; i < n; ++i) commands.push_back("p:g/ev _text+0x" + std::to_string(1000 + i));
  return commands;
}

const std::function<bool()> kNeverStop = [] { return false; };

TEST(KprobeEvents, BatchesDefinitionsIntoFewWrites) {
  FakeKprobeEvents kernel;
  auto commands = definitions(100);
  auto errs = run_batched(commands, std::ref(kernel), kNeverStop);
  EXPECT_EQ(errs, std::vector<int>(100, 0));
  EXPECT_EQ(kernel.writes, 4);  // 32 lines per write
  EXPECT_EQ(kernel.defined, std::multiset<std::string>(commands.begin(), commands.end()));
}

TEST(KprobeEvents, RefusedLineIsFoundAndTheRestDefinedOnce) {
  FakeKprobeEvents kernel;
  auto commands = definitions(70);
  kernel.refused = {commands[40], commands[45]};
  auto errs = run_batched(commands, std::ref(kernel), kNeverStop);
  ASSERT_EQ(errs.size(), 70u);
  for (size_t i = 0; i < errs.size(); ++i)
    EXPECT_EQ(errs[i], i == 40 || i == 45 ? -EINVAL : 0) << i;
  EXPECT_EQ(kernel.defined.size(), 68u);
  for (const auto& c : kernel.defined) EXPECT_EQ(kernel.defined.count(c), 1u) << c;
}

TEST(KprobeEvents, StopsBetweenWrites) {
  FakeKprobeEvents kernel;
  auto errs = run_batched(definitions(100), std::ref(kernel), [&] { return kernel.writes >= 2; });
  EXPECT_EQ(errs, std::vector<int>(64, 0));
  EXPECT_EQ(kernel.defined.size(), 64u);
}

TEST(KprobeEvents, NoTracefsNoFile) {
  EXPECT_FALSE(KprobeEventsFile::open({"/nonexistent/tracefs"}));
}

}  // namespace
}  // namespace retsnoop
