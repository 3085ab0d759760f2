#include "discovery/cu_index_cache.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

const std::string kId = "0a1b2c3d";

TEST(CuIndexCache, RendersWhatParsesBack) {
  const CuFunctions index{{"kernel/bpf/syscall.c", {"map_create", "__sys_bpf"}},
                          {"mm/empty.c", {}},
                          {"fs/open.c", {"do_sys_open"}}};
  std::string text = render_cu_index_cache(kId, index);
  EXPECT_TRUE(text.starts_with("retsnoop-cuidx 3 0a1b2c3d\nkernel/bpf/syscall.c\n\tmap_create\n"))
      << text;
  EXPECT_EQ(parse_cu_index_cache(text, kId), index);
  EXPECT_EQ(parse_cu_index_cache(render_cu_index_cache(kId, {}), kId), CuFunctions{});
}

TEST(CuIndexCache, RefusesAnotherBuildAndAnyChange) {
  std::string text = render_cu_index_cache(kId, {{"kernel/fork.c", {"copy_process"}}});
  EXPECT_EQ(parse_cu_index_cache(text, "0a1b2c3e"), std::nullopt);
  std::string renamed = text;
  renamed[renamed.find("copy") + 1] = 'a';
  for (const std::string& bad : {renamed, text.substr(0, text.size() - 1),
                                 text.substr(0, text.find("end ")), text + "\n", std::string()})
    EXPECT_EQ(parse_cu_index_cache(bad, kId), std::nullopt) << bad;
}

}  // namespace
}  // namespace retsnoop
