#include "symbolize/worker_sandbox.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <string>

#include "symbolize/user_symbolizer.h"
#include "temp_dir.h"
#include "worker_test_util.h"

namespace retsnoop {
namespace {

// A field of /proc/PID/status, without the blanks around it.
std::string status_field(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with(field + ":")) {
      std::string value = line.substr(field.size() + 1);
      value.erase(0, value.find_first_not_of(" \t"));
      value.erase(value.find_last_not_of(" \t") + 1);
      return value;
    }
  return "";
}

// Exit status of a child that entered the sandbox and opened path: 0 opened, 1 EACCES, 2 other.
int open_in_sandbox(const std::string& path) {
  pid_t pid = fork();
  if (pid == 0) {
    if (enter_worker_sandbox(-1, getppid())) _exit(3);
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    _exit(fd >= 0 ? 0 : errno == EACCES ? 1 : 2);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(WorkerSandbox, RootOnlyFileCannotBeOpened) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  test::TempDir dir;
  chmod(dir.path().c_str(), 0755);
  std::string secret = dir.path() + "/secret", open_file = dir.path() + "/public";
  std::ofstream(secret) << "x";
  std::ofstream(open_file) << "x";
  chmod(secret.c_str(), 0600);
  chmod(open_file.c_str(), 0644);
  EXPECT_EQ(open_in_sandbox(secret), 1);
  EXPECT_EQ(open_in_sandbox(open_file), 0);
}

// The worker retsnoop starts has given up root, its capabilities and any way to gain them.
TEST(WorkerSandbox, WorkerRunsAsNobodyWithoutCapabilities) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(getpid(), 0);
  sym.symbolize(getpid(), 1, reinterpret_cast<uint64_t>(&status_field), false);
  pid_t worker = sym.worker().pid();
  ASSERT_GT(worker, 0);
  EXPECT_EQ(status_field(worker, "Uid"), "65534\t65534\t65534\t65534");
  EXPECT_EQ(status_field(worker, "Gid"), "65534\t65534\t65534\t65534");
  EXPECT_EQ(status_field(worker, "Groups"), "");
  EXPECT_EQ(status_field(worker, "CapEff"), "0000000000000000");
  EXPECT_EQ(status_field(worker, "CapPrm"), "0000000000000000");
  EXPECT_EQ(status_field(worker, "NoNewPrivs"), "1");
  std::ifstream limits("/proc/" + std::to_string(worker) + "/limits");
  std::string text((std::istreambuf_iterator<char>(limits)), {});
  EXPECT_NE(text.find("Max core file size        0"), std::string::npos) << text;
}

}  // namespace
}  // namespace retsnoop
