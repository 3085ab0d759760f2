#include "symbolize/user_symbolizer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>

#include "symbolize/process_start.h"
#include "temp_dir.h"
#include "worker_test_util.h"

namespace retsnoop {
namespace {

std::string fixture(const std::string& name) {
  return std::string(RS_TEST_BINARY_DIR) + "/fixtures/user_elf/" + name;
}

// The line of the fixture source file that carries marker.
int marked_line(const std::string& file, const std::string& marker) {
  std::ifstream in(std::string(RS_FIXTURES_DIR) + "/user_elf/" + file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(marker) != std::string::npos) return n;
  return -1;
}

// The line of main's call to user_target in the fixture source.
int call_line() { return marked_line("user_target.c", "USER_TARGET_CALL_LINE"); }

// A fixture program, running until destroyed, and the two addresses it printed: a function's
// start and its return address.
class Target {
 public:
  explicit Target(const std::string& path, const std::string& arg = "") {
    int in[2], out[2];
    EXPECT_EQ(pipe2(in, O_CLOEXEC), 0);
    EXPECT_EQ(pipe2(out, O_CLOEXEC), 0);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      if (arg.empty())
        execl(path.c_str(), path.c_str(), nullptr);
      else
        execl(path.c_str(), path.c_str(), arg.c_str(), nullptr);
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    stdin_ = in[1];
    out_ = fdopen(out[0], "r");
    read_addresses();
  }
  ~Target() {
    exit();
    std::fclose(out_);
  }
  // The fixture execs its argument, which prints its own addresses.
  void exec_argument() {
    EXPECT_EQ(write(stdin_, "e", 1), 1);
    read_addresses();
  }
  void exit() {
    if (exited_) return;
    close(stdin_);
    waitpid(pid_, nullptr, 0);
    exited_ = true;
  }
  uint32_t pid() const { return pid_; }
  uint64_t func() const { return func_; }  // the printing function's start
  uint64_t ret() const { return ret_; }    // its return address

 private:
  void read_addresses() { EXPECT_EQ(std::fscanf(out_, "%" SCNx64 " %" SCNx64, &func_, &ret_), 2); }

