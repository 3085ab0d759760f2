#include "format/format_cache.h"

#include <gtest/gtest.h>

#include "example_sessions.h"
#include "format/session_header.h"
#include "format/session_view.h"
#include "format/stack_view.h"
#include "view_text.h"
#include "wall_clock.h"

namespace retsnoop::test {
namespace {

TEST(FormatCache, SymbolizesEachAddressOnce) {
  ExampleCase c = percpu_array_case();
  FormatOptions opts;
  FormatCache cache;
  FormatContext ctx{c.funcs.table, c.symbolizer, opts};
  ctx.cache = &cache;
  std::string first = stack_text(c.session, ctx);
  size_t queries = c.symbolizer.queries.size();
  EXPECT_EQ(queries, c.session.kstack.size());
  EXPECT_EQ(stack_text(c.session, ctx), first);
  EXPECT_EQ(c.symbolizer.queries.size(), queries);
  EXPECT_EQ(cache.frame_count(), c.session.kstack.size());
}

TEST(FormatCache, SessionTextIsTheSameWithAndWithout) {
  for (FormatOptions opts : {FormatOptions{}, FormatOptions{.symb = SymbLevel::None},
                             FormatOptions{.emit_addrs = true, .dec_offsets = true},
                             FormatOptions{.unfiltered_stacks = true}}) {
    ExampleCase c = percpu_array_case();
    FormatCache cache;
    FormatContext plain{c.funcs.table, c.symbolizer, opts};
    FormatContext cached = plain;
    cached.cache = &cache;
    std::string expected = session_text(c.session, plain, kMonoToRealNs);
    EXPECT_EQ(session_text(c.session, cached, kMonoToRealNs), expected);
    EXPECT_EQ(session_text(c.session, cached, kMonoToRealNs), expected);  // from the cache
  }
}

TEST(FormatCache, StartsOverWhenFullAndKeepsHandedOutFramesValid) {
  ExampleCase c = percpu_array_case();
  FormatOptions opts;
  FormatCache cache(2);
  KernelFramePtr first = cache.frame(c.session.kstack[0], c.symbolizer, opts);
  cache.frame(c.session.kstack[1], c.symbolizer, opts);
  EXPECT_EQ(cache.frame_count(), 2u);
  cache.frame(c.session.kstack[2], c.symbolizer, opts);
  EXPECT_EQ(cache.frame_count(), 1u);
  EXPECT_TRUE(first->sym.found);
  EXPECT_FALSE(first->lines.empty());
}

TEST(FormatCache, TimeOfDayFollowsTheSecond) {
  use_utc();
  FormatCache cache;
  EXPECT_EQ(cache.time_of_day(kDayStartEpoch + 3600 * 20 + 60 * 19 + 36), "20:19:36");
  EXPECT_EQ(cache.time_of_day(kDayStartEpoch + 3600 * 20 + 60 * 19 + 36), "20:19:36");
  EXPECT_EQ(cache.time_of_day(kDayStartEpoch + 5), "00:00:05");
  uint64_t mono = mono_ns_at(23, 59, 59, 999999);
  EXPECT_EQ(wall_clock(mono, kMonoToRealNs, &cache), wall_clock(mono, kMonoToRealNs));
  EXPECT_EQ(wall_clock(mono, kMonoToRealNs, &cache), "23:59:59.999999");
}

}  // namespace
}  // namespace retsnoop::test
