#include "symbolize/user_symbolizer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <string>

#include "temp_dir.h"

namespace retsnoop {
namespace {

std::string fixture(const std::string& name) {
  return std::string(RS_TEST_BINARY_DIR) + "/fixtures/user_elf/" + name;
}

// The line of main's call to user_target in the fixture source.
int call_line() {
  std::ifstream in(std::string(RS_FIXTURES_DIR) + "/user_elf/user_target.c");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find("USER_TARGET_CALL_LINE") != std::string::npos) return n;
  return -1;
}

// The fixture program, running until destroyed, and the two addresses it printed.
class Target {
 public:
  explicit Target(const std::string& path) {
    int in[2], out[2];
    EXPECT_EQ(pipe2(in, O_CLOEXEC), 0);
    EXPECT_EQ(pipe2(out, O_CLOEXEC), 0);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      execl(path.c_str(), path.c_str(), nullptr);
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    stdin_ = in[1];
    FILE* f = fdopen(out[0], "r");
    EXPECT_EQ(std::fscanf(f, "%" SCNx64 " %" SCNx64, &func_, &ret_), 2);
    std::fclose(f);
  }
  ~Target() { exit(); }
  void exit() {
    if (exited_) return;
    close(stdin_);
    waitpid(pid_, nullptr, 0);
    exited_ = true;
  }
  uint32_t pid() const { return pid_; }
  uint64_t func() const { return func_; }  // user_target's start
  uint64_t ret() const { return ret_; }    // its return address in main

 private:
  pid_t pid_ = -1;
  bool exited_ = false;
  int stdin_ = -1;
  uint64_t func_ = 0, ret_ = 0;
};

TEST(UserSymbolizer, PieWithDwarfAfterTheProcessExited) {
  Target t(fixture("user_target"));
  ProcessSymbolizer sym;
  sym.record_process(t.pid());
  t.exit();
  UserFrame f = sym.symbolize(t.pid(), t.func(), false);
  EXPECT_TRUE(f.mapped);
  EXPECT_EQ(f.binary, fixture("user_target"));
  EXPECT_TRUE(f.sym.found);
  EXPECT_EQ(f.sym.name, "user_target");
  EXPECT_EQ(f.sym.offset, 0u);
  EXPECT_TRUE(f.sym.loc.file.ends_with("user_elf/user_target.c"));
  UserFrame r = sym.symbolize(t.pid(), t.ret(), true);
  EXPECT_EQ(r.sym.name, "main");
  EXPECT_GT(r.sym.offset, 0u);
  EXPECT_EQ(r.sym.loc.line, call_line());
}

TEST(UserSymbolizer, PieWithoutDwarfHasSymbolsOnly) {
  Target t(fixture("user_target-nodwarf"));
  ProcessSymbolizer sym;
  sym.record_process(t.pid());
  UserFrame r = sym.symbolize(t.pid(), t.ret(), true);
  EXPECT_EQ(r.sym.name, "main");
  EXPECT_FALSE(r.sym.loc.known());
}

TEST(UserSymbolizer, StrippedFileUsesTheDebugFileOfItsBuildId) {
  test::TempDir host_root;
  std::string stripped = fixture("user_target-stripped");
  OwnedFd fd(open(stripped.c_str(), O_RDONLY | O_CLOEXEC));
  std::string id = ElfFile(std::move(fd), {}).build_id();
  ASSERT_EQ(id.size(), 40u);
  host_root.copy_in("usr/lib/debug/.build-id/" + id.substr(0, 2) + "/" + id.substr(2) + ".debug",
                    fixture("user_target.debug"));

  Target t(stripped);
  ProcessSymbolizer without;
  without.record_process(t.pid());
  UserFrame bare = without.symbolize(t.pid(), t.ret(), true);
  EXPECT_TRUE(bare.mapped);
  EXPECT_FALSE(bare.sym.found);  // no symbol table left
  EXPECT_GT(bare.file_offset, 0u);

  ProcessSymbolizer with(host_root.path());
  with.record_process(t.pid());
  UserFrame r = with.symbolize(t.pid(), t.ret(), true);
  EXPECT_EQ(r.sym.name, "main");
  EXPECT_EQ(r.sym.loc.line, call_line());
}

TEST(UserSymbolizer, UnknownProcessOrAddress) {
  ProcessSymbolizer sym;
  EXPECT_FALSE(sym.symbolize(1u << 30, 0x1000, false).mapped);
  sym.record_process(getpid());
  UserFrame f = sym.symbolize(getpid(), 0x10, false);  // never mapped
  EXPECT_FALSE(f.mapped);
  EXPECT_FALSE(f.sym.found);
}

}  // namespace
}  // namespace retsnoop
