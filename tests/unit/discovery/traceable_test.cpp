#include "discovery/traceable.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

const std::string kTracefs = std::string(RS_FIXTURES_DIR) + "/discovery/tracefs";

TEST(Traceable, ParsesNamesAndModules) {
  auto list = parse_available_filter_functions("foo\nbar [kvm]\n\nbaz [kvm_intel]  \n");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].name, "foo");
  EXPECT_EQ(list[0].module, "");
  EXPECT_EQ(list[1].name, "bar");
  EXPECT_EQ(list[1].module, "kvm");
  EXPECT_EQ(list[2].module, "kvm_intel");
}

TEST(Traceable, SkipsInvalidAddressPlaceholders) {
  auto list = parse_available_filter_functions("__ftrace_invalid_address___64\nfoo\n");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].name, "foo");
}

TEST(Traceable, KeepsEveryCopyOfADuplicateName) {
  auto list = parse_available_filter_functions("dup\ndup\n");
  EXPECT_EQ(list.size(), 2u);
}

TEST(Traceable, ReadsTheFirstDirectoryThatHasTheFile) {
  auto list = read_traceable_functions({"/nonexistent/tracing", kTracefs});
  ASSERT_TRUE(list.has_value());
  EXPECT_EQ(list->funcs.size(), 19u);  // 20 lines minus the invalid-address placeholder
  EXPECT_EQ(list->funcs.front().name, "__x64_sys_bpf");
  EXPECT_EQ(list->funcs.back().name, "map_create");
  EXPECT_EQ(list->funcs.back().module, "kvm");
}

// The entries point into the list's own copy of the text, which moving the list keeps.
TEST(Traceable, EntriesStayValidWhenTheListMoves) {
  auto list = read_traceable_functions({kTracefs});
  ASSERT_TRUE(list.has_value());
  TraceableList moved = std::move(*list);
  EXPECT_EQ(moved.funcs.front().name, "__x64_sys_bpf");
  EXPECT_GE(moved.funcs.front().name.data(), moved.text->data());
  EXPECT_LT(moved.funcs.front().name.data(), moved.text->data() + moved.text->size());
}

TEST(Traceable, UnreadableEverywhereIsReportedToTheCaller) {
  EXPECT_FALSE(read_traceable_functions({"/nonexistent/a", "/nonexistent/b"}).has_value());
  EXPECT_FALSE(read_traceable_functions({}).has_value());
}

}  // namespace
}  // namespace retsnoop
