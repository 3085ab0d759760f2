#include "discovery/glob_spec.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discovery/fixtures_dir.h"
#include "temp_dir.h"
#include "util/error.h"
#include "util/regular_file.h"

namespace retsnoop {
namespace {

std::string glob_error_of(std::string_view text) {
  try {
    parse_glob(text);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

std::string args_error_of(const std::vector<std::string>& typed) {
  try {
    parse_glob_args(typed);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(ParseGlob, NameGlob) {
  GlobSpec g = parse_glob("*_sys_bpf");
  EXPECT_EQ(g.kind, GlobKind::Name);
  EXPECT_EQ(g.pattern, "*_sys_bpf");
  EXPECT_EQ(g.module_glob, "");
  EXPECT_EQ(g.text, "*_sys_bpf");
}

TEST(ParseGlob, NameWithModuleGlob) {
  GlobSpec g = parse_glob("*_read_* [*kvm*]");
  EXPECT_EQ(g.kind, GlobKind::Name);
  EXPECT_EQ(g.pattern, "*_read_*");
  EXPECT_EQ(g.module_glob, "*kvm*");
  EXPECT_EQ(g.text, "*_read_* [*kvm*]");
}

TEST(ParseGlob, ModuleGlobWithoutSpaceAndWithPadding) {
  GlobSpec g = parse_glob("foo[ kvm ]");
  EXPECT_EQ(g.pattern, "foo");
  EXPECT_EQ(g.module_glob, "kvm");
}

TEST(ParseGlob, ModuleDashesBecomeUnderscoresAsInKallsyms) {
  EXPECT_EQ(parse_glob("* [kvm-intel]").module_glob, "kvm_intel");
}

TEST(ParseGlob, PathGlob) {
  GlobSpec g = parse_glob(":kernel/bpf/*.c");
  EXPECT_EQ(g.kind, GlobKind::Path);
  EXPECT_EQ(g.pattern, "kernel/bpf/*.c");
  EXPECT_EQ(g.text, ":kernel/bpf/*.c");
}

TEST(ParseGlob, ErrorsNameTheGlob) {
  EXPECT_EQ(glob_error_of(""), "Invalid glob '': empty glob");
  EXPECT_EQ(glob_error_of("   "), "Invalid glob '   ': empty glob");
  EXPECT_EQ(glob_error_of("foo**"), "Invalid glob 'foo**': '**' is not supported, use '*'");
  EXPECT_EQ(glob_error_of("foo [kvm"), "Invalid glob 'foo [kvm': unterminated '['");
  EXPECT_EQ(glob_error_of("foo [kvm] x"), "Invalid glob 'foo [kvm] x': unexpected text after ']'");
  EXPECT_EQ(glob_error_of("foo []"), "Invalid glob 'foo []': empty module glob");
  EXPECT_EQ(glob_error_of("[kvm]"), "Invalid glob '[kvm]': empty function glob");
  EXPECT_EQ(glob_error_of("* [**]"), "Invalid glob '* [**]': '**' is not supported, use '*'");
  EXPECT_EQ(glob_error_of(":"), "Invalid glob ':': empty source path glob");
  EXPECT_EQ(glob_error_of(":kernel/**"),
            "Invalid glob ':kernel/**': '**' is not supported, use '*'");
  EXPECT_EQ(glob_error_of(":kernel/a b.c"),
            "Invalid glob ':kernel/a b.c': source path contains whitespace");
}

TEST(ParseGlob, RejectsCharactersNoKernelSymbolHas) {
  EXPECT_EQ(glob_error_of("foo()"),
            "Invalid glob 'foo()': character '(' can never match a kernel function name");
  EXPECT_EQ(glob_error_of("foo bar"),
            "Invalid glob 'foo bar': character ' ' can never match a kernel function name");
  EXPECT_EQ(glob_error_of("foo [kvm.ko]"),
            "Invalid glob 'foo [kvm.ko]': character '.' can never match a module name");
}

TEST(ParseGlobArgs, ExpandsAtFileInPlace) {
  std::vector<GlobSpec> globs = parse_glob_args({"first", "@" + kFixtures + "globs.txt", "last"});
  ASSERT_EQ(globs.size(), 6u);
  EXPECT_EQ(globs[0].pattern, "first");
  EXPECT_EQ(globs[1].pattern, "map_create");
  EXPECT_EQ(globs[2].pattern, "array_map_*");
  // "kvm_* [kvm]" spans two whitespace-separated tokens in the file.
  EXPECT_EQ(globs[3].pattern, "kvm_*");
  EXPECT_EQ(globs[3].module_glob, "kvm");
  EXPECT_EQ(globs[4].pattern, "vmx_*");
  EXPECT_EQ(globs[4].module_glob, "kvm_intel");
  EXPECT_EQ(globs[5].pattern, "last");
}

TEST(ParseGlobArgs, FileErrorsNameTheFileAndTheGlob) {
  EXPECT_EQ(args_error_of({"@/nonexistent/globs.txt"}),
            "cannot read glob file '/nonexistent/globs.txt': No such file or directory");
  EXPECT_EQ(args_error_of({"@"}), "Invalid glob '@': missing file name after '@'");
  EXPECT_EQ(args_error_of({"@" + kFixtures + "globs_bad.txt"}),
            "Invalid glob 'bad**': '**' is not supported, use '*'");
  EXPECT_EQ(args_error_of({"@" + kFixtures + "globs_nested.txt"}),
            "Invalid glob '@globs.txt': nested @FILE in '" + kFixtures +
                "globs_nested.txt' is not supported");
}

// -a @/dev/zero used to read until memory ran out; a FIFO would block the open.
TEST(ParseGlobArgs, FileMustBeARegularFileOfBoundedSize) {
  EXPECT_EQ(args_error_of({"@/dev/zero"}),
            "cannot read glob file '/dev/zero': a character device, not a regular file");
  test::TempDir dir;
  std::string fifo = dir.path() + "/globs.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(args_error_of({"@" + fifo}),
            "cannot read glob file '" + fifo + "': a FIFO, not a regular file");
  std::string huge = dir.write("huge.txt", "foo\n");
  ASSERT_EQ(truncate(huge.c_str(), kMaxListFileSize + 1), 0);
  EXPECT_EQ(args_error_of({"@" + huge}),
            "cannot read glob file '" + huge + "': larger than 16 MiB");
}

TEST(ParseGlob, UserGlobTakesTheBinaryBeforeTheLastColon) {
  GlobSpec g = parse_glob("/usr/lib/libbpf.so.1:bpf_object__*");
  EXPECT_EQ(g.kind, GlobKind::User);
  EXPECT_EQ(g.binary, "/usr/lib/libbpf.so.1");
  EXPECT_EQ(g.pattern, "bpf_object__*");
  GlobSpec lib = parse_glob("libsimfail.so:sf_*");
  EXPECT_EQ(lib.kind, GlobKind::User);
  EXPECT_EQ(lib.binary, "libsimfail.so");
  EXPECT_EQ(parse_glob("/a:b/x:main").binary, "/a:b/x");
  // Neither a path glob nor a module glob is read as one.
  EXPECT_EQ(parse_glob(":kernel/bpf/*").kind, GlobKind::Path);
  EXPECT_EQ(parse_glob("foo [kvm]").kind, GlobKind::Name);
}

TEST(ParseGlob, BadUserGlobs) {
  EXPECT_EQ(glob_error_of("/bin/x:"), "Invalid glob '/bin/x:': empty function glob");
  EXPECT_EQ(glob_error_of("lib/x.so:f"),
            "Invalid glob 'lib/x.so:f': a binary's path must be absolute");
  EXPECT_EQ(glob_error_of("/lib/*.so:f"),
            "Invalid glob '/lib/*.so:f': the binary must be a path or a library name, not a glob");
  EXPECT_EQ(glob_error_of("/bin/x:a-b"),
            "Invalid glob '/bin/x:a-b': character '-' can never match a function name");
}

}  // namespace
}  // namespace retsnoop
