#include "format/failure_summary.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "format/folded_view.h"
#include "format/summary_view.h"

namespace retsnoop::test {
namespace {

const StackSignature kMapCreate = {{"entry_SYSCALL_64", "__x64_sys_bpf", "map_create"},
                                   "[-EINVAL]"};
const StackSignature kProgLoad = {{"entry_SYSCALL_64", "__x64_sys_bpf", "bpf_prog_load"},
                                  "[-EPERM]"};
const StackSignature kMapCreateNomem = {kMapCreate.frames, "[-ENOMEM]"};

constexpr int64_t kSec = 1000000000;
constexpr int64_t k2026 = 1795392000 * kSec;  // 2026-11-23T00:00:00Z

FailureSummary example() {
  FailureSummary s;
  s.add(kProgLoad, k2026 + 5 * kSec);
  s.add(kMapCreate, k2026 + 7 * kSec);
  s.add(kMapCreate, k2026 + 3 * kSec);  // printed out of order
  s.add(kMapCreateNomem, k2026 + 9 * kSec);
  s.add(kMapCreate, k2026 + 8 * kSec);
  return s;
}

TEST(FailureSummary, CountsUniqueStacksMostFrequentFirst) {
  auto entries = example().by_count();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].signature, kMapCreate);
  EXPECT_EQ(entries[0].count, 3u);
  EXPECT_EQ(entries[0].fingerprint, stack_fingerprint(kMapCreate));
  EXPECT_EQ(entries[0].first_seen_ns, k2026 + 3 * kSec);
  EXPECT_EQ(entries[0].last_seen_ns, k2026 + 8 * kSec);
  // Ties: the one seen first comes first.
  EXPECT_EQ(entries[1].signature, kProgLoad);
  EXPECT_EQ(entries[2].signature, kMapCreateNomem);
  EXPECT_EQ(example().sessions(), 5u);
}

// The first session that had a kernel message gives its stack's message; later ones keep it.
TEST(SummaryView, FirstKernelMessageOfEachStack) {
  FailureSummary s;
  s.add(kMapCreate, k2026, "");
  s.add(kMapCreate, k2026 + kSec, "array_map_alloc_check printk: bad size");
  s.add(kMapCreate, k2026 + 2 * kSec, "array_map_alloc_check printk: other");
  s.add(kProgLoad, k2026);
  ASSERT_EQ(s.by_count()[0].message, "array_map_alloc_check printk: bad size");
  std::string text = format_summary_text(s, true);
  EXPECT_NE(
      text.find("            map_create\n            » array_map_alloc_check printk: bad size\n"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find("other"), std::string::npos);
  std::string json = format_summary_json(s, {}, true);
  EXPECT_NE(json.find(R"("message":"array_map_alloc_check printk: bad size")"), std::string::npos)
      << json;
}

TEST(FailureSummary, EmptyHasNothing) {
  FailureSummary s;
  EXPECT_TRUE(s.by_count().empty());
  EXPECT_EQ(s.sessions(), 0u);
  EXPECT_EQ(format_folded(s), "");
}

TEST(SummaryView, TextListsCountsTimesAndFrames) {
  std::string text = format_summary_text(example(), true);
  EXPECT_EQ(text.substr(0, text.find('\n')), "Summary: 5 sessions, 3 unique stacks");
  std::string first =
      "       3x  " + stack_fingerprint(kMapCreate) +
      " [-EINVAL]  first 2026-11-23T00:00:03.000000Z  last 2026-11-23T00:00:08.000000Z\n"
      "            entry_SYSCALL_64\n            __x64_sys_bpf\n            map_create\n";
  EXPECT_NE(text.find(first), std::string::npos) << text;
  EXPECT_LT(text.find("[-EPERM]"), text.find("[-ENOMEM]"));
  EXPECT_EQ(format_summary_text(example(), false).substr(0, 15), "Summary so far:");
}

TEST(SummaryView, JsonIsOneLineWithHostAndStacks) {
  HostIdentity host{"web-1", "6.1.0-27-amd64", "6f1c0c52-1111-2222-3333-444455556666"};
  std::string line = format_summary_json(example(), host, true);
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  auto j = nlohmann::json::parse(line)["summary"];
  EXPECT_EQ(j["final"], true);
  EXPECT_EQ(j["host"], "web-1");
  EXPECT_EQ(j["kernel_release"], "6.1.0-27-amd64");
  EXPECT_EQ(j["boot_id"], host.boot_id);
  EXPECT_EQ(j["sessions"], 5);
  ASSERT_EQ(j["stacks"].size(), 3u);
  EXPECT_EQ(j["stacks"][0]["count"], 3);
  EXPECT_EQ(j["stacks"][0]["fingerprint"], stack_fingerprint(kMapCreate));
  EXPECT_EQ(j["stacks"][0]["result"], "[-EINVAL]");
  EXPECT_EQ(j["stacks"][0]["stack"][2], "map_create");
  EXPECT_EQ(j["stacks"][0]["first_seen"], "2026-11-23T00:00:03.000000Z");
  EXPECT_EQ(j["stacks"][0]["last_seen"], "2026-11-23T00:00:08.000000Z");
}

TEST(FoldedView, OneLinePerStackRootFirst) {
  EXPECT_EQ(format_folded(example()),
            "entry_SYSCALL_64;__x64_sys_bpf;map_create 3\n"
            "entry_SYSCALL_64;__x64_sys_bpf;bpf_prog_load 1\n"
            "entry_SYSCALL_64;__x64_sys_bpf;map_create 1\n");
}

TEST(FoldedView, SeparatorsInNamesCannotShiftColumns) {
  FailureSummary s;
  s.add({{"a;b", "c d"}, "[-EIO]"}, 0);
  EXPECT_EQ(format_folded(s), "a_b;c_d 1\n");
}

TEST(FoldedView, ControlBytesInNamesAreEscaped) {
  FailureSummary s;
  s.add({{"a\nb", "c\x1b[1m"}, "[-EIO]"}, 0);
  EXPECT_EQ(format_folded(s), "a\\nb;c\\x1b[1m 1\n");
}

TEST(SummaryView, ControlBytesInFramesAreEscaped) {
  FailureSummary s;
  s.add({{"a\nb", "c\x1b[1m"}, "[-EIO]"}, 0);
  std::string text = format_summary_text(s, true);
  EXPECT_NE(text.find("            a\\nb\n            c\\x1b[1m\n"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
}

TEST(SummaryView, UtcTimestampHasMicroseconds) {
  EXPECT_EQ(utc_timestamp(k2026 + 1234567891), "2026-11-23T00:00:01.234567Z");
}

}  // namespace
}  // namespace retsnoop::test
