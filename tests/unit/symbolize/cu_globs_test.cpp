#include "discovery/cu_globs.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "discovery/file_text.h"
#include "fixture_util.h"

namespace retsnoop {
namespace {

using test::fixture_image;
using test::TempDir;
using Names = std::vector<std::string>;

class CuGlobsTest : public ::testing::Test {
 protected:
  std::shared_ptr<Vmlinux> image_ = Vmlinux::open(fixture_image("vmlinux"));
  TempDir cache_;

  std::string cache_file() const { return cache_.path() + "/" + image_->build_id() + ".cuidx"; }
};

TEST_F(CuGlobsTest, CompileUnitPathsAreTreeRelative) {
  CuFunctions cus = scan_compile_units(*image_);
  Names paths;
  for (const auto& [path, funcs] : cus) paths.push_back(path);
  // fixture_main.c is compiled by relative path, fixture_fs.c by absolute path under comp_dir.
  EXPECT_EQ(paths, (Names{"kernel/bpf/fixture_main.c", "fs/fixture_fs.c"}));
}

TEST_F(CuGlobsTest, FunctionsWithCodeInMatchingUnits) {
  CuGlobIndex index(image_, "");
  // Static functions and the out-of-line copy of inline twice() count; always-inlined functions
  // have no code of their own, and the declared-only fs_entry lives in the other unit.
  EXPECT_EQ(index.functions_in_paths("kernel/bpf/*.c"),
            (Names{"leaf_fn", "main", "outer_fn", "sink", "static_helper", "twice"}));
  EXPECT_EQ(index.functions_in_paths("fs/*"), (Names{"fs_entry", "fs_static_fn"}));
  EXPECT_EQ(index.functions_in_paths("*/fixture_?s.c"), (Names{"fs_entry", "fs_static_fn"}));
  EXPECT_EQ(index.functions_in_paths("include/*"), Names{});
  EXPECT_EQ(index.functions_in_paths("kernel/bpf"), Names{});
}

TEST_F(CuGlobsTest, WritesCacheKeyedByBuildId) {
  CuGlobIndex index(image_, cache_.path());
  Names fresh = index.functions_in_paths("*");
  std::optional<std::string> text = read_text_file(cache_file());
  ASSERT_TRUE(text) << cache_file();
  EXPECT_TRUE(text->starts_with("retsnoop-cuidx 2 " + image_->build_id() + "\n"));
  EXPECT_EQ(CuGlobIndex(image_, cache_.path()).functions_in_paths("*"), fresh);
  // Nothing but the cache file is left behind (no temporary files).
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(cache_.path()), {}), 1);
}

TEST_F(CuGlobsTest, ReadsValidCacheInsteadOfDwarf) {
  cache_.write(image_->build_id() + ".cuidx", "retsnoop-cuidx 2 " + image_->build_id() +
                                                  "\nkernel/bpf/cached.c\n\tfrom_cache\nend 1 1\n");
  EXPECT_EQ(CuGlobIndex(image_, cache_.path()).functions_in_paths("kernel/*"), Names{"from_cache"});
}

TEST_F(CuGlobsTest, IgnoresCacheOfOtherBuildOrIncomplete) {
  const std::string body = "\nkernel/bpf/cached.c\n\tfrom_cache\n";
  for (const std::string& bad : {"retsnoop-cuidx 2 0123" + body + "end 1 1\n",
                                 "retsnoop-cuidx 2 " + image_->build_id() + body,
                                 "retsnoop-cuidx 2 " + image_->build_id() + body + "end 1 2\n"}) {
    cache_.write(image_->build_id() + ".cuidx", bad);
    EXPECT_EQ(CuGlobIndex(image_, cache_.path()).functions_in_paths("kernel/*"),
              (Names{"leaf_fn", "main", "outer_fn", "sink", "static_helper", "twice"}))
        << bad;
    // Rebuilt from DWARF and rewritten.
    EXPECT_NE(read_text_file(cache_file()), bad);
  }
}

}  // namespace
}  // namespace retsnoop
