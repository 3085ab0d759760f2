#include "discovery/vmlinux.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

#include "fixture_util.h"
#include "util/error.h"

namespace retsnoop {
namespace {

using test::fixture_image;
using test::kallsyms_of_image;
using test::kFakeKaslr;
using test::TempDir;

constexpr char kRelease[] = "6.1.0-test";

std::string note(uint32_t type, const std::string& name, const std::string& desc) {
  auto pad = [](std::string s) { return s.append((4 - s.size() % 4) % 4, '\0'); };
  uint32_t hdr[3] = {static_cast<uint32_t>(name.size()), static_cast<uint32_t>(desc.size()), type};
  return std::string(reinterpret_cast<const char*>(hdr), sizeof(hdr)) + pad(name) + pad(desc);
}

// /sys/kernel/notes content of a kernel with this build id, after a Xen note like Debian's.
std::string kernel_notes(const std::string& hex_id) {
  std::string id;
  for (size_t i = 0; i + 1 < hex_id.size(); i += 2)
    id += char(std::stoi(hex_id.substr(i, 2), 0, 16));
  return note(6, std::string("Xen\0", 4), std::string("linux\0", 6)) +
         note(3, std::string("GNU\0", 4), id);
}

std::string build_id_of(const std::string& image) {
  return Vmlinux::open(fixture_image(image))->build_id();
}

UserError user_error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const UserError& e) {
    return e;
  }
  ADD_FAILURE() << "no UserError thrown";
  return UserError("");
}

void expect_user_error(const std::function<void()>& fn, const std::string& needle) {
  std::string msg = user_error_of(fn).what();
  EXPECT_NE(msg.find(needle), std::string::npos) << msg;
}

TEST(KernelTreePath, StripsToTreeRoot) {
  EXPECT_EQ(kernel_tree_path("kernel/bpf/syscall.c", "debian/build/x"), "kernel/bpf/syscall.c");
  EXPECT_EQ(kernel_tree_path("/src/linux/mm/slab.c", "/src/linux"), "mm/slab.c");
  EXPECT_EQ(kernel_tree_path("./include/linux/bpf.h", "/src/linux"), "include/linux/bpf.h");
  EXPECT_EQ(kernel_tree_path("../../include/linux/bpf.h", "/o"), "include/linux/bpf.h");
  // Debian: assembly CUs carry the absolute source path, comp_dir is the build directory.
  EXPECT_EQ(kernel_tree_path("/build/reproducible-path/linux-6.1.192/arch/x86/entry/entry_64.S",
                             "/build/reproducible-path/linux-6.1.192/debian/build/build_amd64"),
            "arch/x86/entry/entry_64.S");
  EXPECT_EQ(kernel_tree_path("debian/build/build_amd64/include/generated/autoconf.h",
                             "debian/build/build_amd64"),
            "include/generated/autoconf.h");
  EXPECT_EQ(kernel_tree_path("/opt/gcc/stddef.h", "/src/linux"), "/opt/gcc/stddef.h");
}

TEST(BuildIdFromNotes, FindsGnuNoteAfterOthers) {
  EXPECT_EQ(build_id_from_notes(kernel_notes("0a1b2c")), "0a1b2c");
  EXPECT_EQ(build_id_from_notes(note(6, std::string("Xen\0", 4), "abcd")), "");
  std::string truncated = kernel_notes("0a1b2c");
  EXPECT_EQ(build_id_from_notes(truncated.substr(0, truncated.size() - 4)), "");
}

TEST(VmlinuxCandidates, StandardSearchOrder) {
  EXPECT_EQ(vmlinux_candidates("/r", "5.x"),
            (std::vector<std::string>{
                "/r/boot/vmlinux-5.x", "/r/lib/modules/5.x/vmlinux-5.x",
                "/r/lib/modules/5.x/build/vmlinux", "/r/usr/lib/modules/5.x/kernel/vmlinux",
                "/r/usr/lib/debug/boot/vmlinux-5.x", "/r/usr/lib/debug/boot/vmlinux-5.x.debug",
                "/r/usr/lib/debug/lib/modules/5.x/vmlinux"}));
}

TEST(VmlinuxOpen, ReadsBuildIdAndText) {
  auto image = Vmlinux::open(fixture_image("vmlinux"));
  EXPECT_EQ(image->build_id().size(), 40u);
  EXPECT_NE(image->build_id(), build_id_of("vmlinux-other"));
  EXPECT_NE(image->text_start(), 0u);
  EXPECT_NE(image->dwarf(), nullptr);
}

TEST(VmlinuxOpen, RejectsNonElfNamingIt) {
  TempDir dir;
  std::string path = dir.write("vmlinuz", "not an ELF image\n");
  expect_user_error([&] { Vmlinux::open(path); }, "'" + path + "' is not an ELF file");
}

TEST(VmlinuxOpen, RejectsElfWithoutDwarfNamingIt) {
  std::string path = fixture_image("vmlinux-nodwarf");
  expect_user_error([&] { Vmlinux::open(path); }, "'" + path + "' has no DWARF");
}

TEST(VmlinuxOpen, RejectsMissingFile) {
  expect_user_error([] { Vmlinux::open("/nonexistent/vmlinux"); }, "/nonexistent/vmlinux");
}

// -k /dev/zero would map a device as an ELF image, and a FIFO would block the open.
TEST(VmlinuxOpen, RejectsDevicesFifosAndDirectories) {
  EXPECT_STREQ(user_error_of([] { Vmlinux::open("/dev/zero"); }).what(),
               "cannot open vmlinux '/dev/zero': a character device, not a regular file");
  TempDir dir;
  std::string fifo = dir.path() + "/vmlinux.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(user_error_of([&] { Vmlinux::open(fifo); }).what(),
            "cannot open vmlinux '" + fifo + "': a FIFO, not a regular file");
  EXPECT_EQ(user_error_of([&] { Vmlinux::open(dir.path()); }).what(),
            "cannot open vmlinux '" + dir.path() + "': a directory, not a regular file");
}

