#include "discovery/ld_cache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "temp_dir.h"

namespace retsnoop {
namespace {

#if defined(__x86_64__)
constexpr uint32_t kHostFlags = 0x0303;
#else
constexpr uint32_t kHostFlags = 0x0a03;
#endif
constexpr uint32_t kOtherFlags = 0x0003;  // a 32-bit library: never ours

template <typename T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof(v));
}

struct Lib {
  uint32_t flags;
  std::string name, path;
};

// The current layout as ldconfig writes it: header, entries, then the strings.
std::string new_cache(const std::vector<Lib>& libs) {
  std::string head = "glibc-ld.so.cache1.1", strings;
  size_t strings_at = 48 + 24 * libs.size();
  std::string entries;
  for (const Lib& l : libs) {
    put<uint32_t>(entries, l.flags);
    put<uint32_t>(entries, uint32_t(strings_at + strings.size()));
    strings += l.name + '\0';
    put<uint32_t>(entries, uint32_t(strings_at + strings.size()));
    strings += l.path + '\0';
    put<uint32_t>(entries, 0);
    put<uint64_t>(entries, 0);
  }
  put<uint32_t>(head, uint32_t(libs.size()));
  put<uint32_t>(head, uint32_t(strings.size()));
  head.append(48 - head.size(), '\0');
  return head + entries + strings;
}

TEST(LdCache, ParsesTheHostsEntries) {
  auto e = parse_ld_cache(new_cache({{kHostFlags, "libc.so.6", "/lib/x/libc.so.6"},
                                     {kOtherFlags, "libm.so.6", "/lib32/libm.so.6"},
                                     {kHostFlags, "libbpf.so.1", "/usr/lib/libbpf.so.1"}}));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].name, "libc.so.6");
  EXPECT_EQ(e[0].path, "/lib/x/libc.so.6");
  EXPECT_EQ(e[1].path, "/usr/lib/libbpf.so.1");
}

TEST(LdCache, OldLayoutThenNew) {
  std::string old = "ld.so-1.7.0";
  old.append(1, '\0');
  put<uint32_t>(old, 1);
  old.append(12, '\0');  // one old entry
  old.append(4, '\0');   // to 8-byte alignment
  auto e = parse_ld_cache(old + new_cache({{kHostFlags, "libz.so.1", "/lib/libz.so.1"}}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].path, "/lib/libz.so.1");
}

TEST(LdCache, HostileContentEndsTheList) {
  std::string c = new_cache({{kHostFlags, "a.so", "/a.so"}, {kHostFlags, "b.so", "/b.so"}});
  // A count past the content is cut to the entries that fit.
  std::string big = c;
  uint32_t huge = 0xffffffff;
  std::memcpy(big.data() + 20, &huge, 4);
  EXPECT_EQ(parse_ld_cache(big).size(), 2u);
  // A string offset past the end, and a string without its NUL, stop there.
  std::string bad_off = c;
  std::memcpy(bad_off.data() + 48 + 24 + 4, &huge, 4);
  EXPECT_EQ(parse_ld_cache(bad_off).size(), 1u);
  std::string cut = c.substr(0, c.size() - 1);
  EXPECT_EQ(parse_ld_cache(cut).size(), 1u);
  // Truncated headers, garbage, nothing.
  for (size_t n = 0; n < 60; ++n) parse_ld_cache(c.substr(0, n));
  EXPECT_TRUE(parse_ld_cache("ld.so-1.7.0").empty());
  EXPECT_TRUE(parse_ld_cache(std::string(100, '\xff')).empty());
  EXPECT_TRUE(parse_ld_cache("").empty());
}

TEST(LdCache, ResolvesByCacheThenDirectories) {
  test::TempDir dir;
  std::string cache =
      dir.write("ld.so.cache", new_cache({{kHostFlags, "liba.so.1", "/x/liba.so.1"}}));
  std::string lib = dir.write("lib/libb.so.2", "not read");
  LibraryLookup lookup{.cache_path = cache, .dirs = {dir.path() + "/none", dir.path() + "/lib"}};
  EXPECT_EQ(resolve_library("liba.so.1", lookup), "/x/liba.so.1");
  EXPECT_EQ(resolve_library("libb.so.2", lookup), lib);
  EXPECT_EQ(resolve_library("libc.so.99", lookup), std::nullopt);
  lookup.cache_path = dir.path() + "/missing";
  EXPECT_EQ(resolve_library("libb.so.2", lookup), lib);
}

// The loader's order: what the process maps, then the run paths and LD_LIBRARY_PATH, then the
// cache, then the trusted directories.
TEST(LdCache, MappedFilesThenFirstDirectoriesComeFirst) {
  test::TempDir dir;
  std::string cache =
      dir.write("ld.so.cache", new_cache({{kHostFlags, "liba.so.1", "/x/liba.so.1"}}));
  std::string first = dir.write("first/liba.so.1", "not read");
  LibraryLookup lookup{
      .first_dirs = {dir.path() + "/none", dir.path() + "/first"}, .cache_path = cache, .dirs = {}};
  EXPECT_EQ(resolve_library("liba.so.1", lookup), first);
  lookup.mapped = {"/usr/lib/libz.so.1.3", "/proc/7/root/opt/liba.so.1.2.0", "/opt/liba.so.1"};
  EXPECT_EQ(resolve_library("liba.so.1", lookup), "/proc/7/root/opt/liba.so.1.2.0");
  EXPECT_EQ(resolve_library("libz.so", lookup), "/usr/lib/libz.so.1.3");
  // A longer name is another library: liba.so.10 is not liba.so.1.
  lookup.mapped = {"/opt/liba.so.10", "/opt/xliba.so.1"};
  EXPECT_EQ(resolve_library("liba.so.1", lookup), first);
}

}  // namespace
}  // namespace retsnoop
