#include "app/zoom_failures.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

namespace retsnoop {
namespace {

using Names = std::vector<std::string>;

FailingChain failed(Names funcs, int64_t res) { return {.funcs = std::move(funcs), .res = res}; }

FailureLog three_failures() {
  FailureLog log;
  log.add(failed({"__x64_sys_openat"}, -ENOENT));
  log.add(failed({"__x64_sys_bpf"}, -EINVAL));
  log.add(failed({"__x64_sys_openat"}, -ENOENT));
  return log;
}

TEST(ZoomFailures, CountedByEntryAndResultInTheOrderFirstSeen) {
  std::vector<EntryFailures> by = three_failures().by_entry();
  ASSERT_EQ(by.size(), 2u);
  EXPECT_EQ(render_entry_failures(by), "__x64_sys_openat -ENOENT x2, __x64_sys_bpf -EINVAL x1");
}

TEST(ZoomFailures, TheLastFailureIsChasedWithoutAllowList) {
  std::optional<FailingChain> c = three_failures().choose({});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->funcs, Names{"__x64_sys_openat"});
}

// -x: the last failure with one of its errors; none when no failure has one.
TEST(ZoomFailures, AllowListChoosesAmongTheFailures) {
  FailureLog log = three_failures();
  std::vector<int> einval = {EINVAL};
  std::optional<FailingChain> c = log.choose(einval);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->funcs, Names{"__x64_sys_bpf"});
  EXPECT_EQ(c->res, -EINVAL);
  std::vector<int> eperm = {EPERM};
  EXPECT_FALSE(log.choose(eperm));
  EXPECT_FALSE(FailureLog().choose({}));
}

TEST(ZoomFailures, LastOfAnEntryAndResult) {
  FailureLog log;
  log.add(failed({"sys_a", "x"}, -EINVAL));
  log.add(failed({"sys_a", "y"}, -EINVAL));
  log.add(failed({"sys_a", "z"}, -EPERM));
  std::optional<FailingChain> c = log.last_of("sys_a", -EINVAL);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->funcs.back(), "y");
  EXPECT_FALSE(log.last_of("sys_b", -EINVAL));
}

// Live mode's round 1 ends at the first failure -x allows, of any entry function.
TEST(ZoomFailures, FirstRoundGoalFollowsTheAllowList) {
  std::vector<int> einval_or_null = {EINVAL, 0};
  RoundGoal goal = first_round_goal(einval_or_null);
  EXPECT_TRUE(goal.met_by(failed({"sys_a"}, -EINVAL)));
  EXPECT_TRUE(goal.met_by(failed({"sys_b", "x"}, 0)));
  EXPECT_FALSE(goal.met_by(failed({"sys_a"}, -ENOENT)));
  EXPECT_EQ(goal.text(), "a traced entry function to fail with -EINVAL or NULL");
  RoundGoal any = first_round_goal({});
  EXPECT_TRUE(any.met_by(failed({"sys_a"}, -ENOENT)));
  EXPECT_EQ(any.text(), "a traced entry function to fail");
  std::vector<int> three = {EINVAL, ENOENT, EPERM};
  EXPECT_EQ(first_round_goal(three).text(),
            "a traced entry function to fail with -EINVAL, -ENOENT or -EPERM");
}

// The rounds after wait for the chased entry function to fail with the same result, whatever
// the chain below it.
TEST(ZoomFailures, NextRoundGoalIsTheSameEntryAndResult) {
  RoundGoal goal = next_round_goal(failed({"sys_a", "x"}, -EINVAL));
  EXPECT_TRUE(goal.met_by(failed({"sys_a", "y", "z"}, -EINVAL)));
  EXPECT_FALSE(goal.met_by(failed({"sys_a", "x"}, -EPERM)));
  EXPECT_FALSE(goal.met_by(failed({"sys_b", "x"}, -EINVAL)));
  EXPECT_EQ(goal.text(), "sys_a to fail with -EINVAL again");
}

// Only a failing, finished session with calls names a chain; module functions keep their module.
TEST(ZoomFailures, ChainOfAFailingSession) {
  FuncTable funcs = {{.name = "__x64_sys_bpf"},
                     {.name = "map_create"},
                     {.name = "array_map_alloc_check", .module = "m"}};
  Session s;
  s.is_error = true;
  s.calls = {{.func_id = 0, .res = -EINVAL},
             {.func_id = 1, .res = -EINVAL},
             {.func_id = 2, .res = -EINVAL}};
  std::optional<FailingChain> c = failing_chain(s, funcs);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->funcs, (Names{"__x64_sys_bpf", "map_create", "array_map_alloc_check [m]"}));
  EXPECT_EQ(c->res, -EINVAL);
  s.interim = true;
  EXPECT_FALSE(failing_chain(s, funcs));
  s.interim = false;
  s.is_error = false;
  EXPECT_FALSE(failing_chain(s, funcs));
  s.is_error = true;
  s.calls[2].func_id = 7;
  EXPECT_FALSE(failing_chain(s, funcs));
}

// The chain follows the entry's error: a call that failed otherwise below it (an -ENOPARAM the
// caller handles) ends it; the first kernel message comes along.
TEST(ZoomFailures, ChainFollowsTheEntrysError) {
  FuncTable funcs = {{.name = "__x64_sys_mount", .addr = 0x100, .ret = RetKind::Int64},
                     {.name = "vfs_parse_fs_param", .addr = 0x200},
                     {.name = "security_fs_context_parse_param", .addr = 0x300}};
  Session s;
  s.is_error = true;
  // An int's upper bits are undefined: the errno decides, not the raw register.
  s.calls = {{.func_id = 0, .res = -EINVAL},
             {.func_id = 1, .res = 0xffffffea},
             {.func_id = 2, .res = -519}};
  KernelMessage m;
  m.kind = KernelMessageKind::Fs;
  m.prefix = "tmpfs";
  m.fmt = "Bad value for '%s'";
  m.args = {{.value = 1, .str = "size"}};
  s.messages.push_back(m);
  std::optional<FailingChain> c = failing_chain(s, funcs);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->funcs, (Names{"__x64_sys_mount", "vfs_parse_fs_param"}));
  EXPECT_EQ(c->deepest_addr, 0x200u);
  EXPECT_EQ(c->message, "tmpfs: Bad value for 'size'");
}

TEST(ZoomFailures, ResultText) {
  EXPECT_EQ(result_text(-EINVAL), "-EINVAL");
  EXPECT_EQ(result_text(0), "NULL");
  EXPECT_EQ(result_text(-100000), "-100000");
  EXPECT_EQ(result_text(5), "5");
}

}  // namespace
}  // namespace retsnoop