  pid_t pid_ = -1;
  bool exited_ = false;
  int stdin_ = -1;
  FILE* out_ = nullptr;
  uint64_t func_ = 0, ret_ = 0;
};

TEST(UserSymbolizer, PieWithDwarfAfterTheProcessExited) {
  Target t(fixture("user_target"));
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(t.pid(), 0);
  t.exit();
  UserFrame f = sym.symbolize(t.pid(), 1, t.func(), false);
  EXPECT_TRUE(f.mapped);
  EXPECT_EQ(f.binary, fixture("user_target"));
  EXPECT_TRUE(f.sym.found);
  EXPECT_EQ(f.sym.name, "user_target");
  EXPECT_EQ(f.sym.offset, 0u);
  EXPECT_TRUE(f.sym.loc.file.ends_with("user_elf/user_target.c"));
  UserFrame r = sym.symbolize(t.pid(), 1, t.ret(), true);
  EXPECT_EQ(r.sym.name, "main");
  EXPECT_GT(r.sym.offset, 0u);
  EXPECT_EQ(r.sym.loc.line, call_line());
}

TEST(UserSymbolizer, PieWithoutDwarfHasSymbolsOnly) {
  Target t(fixture("user_target-nodwarf"));
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(t.pid(), 0);
  UserFrame r = sym.symbolize(t.pid(), 1, t.ret(), true);
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
  ProcessSymbolizer without("", {}, test::test_worker());
  without.record_process(t.pid(), 0);
  UserFrame bare = without.symbolize(t.pid(), 1, t.ret(), true);
  EXPECT_TRUE(bare.mapped);
  EXPECT_FALSE(bare.sym.found);  // no symbol table left
  EXPECT_GT(bare.file_offset, 0u);

  ProcessSymbolizer with(host_root.path(), {}, test::test_worker());
  with.record_process(t.pid(), 0);
  UserFrame r = with.symbolize(t.pid(), 1, t.ret(), true);
  EXPECT_EQ(r.sym.name, "main");
  EXPECT_EQ(r.sym.loc.line, call_line());
}

// The debug file path lies in a root its owner controls: an absolute symlink there resolves in
// that root, not in retsnoop's /, and a FIFO is neither waited on nor read.
TEST(UserSymbolizer, DebugFileIsNeverOpenedOutsideItsRootNorIfNotRegular) {
  std::string stripped = fixture("user_target-stripped");
  std::string id = ElfFile(OwnedFd(open(stripped.c_str(), O_RDONLY | O_CLOEXEC)), {}).build_id();
  ASSERT_EQ(id.size(), 40u);
  std::string debug_path =
      "usr/lib/debug/.build-id/" + id.substr(0, 2) + "/" + id.substr(2) + ".debug";
  Target t(stripped);
  {
    test::TempDir root;
    std::string link = root.write(debug_path, "");
    unlink(link.c_str());
    ASSERT_EQ(symlink(fixture("user_target.debug").c_str(), link.c_str()), 0);
    ProcessSymbolizer sym(root.path(), {}, test::test_worker());
    sym.record_process(t.pid(), 0);
    EXPECT_FALSE(sym.symbolize(t.pid(), 1, t.ret(), true).sym.found);
  }
  {
    test::TempDir root;
    std::string fifo = root.write(debug_path, "");
    unlink(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    ProcessSymbolizer sym(root.path(), {}, test::test_worker());
    sym.record_process(t.pid(), 0);
    UserFrame r = sym.symbolize(t.pid(), 1, t.ret(), true);
    EXPECT_TRUE(r.mapped);
    EXPECT_FALSE(r.sym.found);
  }
}

// Its owner may truncate a file while retsnoop has it open: what was read stays usable, and no
// access past the new end kills retsnoop (as one through a mapping would, with SIGBUS).
TEST(UserSymbolizer, AFileTruncatedAfterLoadingIsNoCrash) {
  test::TempDir d;
  std::string copy = d.copy_in("user_target", fixture("user_target"));
  ElfFile f(OwnedFd(open(copy.c_str(), O_RDONLY | O_CLOEXEC)), {});
  ASSERT_EQ(f.build_id().size(), 40u);  // loaded
  ASSERT_EQ(truncate(copy.c_str(), 0), 0);
  size_t named = 0;
  for (uint64_t off = 0; off < 0x4000; off += 0x10) named += f.lookup(off, false).found;
  EXPECT_GT(named, 0u);
}

// Memory and descriptors stay bounded under many processes: the one used longest ago goes.
TEST(UserSymbolizer, ForgetsTheLeastUsedProcessBeyondTheLimit) {
  Target a(fixture("user_target")), b(fixture("user_target")), c(fixture("user_target"));
  ProcessSymbolizer sym("", {.processes = 2}, test::test_worker());
  sym.record_process(a.pid(), 0);
  sym.record_process(b.pid(), 0);
  sym.record_process(a.pid(), 5);  // a is recorded again: b is now the least used
  sym.record_process(c.pid(), 0);
  EXPECT_TRUE(sym.symbolize(a.pid(), 6, a.ret(), true).sym.found);
  EXPECT_FALSE(sym.symbolize(b.pid(), 1, b.ret(), true).mapped);
  EXPECT_TRUE(sym.symbolize(c.pid(), 1, c.ret(), true).sym.found);
}

TEST(UserSymbolizer, SymbolizingAProcessCountsAsUse) {
  Target a(fixture("user_target")), b(fixture("user_target")), c(fixture("user_target"));
  ProcessSymbolizer sym("", {.processes = 2}, test::test_worker());
  sym.record_process(a.pid(), 0);
  sym.record_process(b.pid(), 0);
  EXPECT_TRUE(sym.symbolize(a.pid(), 1, a.ret(), true).sym.found);  // b is now the least used
  sym.record_process(c.pid(), 0);
  EXPECT_TRUE(sym.symbolize(a.pid(), 1, a.ret(), true).sym.found);
  EXPECT_FALSE(sym.symbolize(b.pid(), 1, b.ret(), true).mapped);
}

// Distinct files (device and inode) that process pid maps executable.
size_t mapped_files(uint32_t pid) {
  std::set<std::pair<uint64_t, uint64_t>> files;
  int fd = open(("/proc/" + std::to_string(pid) + "/maps").c_str(), O_RDONLY | O_CLOEXEC);
  read_proc_maps(fd, [&](const MapsEntry& e) {
    files.insert({e.dev, e.inode});
    return true;
  });
  close(fd);
  return files.size();
}

size_t open_fds() {
  return std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                       std::filesystem::directory_iterator{});
}

// b's program is a file more than a's maps (the libraries are the same): a's program, opened
// first and not used since, goes. Its frames keep their file and offset.
TEST(UserSymbolizer, ForgetsTheLeastUsedFileBeyondTheLimit) {
  Target a(fixture("user_target")), b(fixture("user_target-nodwarf"));
  ProcessSymbolizer sym("", {.files = mapped_files(a.pid())}, test::test_worker());
  sym.record_process(a.pid(), 0);
  sym.record_process(b.pid(), 0);
  UserFrame f = sym.symbolize(a.pid(), 1, a.ret(), true);
  EXPECT_TRUE(f.mapped);
  EXPECT_EQ(f.binary, fixture("user_target"));
  EXPECT_FALSE(f.sym.found);
  EXPECT_TRUE(sym.symbolize(b.pid(), 1, b.ret(), true).sym.found);
}

// Room for a's files and b's program: c's program takes the place of b's, the least used since
// a's was symbolized (b's libraries are a's, used again when b was recorded).
TEST(UserSymbolizer, SymbolizingAFileCountsAsUse) {
  Target a(fixture("user_target")), b(fixture("user_target-nodwarf")),
      c(fixture("user_target-stripped"));
  ProcessSymbolizer sym("", {.files = mapped_files(a.pid()) + 1}, test::test_worker());
  sym.record_process(a.pid(), 0);
  sym.record_process(b.pid(), 0);
  EXPECT_TRUE(sym.symbolize(a.pid(), 1, a.ret(), true).sym.found);
  sym.record_process(c.pid(), 0);
  EXPECT_TRUE(sym.symbolize(a.pid(), 1, a.ret(), true).sym.found);
  EXPECT_FALSE(sym.symbolize(b.pid(), 1, b.ret(), true).sym.found);
}

// A forgotten file closes its descriptor; what stays open is the file kept and the root of the
// process it was opened for, which a debug file is looked for under.
TEST(UserSymbolizer, ForgottenFilesCloseTheirDescriptors) {
  Target a(fixture("user_target")), b(fixture("user_target-nodwarf"));
  ProcessSymbolizer sym("", {.files = 1}, test::test_worker());
  size_t before = open_fds();
  sym.record_process(a.pid(), 0);
  sym.record_process(b.pid(), 0);
  EXPECT_LE(open_fds(), before + 2);
}

TEST(UserSymbolizer, UnknownProcessOrAddress) {
  ProcessSymbolizer sym("", {}, test::test_worker());
  EXPECT_FALSE(sym.symbolize(1u << 30, 1, 0x1000, false).mapped);
  sym.record_process(getpid(), 0);
  UserFrame f = sym.symbolize(getpid(), 1, 0x10, false);  // never mapped
  EXPECT_FALSE(f.mapped);
  EXPECT_FALSE(f.sym.found);
}

TEST(UserSymbolizer, SharedLibraryNextToThePie) {
  Target t(fixture("user_lib_main"));
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(t.pid(), 0);
  UserFrame f = sym.symbolize(t.pid(), 1, t.func(), false);
  EXPECT_EQ(f.binary, fixture("libuser_lib.so"));
  EXPECT_EQ(f.sym.name, "user_lib_target");
  EXPECT_EQ(f.sym.offset, 0u);
  EXPECT_TRUE(f.sym.loc.file.ends_with("user_elf/user_lib.c"));
  UserFrame r = sym.symbolize(t.pid(), 1, t.ret(), true);
  EXPECT_EQ(r.binary, fixture("user_lib_main"));
  EXPECT_EQ(r.sym.name, "main");
  EXPECT_EQ(r.sym.loc.line, marked_line("user_lib_main.c", "USER_LIB_CALL_LINE"));
}

// Sessions before the exec are symbolized with the old program's map, later ones with the new.
TEST(UserSymbolizer, ExecRecordsANewMapForLaterSessions) {
  Target t(fixture("user_target"), fixture("user_target-nodwarf"));
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(t.pid(), 3);
  uint64_t old_ret = t.ret();
  t.exec_argument();
  sym.record_process(t.pid(), 10);
  t.exit();

  UserFrame before = sym.symbolize(t.pid(), 5, old_ret, true);
  EXPECT_EQ(before.binary, fixture("user_target"));
  EXPECT_EQ(before.sym.loc.line, call_line());
  UserFrame earliest = sym.symbolize(t.pid(), 1, old_ret, true);
  EXPECT_EQ(earliest.binary, fixture("user_target"));
  UserFrame after = sym.symbolize(t.pid(), 12, t.ret(), true);
  EXPECT_EQ(after.binary, fixture("user_target-nodwarf"));
  EXPECT_EQ(after.sym.name, "main");
  EXPECT_FALSE(after.sym.loc.known());

  // Read after the process is gone, the map stays the last one recorded.
  sym.record_process(t.pid(), 20);
  EXPECT_EQ(sym.symbolize(t.pid(), 21, t.ret(), true).binary, fixture("user_target-nodwarf"));
}

TEST(UserSymbolizer, KeepsABoundedNumberOfMapsPerProcess) {
  ProcessSymbolizer sym("", {}, test::test_worker());
  for (uint64_t id = 1; id <= ProcessSymbolizer::kMapsPerProcess + 3; ++id)
    sym.record_process(getpid(), id * 10);
  // The oldest maps were dropped: an early session falls back to the earliest map kept, which
  // still maps this test's own code.
  UserFrame f = sym.symbolize(getpid(), 5, reinterpret_cast<uint64_t>(&call_line), false);
  EXPECT_TRUE(f.mapped);
}

// A process found with another start time than the one the PID was seen with is another one,
// which took the PID since: its map is not the traced process's.
TEST(UserSymbolizer, AnotherProcessUnderThePidIsNotRecorded) {
  auto start = process_start_time(uint32_t(getpid()));
  ASSERT_TRUE(start);
  uint64_t code = reinterpret_cast<uint64_t>(&call_line);
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(getpid(), 1, *start + 1);
  EXPECT_FALSE(sym.symbolize(getpid(), 1, code, false).mapped);
  sym.record_process(getpid(), 1, *start);
  EXPECT_TRUE(sym.symbolize(getpid(), 1, code, false).mapped);
}

// The map cache's size after recording the programs, each in a symbolizer of its own.
size_t recorded_bytes(const Target& t) {
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(t.pid(), 0);
  return sym.map_cache_bytes();
}

// Maps are budgeted in bytes: b alone fits, a and b do not, so a, used longer ago, goes.
TEST(UserSymbolizer, ByteBudgetForgetsTheLeastUsedProcess) {
  Target a(fixture("user_target")), b(fixture("user_lib_main"));
  size_t b_alone = recorded_bytes(b);
  ProcessSymbolizer sym("", {.map_bytes = b_alone}, test::test_worker());
  sym.record_process(a.pid(), 0);
  EXPECT_TRUE(sym.symbolize(a.pid(), 1, a.ret(), true).sym.found);
  sym.record_process(b.pid(), 0);
  EXPECT_FALSE(sym.symbolize(a.pid(), 1, a.ret(), true).mapped);
  EXPECT_EQ(sym.symbolize(b.pid(), 1, b.func(), false).sym.name, "user_lib_target");
  EXPECT_LE(sym.map_cache_bytes(), b_alone);
}

// Alone over the budget, a process keeps its latest maps: the oldest go first.
TEST(UserSymbolizer, ByteBudgetDropsAProcesssOldestMaps) {
  ProcessSymbolizer probe("", {}, test::test_worker());
  probe.record_process(getpid(), 10);
  size_t one = probe.map_cache_bytes();
  probe.record_process(getpid(), 20);
  size_t map = probe.map_cache_bytes() - one;  // the second map adds no path
  ProcessSymbolizer sym("", {.map_bytes = one + map + map / 2}, test::test_worker());
  for (uint64_t id = 10; id <= 50; id += 10) sym.record_process(getpid(), id);
  EXPECT_EQ(sym.map_cache_bytes(), one + map);
  EXPECT_TRUE(sym.symbolize(getpid(), 45, reinterpret_cast<uint64_t>(&call_line), false).mapped);
}

// A map larger than the whole budget is cut: the mappings listed first (the program, at the
// lowest addresses) are kept, the later ones (the libraries) are not.
TEST(UserSymbolizer, MapLargerThanTheBudgetIsCut) {
  Target t(fixture("user_lib_main"));
  ProcessSymbolizer sym("", {.map_bytes = 1}, test::test_worker());
  sym.record_process(t.pid(), 0);
  EXPECT_EQ(sym.symbolize(t.pid(), 1, t.ret(), true).sym.name, "main");
  EXPECT_FALSE(sym.symbolize(t.pid(), 1, t.func(), false).mapped);
}

// Processes of one program share its paths.
TEST(UserSymbolizer, PathsAreKeptOnce) {
  Target a(fixture("user_target")), b(fixture("user_target"));
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(a.pid(), 0);
  size_t one = sym.map_cache_bytes();
  sym.record_process(b.pid(), 0);
  EXPECT_LT(sym.map_cache_bytes(), 2 * one);
}

// A child that maps a file count times, executable, until the test ends.
class ManyMappings {
 public:
  ManyMappings(const std::string& path, size_t count) {
    int ready[2];
    EXPECT_EQ(pipe2(ready, O_CLOEXEC), 0);
    EXPECT_EQ(pipe2(hold_, O_CLOEXEC), 0);
    pid_ = fork();
    if (pid_ == 0) {
      close(hold_[1]);  // the parent's close of it ends the wait below
      int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      void* at = nullptr;
      for (size_t i = 0; i < count && at != MAP_FAILED; ++i)
        at = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
      uint64_t addr = at == MAP_FAILED ? 0 : reinterpret_cast<uint64_t>(at);
      (void)!write(ready[1], &addr, sizeof(addr));
      char c;
      (void)!read(hold_[0], &c, 1);
      _exit(0);
    }
    close(ready[1]);
    close(hold_[0]);
    EXPECT_EQ(read(ready[0], &last_, sizeof(last_)), ssize_t(sizeof(last_)));
    close(ready[0]);
  }
  ~ManyMappings() {
    close(hold_[1]);
    waitpid(pid_, nullptr, 0);
  }
  uint32_t pid() const { return pid_; }
  uint64_t last() const { return last_; }  // the last mapping's address; 0 if one failed

