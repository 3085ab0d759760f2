#include "format/stack_layout.h"

#include <gtest/gtest.h>

#include "example_sessions.h"
#include "format/result_format.h"
#include "format/stack_view.h"
#include "view_text.h"

namespace retsnoop::test {
namespace {

struct Cached {
  ExampleCase c = percpu_array_case();
  FormatOptions opts;
  FormatCache cache;
  FormatContext ctx{c.funcs.table, c.symbolizer, opts,    nullptr,
                    kNoProbes,     nullptr,      nullptr, &cache};
};

TEST(StackLayout, RowsPointAtTheirCallsAndMarks) {
  Cached t;
  StackLayout layout = make_stack_layout(t.c.session, t.ctx);
  size_t with_call = 0, stitched = 0;
  for (const LayoutRow& row : layout.rows) {
    ASSERT_NE(row.text, nullptr);
    if (row.call < 0) continue;
    ++with_call;
    ASSERT_LT(size_t(row.call), t.c.session.calls.size());
    if (t.c.session.calls[size_t(row.call)].stitched) {
      ++stitched;
      EXPECT_EQ(row.marks[1], '*');
    }
  }
  EXPECT_EQ(with_call, t.c.session.calls.size());
  EXPECT_EQ(stitched, 1u);
}

// Durations and results are not part of the shape: a session that differs in them alone reuses
// the layout, and still prints its own values.
TEST(StackLayoutCache, SameShapeReusesTheLayout) {
  Cached t;
  auto first = stack_layout(t.c.session, t.ctx);
  std::string first_text = stack_text(t.c.session, t.ctx);
  Session other = t.c.session;
  other.calls[0].dur_ns = 9999999;
  other.calls[0].res = -22;
  other.calls[1].running = true;
  EXPECT_EQ(stack_layout(other, t.ctx), first);
  EXPECT_EQ(t.cache.layouts().size(), 1u);
  FormatContext plain{t.c.funcs.table, t.c.symbolizer, t.opts};
  EXPECT_EQ(stack_text(other, t.ctx), stack_text(other, plain));
  EXPECT_NE(stack_text(other, t.ctx), first_text);
}

TEST(StackLayoutCache, OtherStackOrChainIsAnotherShape) {
  Cached t;
  auto first = stack_layout(t.c.session, t.ctx);
  Session shorter = t.c.session;
  shorter.kstack.pop_back();
  Session unstitched = t.c.session;
  unstitched.calls[3].stitched = false;
  Session other_func = t.c.session;
  other_func.calls[2].func_id = other_func.calls[3].func_id;
  for (const Session& s : {shorter, unstitched, other_func}) {
    EXPECT_NE(stack_layout(s, t.ctx), first);
    FormatContext plain{t.c.funcs.table, t.c.symbolizer, t.opts};
    EXPECT_EQ(stack_text(s, t.ctx), stack_text(s, plain));
  }
  EXPECT_EQ(t.cache.layouts().size(), 4u);
}

TEST(StackLayoutCache, StartsOverWhenFullAndKeepsHandedOutLayoutsValid) {
  Cached t;
  StackLayoutCache cache(2);
  auto first = cache.layout(t.c.session, t.ctx);
  Session s = t.c.session;
  for (int i = 0; i < 2; ++i) {
    s.kstack.pop_back();
    cache.layout(s, t.ctx);
  }
  EXPECT_EQ(cache.size(), 1u);
  ASSERT_FALSE(first->rows.empty());
  EXPECT_FALSE(first->rows[0].text->symbol.empty());
}

TEST(FormatCache, ResultTextsMatchFormatResult) {
  FormatCache cache;
  for (int round = 0; round < 2; ++round)
    for (RetKind kind :
         {RetKind::Int32, RetKind::Int64, RetKind::Ptr, RetKind::Unsigned, RetKind::Bool})
      for (int64_t res : {int64_t(-22), int64_t(-12), int64_t(0), int64_t(1), int64_t(0xfffffff4)})
        EXPECT_EQ(cache.result(res, kind), format_result(res, kind));
}

}  // namespace
}  // namespace retsnoop::test
