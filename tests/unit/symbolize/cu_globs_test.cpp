#include "discovery/cu_globs.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>

#include "fixture_util.h"
#include "util/file_text.h"

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
  EXPECT_EQ(index.functions_in_paths("fs/*"), (Names{"fs_check", "fs_entry", "fs_static_fn"}));
  EXPECT_EQ(index.functions_in_paths("*/fixture_?s.c"),
            (Names{"fs_check", "fs_entry", "fs_static_fn"}));
  EXPECT_EQ(index.functions_in_paths("include/*"), Names{});
  EXPECT_EQ(index.functions_in_paths("kernel/bpf"), Names{});
}

// A cache file as the index writes it: the trailer holds the counts and the CRC-32 of the rest.
std::string cache_text(const std::string& build_id, const std::string& body, size_t ncus,
                       size_t nfuncs) {
  std::string text = "retsnoop-cuidx 3 " + build_id + "\n" + body;
  char crc[16];
  std::snprintf(crc, sizeof(crc), "%08lx",
                crc32(0, reinterpret_cast<const Bytef*>(text.data()), text.size()));
  return text + "end " + std::to_string(ncus) + " " + std::to_string(nfuncs) + " " + crc + "\n";
}

const Names kDwarfKernelFuncs{"leaf_fn", "main", "outer_fn", "sink", "static_helper", "twice"};

TEST_F(CuGlobsTest, WritesCacheKeyedByBuildId) {
  CuGlobIndex index(image_, cache_.path());
  Names fresh = index.functions_in_paths("*");
  std::optional<std::string> text = read_text_file(cache_file());
  ASSERT_TRUE(text) << cache_file();
  EXPECT_TRUE(text->starts_with("retsnoop-cuidx 3 " + image_->build_id() + "\n"));
  EXPECT_EQ(CuGlobIndex(image_, cache_.path()).functions_in_paths("*"), fresh);
  // Nothing but the cache file is left behind (no temporary files).
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(cache_.path()), {}), 1);
}

TEST_F(CuGlobsTest, ReadsValidCacheInsteadOfDwarf) {
  cache_.write(image_->build_id() + ".cuidx",
               cache_text(image_->build_id(), "kernel/bpf/cached.c\n\tfrom_cache\n", 1, 1));
  EXPECT_EQ(CuGlobIndex(image_, cache_.path()).functions_in_paths("kernel/*"), Names{"from_cache"});
}

TEST_F(CuGlobsTest, IgnoresCacheOfOtherBuildOrWithWrongTrailer) {
  const std::string body = "kernel/bpf/cached.c\n\tfrom_cache\n";
  const std::string id = image_->build_id();
  const std::string good = cache_text(id, body, 1, 1);
  const std::string old_version =
      std::string("retsnoop-cuidx 2 ").append(id).append("\n").append(body).append("end 1 1\n");
  for (const std::string& bad : {cache_text("0123", body, 1, 1), cache_text(id, body, 1, 2),
                                 old_version, good + "\tlate\n"}) {
    cache_.write(image_->build_id() + ".cuidx", bad);
    EXPECT_EQ(CuGlobIndex(image_, cache_.path()).functions_in_paths("kernel/*"), kDwarfKernelFuncs)
        << bad;
    // Rebuilt from DWARF and rewritten.
    EXPECT_NE(read_text_file(cache_file()), bad);
  }
}

// Counts alone would not notice a changed name, nor a cut that ends on a line boundary.
TEST_F(CuGlobsTest, RebuildsTruncatedOrCorruptedCache) {
  CuGlobIndex(image_, cache_.path()).functions_in_paths("*");
  std::string written = *read_text_file(cache_file());
  std::string flipped = written;
  flipped[flipped.find("\tleaf_fn\n") + 4] ^= 1;
  std::string cut_at_line = written.substr(0, written.find("\tmain\n"));
  for (const std::string& bad : {flipped, cut_at_line, written.substr(0, written.size() - 1)}) {
    cache_.write(image_->build_id() + ".cuidx", bad);
    EXPECT_EQ(CuGlobIndex(image_, cache_.path()).functions_in_paths("kernel/*"), kDwarfKernelFuncs)
        << bad;
    EXPECT_EQ(read_text_file(cache_file()), written);
  }
}

}  // namespace
}  // namespace retsnoop
