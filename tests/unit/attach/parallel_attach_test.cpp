#include "attach/parallel_attach.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <mutex>
#include <set>

#include "util/error.h"
#include "util/log.h"

namespace retsnoop {
namespace {

FuncTable make_funcs(size_t n) {
  FuncTable funcs(n);
  for (size_t i = 0; i < n; ++i) funcs[i].name = "f" + std::to_string(i);
  return funcs;
}

TEST(ParallelAttach, AttachesEveryFunctionOnce) {
  FuncTable funcs = make_funcs(100);
  std::atomic<int> calls[100] = {};
  ProgressMeter progress("", 200, ProgressMeter::Finish::Erase, ProgressDisplay{});
  AttachOpts opts;
  opts.progress = &progress;
  AttachResult res = attach_each(funcs, opts, [&](size_t id) {
    ++calls[id];
    return AttachError{};
  });
  EXPECT_EQ(res.attached, 100u);
  EXPECT_EQ(res.skipped, 0u);
  EXPECT_FALSE(res.interrupted);
  EXPECT_EQ(progress.done(), 200u);  // an entry and an exit probe each
  for (auto& c : calls) EXPECT_EQ(c.load(), 1);
}

TEST(ParallelAttach, FunctionErrorsAreSkipped) {
  FuncTable funcs = make_funcs(10);
  AttachResult res = attach_each(funcs, AttachOpts{}, [&](size_t id) {
    return id % 2 ? AttachError{-EINVAL, "kprobe attach failed"} : AttachError{};
  });
  EXPECT_EQ(res.attached, 5u);
  EXPECT_EQ(res.skipped, 5u);
}

TEST(ParallelAttach, SystemErrorStopsAndNamesTheFunction) {
  FuncTable funcs = make_funcs(1000);
  std::atomic<size_t> calls{0};
  try {
    attach_each(funcs, AttachOpts{}, [&](size_t id) {
      ++calls;
      return id == 3 ? AttachError{-EMFILE, "kprobe attach failed"} : AttachError{};
    });
    FAIL() << "no exception";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "function 'f3': kprobe attach failed: Too many open files");
  }
  EXPECT_LT(calls.load(), funcs.size());
}

// The kernel-internal ENOTSUPP (524) has no strerror() text.
TEST(ParallelAttach, KernelInternalErrnosAreNamed) {
  FuncTable funcs = make_funcs(1);
  testing::internal::CaptureStderr();
  set_log_verbosity(1);
  attach_each(funcs, AttachOpts{}, [&](size_t) {
    return AttachError{-524, "fexit attach failed"};
  });
  set_log_verbosity(0);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "skipping function 'f0': fexit attach failed: ENOTSUPP (kernel-internal error 524)\n");
}

TEST(ParallelAttach, StopRequestInterrupts) {
  FuncTable funcs = make_funcs(1000);
  std::atomic<size_t> calls{0};
  AttachOpts opts;
  opts.should_stop = [&] { return calls.load() >= 10; };
  AttachResult res = attach_each(funcs, opts, [&](size_t) {
    ++calls;
    return AttachError{};
  });
  EXPECT_TRUE(res.interrupted);
  EXPECT_LT(res.attached, funcs.size());
}

TEST(ParallelAttach, SystemErrorsAreTheOnesThatHitEveryFunction) {
  for (int err : {EMFILE, ENFILE, ENOMEM, EPERM}) EXPECT_TRUE(is_system_error(-err)) << err;
  for (int err : {EINVAL, ENOENT, EBUSY, EACCES, E2BIG, EOPNOTSUPP})
    EXPECT_FALSE(is_system_error(-err)) << err;
}

// The policy the kprobe-events attacher shares with attach_each().
TEST(ParallelAttach, SkipsFunctionErrorsOnly) {
  FuncTable funcs = make_funcs(1);
  EXPECT_TRUE(skip_function(funcs[0], {-EINVAL, "kprobe event failed"}));
  EXPECT_FALSE(skip_function(funcs[0], {-EMFILE, "kprobe event failed"}));
}

TEST(ParallelAttach, DetachVisitsEveryItem) {
  std::set<size_t> seen;
  std::mutex mu;
  ProgressMeter progress("", 20, ProgressMeter::Finish::Erase, ProgressDisplay{});
  detach_each(10, &progress, [&](size_t i) {
    std::lock_guard lock(mu);
    seen.insert(i);
  });
  EXPECT_EQ(seen.size(), 10u);
  EXPECT_EQ(progress.done(), 20u);
}

}  // namespace
}  // namespace retsnoop
