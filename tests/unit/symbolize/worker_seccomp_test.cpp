#include "symbolize/worker_seccomp.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <vector>

#include "worker_test_util.h"

namespace retsnoop {
namespace {

bool killed_by_sigsys(int status) { return WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS; }

TEST(WorkerSeccomp, SocketKillsTheWorker) {
  int st = test::run_sandboxed([] { return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 1; });
  EXPECT_TRUE(killed_by_sigsys(st)) << st;
}

TEST(WorkerSeccomp, ExecKillsTheWorker) {
  int st = test::run_sandboxed([] {
    char* argv[] = {const_cast<char*>("/bin/true"), nullptr};
    execv("/bin/true", argv);
    return 1;
  });
  EXPECT_TRUE(killed_by_sigsys(st)) << st;
}

TEST(WorkerSeccomp, ExecutableMemoryKillsTheWorker) {
  int st = test::run_sandboxed([] {
    void* p = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? 1 : 0;
  });
  EXPECT_TRUE(killed_by_sigsys(st)) << st;
}

TEST(WorkerSeccomp, ForkKillsTheWorker) {
  int st = test::run_sandboxed([] { return fork() >= 0 ? 0 : 1; });
  EXPECT_TRUE(killed_by_sigsys(st)) << st;
}

// Memory, reads of a descriptor it holds (stdin, /dev/null in the sandbox), and a path refused
// with EACCES rather than death. A whole symbolization through the worker is in
// user_symbolizer_test.cpp and worker_sandbox_test.cpp.
TEST(WorkerSeccomp, WhatTheReaderNeedsIsAllowed) {
  int st = test::run_sandboxed([] {
    void* p = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || munmap(p, 1 << 20)) return 1;
    if (open("/etc/hostname", O_RDONLY) >= 0 || errno != EACCES) return 2;
    char buf[4];
    struct stat sb;
    if (read(0, buf, sizeof(buf)) < 0 || lseek(0, 0, SEEK_SET) < 0 || fstat(0, &sb)) return 3;
    // libdw sorts a large line table with qsort(), which asks for the memory size first.
    std::vector<int> lines(100000);
    for (size_t i = 0; i < lines.size(); ++i) lines[i] = int(lines.size() - i);
    std::qsort(lines.data(), lines.size(), sizeof(int), [](const void* a, const void* b) {
      return *static_cast<const int*>(a) - *static_cast<const int*>(b);
    });
    return lines.front() == 1 ? 0 : 4;
  });
  ASSERT_TRUE(WIFEXITED(st)) << st;
  EXPECT_EQ(WEXITSTATUS(st), 0);
}

}  // namespace
}  // namespace retsnoop
