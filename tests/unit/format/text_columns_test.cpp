#include "format/text_columns.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

TEST(TextColumns, MultiByteArrowsTakeOneColumn) {
  EXPECT_EQ(display_width("→ f"), 3u);
  EXPECT_EQ(display_width("    ↔ bpf_ksym_add"), 18u);
  EXPECT_EQ(display_width(""), 0u);
}

TEST(TextColumns, PaddingCountsColumnsNotBytes) {
  EXPECT_EQ(pad_right("← f", 5), "← f  ");
  EXPECT_EQ(pad_left("1.5us", 9), "    1.5us");
  EXPECT_EQ(pad_right("too wide", 3), "too wide");
  EXPECT_EQ(pad_left("too wide", 3), "too wide");
}

}  // namespace
}  // namespace retsnoop
