#include "symbolize/process_recorder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>

#include "worker_test_util.h"

namespace retsnoop {
namespace {

uint64_t code_address() { return reinterpret_cast<uint64_t>(&code_address); }

// The map is read on the recorder's thread; a session that needs it waits for it.
TEST(ProcessRecorder, WaitForSeesTheMapRecorded) {
  ProcessSymbolizer symbols("", {}, test::test_worker());
  ProcessRecorder recorder(symbols);
  recorder.record(uint32_t(getpid()), 1);
  recorder.wait_for(uint32_t(getpid()), 1);
  EXPECT_TRUE(symbols.symbolize(uint32_t(getpid()), 1, code_address(), false).mapped);
  EXPECT_TRUE(recorder.stop(ProcessRecorder::Clock::now() + std::chrono::seconds(5)));
  EXPECT_EQ(recorder.dropped(), 0u);
}

// Nothing queued for that process, or only for later sessions: no wait.
TEST(ProcessRecorder, WaitForReturnsWhenNothingIsPending) {
  ProcessSymbolizer symbols("", {}, test::test_worker());
  ProcessRecorder recorder(symbols);
  recorder.wait_for(uint32_t(getpid()), 1);
  EXPECT_FALSE(symbols.symbolize(uint32_t(getpid()), 1, code_address(), false).mapped);
}

// After a stop, requests are ignored and waits end at once.
TEST(ProcessRecorder, StoppedRecorderIgnoresRequests) {
  ProcessSymbolizer symbols("", {}, test::test_worker());
  ProcessRecorder recorder(symbols);
  ASSERT_TRUE(recorder.stop(ProcessRecorder::Clock::now() + std::chrono::seconds(5)));
  recorder.record(uint32_t(getpid()), 1);
  recorder.wait_for(uint32_t(getpid()), 1);
  EXPECT_FALSE(symbols.symbolize(uint32_t(getpid()), 1, code_address(), false).mapped);
}

}  // namespace
}  // namespace retsnoop