struct LoadCase {
  std::string kernel_path;
  bool required = false;
};

std::optional<LoadedVmlinux> load(const TempDir& root, const Kallsyms& ksyms, const LoadCase& c) {
  return load_vmlinux({c.kernel_path, c.required, root.path(), kRelease}, ksyms);
}

TEST(LoadVmlinux, ExplicitPathWithMatchingBuildId) {
  TempDir root;
  root.write("sys/kernel/notes", kernel_notes(build_id_of("vmlinux")));
  auto loaded = load(root, kallsyms_of_image("vmlinux"), {fixture_image("vmlinux")});
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->kaslr_offset, kFakeKaslr);
  EXPECT_EQ(loaded->image->path(), fixture_image("vmlinux"));
}

TEST(LoadVmlinux, OtherBuildIdIsIgnoredOrFatalWhenRequired) {
  TempDir root;
  root.write("sys/kernel/notes", kernel_notes(build_id_of("vmlinux-other")));
  Kallsyms ksyms = kallsyms_of_image("vmlinux-other");
  EXPECT_FALSE(load(root, ksyms, {fixture_image("vmlinux")}));
  expect_user_error(
      [&] {
        load(root, ksyms, {fixture_image("vmlinux"), true});
      },
      "does not match the running kernel");
}

TEST(LoadVmlinux, WithoutKernelNotesComparesSymbolAddresses) {
  TempDir root;  // no sys/kernel/notes
  ASSERT_NE(test::symbol_addr(*Vmlinux::open(fixture_image("vmlinux")), "leaf_fn"),
            test::symbol_addr(*Vmlinux::open(fixture_image("vmlinux-other")), "leaf_fn"))
      << "the other build must move functions";
  EXPECT_TRUE(load(root, kallsyms_of_image("vmlinux"), {fixture_image("vmlinux")}));
  EXPECT_FALSE(load(root, kallsyms_of_image("vmlinux-other"), {fixture_image("vmlinux")}));
}

TEST(LoadVmlinux, ExplicitBadFilesAreFatal) {
  TempDir root;
  std::string text = root.write("notelf", "hello\n");
  Kallsyms ksyms = kallsyms_of_image("vmlinux");
  expect_user_error([&] { load(root, ksyms, {text}); }, text);
  expect_user_error([&] { load(root, ksyms, {fixture_image("vmlinux-nodwarf")}); },
                    fixture_image("vmlinux-nodwarf"));
}

TEST(LoadVmlinux, SearchSkipsUnusableCandidates) {
  TempDir root;
  root.write(std::string("boot/vmlinux-") + kRelease, "compressed, not ELF");
  root.copy_in(std::string("lib/modules/") + kRelease + "/build/vmlinux",
               fixture_image("vmlinux-other"));
  std::string good =
      root.copy_in(std::string("usr/lib/debug/boot/vmlinux-") + kRelease, fixture_image("vmlinux"));
  root.write("sys/kernel/notes", kernel_notes(build_id_of("vmlinux")));
  auto loaded = load(root, kallsyms_of_image("vmlinux"), {});
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->image->path(), good);
}

// /lib/modules/R/build links to a developer's tree: what they own never reaches libdw as root.
TEST(LoadVmlinux, CandidatesOtherUsersControlAreSkippedAndFatalWithK) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  TempDir root;
  std::string tree = root.path() + "/home/dev/linux";
  std::string theirs = root.copy_in("home/dev/linux/vmlinux", fixture_image("vmlinux"));
  ASSERT_EQ(chown((root.path() + "/home/dev").c_str(), 1000, 1000), 0);
  std::filesystem::create_directories(root.path() + "/lib/modules/" + kRelease);
  std::filesystem::create_directory_symlink(tree,
                                            root.path() + "/lib/modules/" + kRelease + "/build");
  root.write("sys/kernel/notes", kernel_notes(build_id_of("vmlinux")));
  Kallsyms ksyms = kallsyms_of_image("vmlinux");
  EXPECT_FALSE(load(root, ksyms, {}));
  std::string good =
      root.copy_in(std::string("usr/lib/debug/boot/vmlinux-") + kRelease, fixture_image("vmlinux"));
  auto loaded = load(root, ksyms, {});
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->image->path(), good);
  expect_user_error(
      [&] { load(root, ksyms, {root.path() + "/lib/modules/" + kRelease + "/build/vmlinux"}); },
      "not trusted, '" + root.path() + "/home/dev' belongs to uid 1000, not root");
  // Root's file in a directory its group may write is refused all the same.
  ASSERT_EQ(chown((root.path() + "/home/dev").c_str(), 0, 0), 0);
  ASSERT_EQ(chmod(tree.c_str(), 0775), 0);
  expect_user_error([&] { load(root, ksyms, {theirs}); },
                    "'" + tree + "' is writable by its group");
}

TEST(LoadVmlinux, NotFoundIsSilentUnlessRequired) {
  TempDir root;
  Kallsyms ksyms = kallsyms_of_image("vmlinux");
  EXPECT_FALSE(load(root, ksyms, {}));
  UserError err = user_error_of([&] { load(root, ksyms, {"", true}); });
  EXPECT_NE(std::string(err.what()).find(kRelease), std::string::npos) << err.what();
  EXPECT_NE(err.hint().find("-k PATH"), std::string::npos) << err.hint();
}

}  // namespace
}  // namespace retsnoop
