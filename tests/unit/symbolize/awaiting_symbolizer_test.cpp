#include "symbolize/awaiting_symbolizer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>

namespace retsnoop {
namespace {

// Names every address after whatever "loaded" has set up, to show the order of events.
class FakeSymbolizer : public Symbolizer {
 public:
  SymbolizedAddr symbolize(uint64_t addr, bool) override {
    SymbolizedAddr out;
    out.found = loaded.load();
    out.name = "sym";
    out.offset = addr;
    return out;
  }
  std::atomic<bool> loaded{false};
};

TEST(AwaitingSymbolizer, LooksUpOnlyOnceTheLoadIsDone) {
  FakeSymbolizer inner;
  std::promise<void> done;
  AwaitingSymbolizer s(inner, done.get_future().share());
  auto lookup = std::async(std::launch::async, [&] { return s.symbolize(0x10, false); });
  // Still waiting: a lookup that went ahead would have come back by now, not found.
  EXPECT_EQ(lookup.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  inner.loaded = true;
  done.set_value();
  SymbolizedAddr out = lookup.get();
  EXPECT_TRUE(out.found);
  EXPECT_EQ(out.offset, 0x10u);
}

TEST(AwaitingSymbolizer, PassesThroughOnceLoaded) {
  FakeSymbolizer inner;
  inner.loaded = true;
  std::promise<void> done;
  done.set_value();
  AwaitingSymbolizer s(inner, done.get_future().share());
  EXPECT_TRUE(s.symbolize(1, true).found);
  EXPECT_TRUE(s.symbolize(2, false).found);
}

}  // namespace
}  // namespace retsnoop