 private:
  pid_t pid_ = -1;
  int hold_[2] = {-1, -1};
  uint64_t last_ = 0;
};

// Ten thousand mappings of one file with a path of nearly 4 KiB cost a few hundred kilobytes,
// not forty megabytes, and each still names the file.
TEST(UserSymbolizer, ManyMappingsOfALongPathStaySmall) {
  test::TempDir d;
  std::string deep;
  while (d.path().size() + deep.size() < 3700) deep += std::string(200, 'd') + "/";
  std::string file = d.copy_in(deep + "user_target", fixture("user_target"));
  constexpr size_t kCount = 10000;
  ManyMappings child(file, kCount);
  ASSERT_NE(child.last(), 0u);
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(child.pid(), 0);
  EXPECT_LT(sym.map_cache_bytes(), kCount * 100);
  UserFrame f = sym.symbolize(child.pid(), 1, child.last() + 0x10, false);
  EXPECT_TRUE(f.mapped);
  EXPECT_EQ(f.binary, file);
  EXPECT_EQ(f.file_offset, 0x10u);
}

// A worker that dies on a file costs that file's frames alone: the next file goes to a new
// worker, and the file it died on is not sent again.
TEST(UserSymbolizerWorker, CrashCostsOnlyThatFile) {
  Target a(fixture("user_target"));
  Target b(fixture("user_target-nodwarf"));
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(a.pid(), 0);
  sym.record_process(b.pid(), 0);
  setenv("RETSNOOP_TEST_FAULT", "symbolizer-crash", 1);
  UserFrame lost = sym.symbolize(a.pid(), 1, a.ret(), true);
  unsetenv("RETSNOOP_TEST_FAULT");
  EXPECT_TRUE(lost.mapped);
  EXPECT_EQ(lost.binary, fixture("user_target"));
  EXPECT_FALSE(lost.sym.found);
  EXPECT_EQ(sym.worker().failures(), 1u);
  EXPECT_EQ(sym.symbolize(b.pid(), 1, b.ret(), true).sym.name, "main");
  EXPECT_FALSE(sym.symbolize(a.pid(), 1, a.func(), false).sym.found);
  EXPECT_EQ(sym.worker().failures(), 1u);
}

// A worker that stops answering is killed at the deadline; the next file is read by another.
TEST(UserSymbolizerWorker, HangIsKilledAtTheDeadline) {
  Target a(fixture("user_target"));
  Target b(fixture("user_target-nodwarf"));
  WorkerOptions opts = test::test_worker();
  opts.load_timeout = std::chrono::milliseconds(300);
  ProcessSymbolizer sym("", {}, opts);
  sym.record_process(a.pid(), 0);
  sym.record_process(b.pid(), 0);
  setenv("RETSNOOP_TEST_FAULT", "symbolizer-hang", 1);
  auto t0 = std::chrono::steady_clock::now();
  UserFrame lost = sym.symbolize(a.pid(), 1, a.ret(), true);
  auto waited = std::chrono::steady_clock::now() - t0;
  unsetenv("RETSNOOP_TEST_FAULT");
  EXPECT_FALSE(lost.sym.found);
  EXPECT_TRUE(lost.mapped);
  EXPECT_GE(waited, std::chrono::milliseconds(300));
  EXPECT_LT(waited, std::chrono::seconds(3));
  EXPECT_EQ(sym.worker().failures(), 1u);
  pid_t hung = sym.worker().pid();
  EXPECT_EQ(hung, 0);  // killed and reaped
  EXPECT_EQ(sym.symbolize(b.pid(), 1, b.ret(), true).sym.name, "main");
  EXPECT_NE(sym.worker().pid(), 0);
}

// shutdown() ends the worker; lookups then find nothing, at once.
TEST(UserSymbolizerWorker, ShutdownEndsLookups) {
  Target a(fixture("user_target"));
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(a.pid(), 0);
  EXPECT_EQ(sym.symbolize(a.pid(), 1, a.ret(), true).sym.name, "main");
  sym.shutdown();
  UserFrame f = sym.symbolize(a.pid(), 1, a.ret(), true);
  EXPECT_TRUE(f.mapped);
  EXPECT_FALSE(f.sym.found);
}

}  // namespace
}  // namespace retsnoop
