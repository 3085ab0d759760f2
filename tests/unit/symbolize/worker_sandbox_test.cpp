#include "symbolize/worker_sandbox.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "symbolize/user_symbolizer.h"
#include "temp_dir.h"
#include "util/log.h"
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

std::string ns_of(pid_t pid, const std::string& kind) {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/ns/" + kind, ec);
}

// Opening by path is refused whether or not the worker's identity could read the file.
TEST(WorkerSandbox, NoFileIsOpenedByPath) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  test::TempDir dir;
  chmod(dir.path().c_str(), 0755);
  std::string secret = dir.write("secret", "x"), open_file = dir.write("public", "x");
  chmod(secret.c_str(), 0600);
  chmod(open_file.c_str(), 0644);
  for (const std::string& path : {secret, open_file}) {
    int st = test::run_sandboxed([&path] {
      int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      return fd >= 0 ? 0 : errno == EACCES ? 1 : 2;
    });
    ASSERT_TRUE(WIFEXITED(st)) << path << " " << st;
    EXPECT_EQ(WEXITSTATUS(st), 1) << path;
  }
}

// The worker retsnoop starts has given up root for a uid no one else has, its capabilities
// (down to the bounding set) and any way to gain them, the host's network and IPC, and most
// system calls, and still reads a file's symbols.
TEST(WorkerSandbox, WorkerRunsAloneWithoutCapabilitiesNetworkOrIpc) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  ProcessSymbolizer sym("", {}, test::test_worker());
  sym.record_process(getpid(), 0);
  UserFrame f = sym.symbolize(getpid(), 1, reinterpret_cast<uint64_t>(&status_field), false);
  EXPECT_TRUE(f.sym.found);
  EXPECT_NE(f.sym.name.find("status_field"), std::string::npos) << f.sym.name;
  pid_t worker = sym.worker().pid();
  ASSERT_GT(worker, 0);
  std::string id = std::to_string(worker_id(worker));
  EXPECT_GE(worker_id(worker), kWorkerIdBase);
  EXPECT_EQ(status_field(worker, "Uid"), id + "\t" + id + "\t" + id + "\t" + id);
  EXPECT_EQ(status_field(worker, "Gid"), id + "\t" + id + "\t" + id + "\t" + id);
  EXPECT_EQ(status_field(worker, "Groups"), "");
  EXPECT_EQ(status_field(worker, "CapEff"), "0000000000000000");
  EXPECT_EQ(status_field(worker, "CapPrm"), "0000000000000000");
  EXPECT_EQ(status_field(worker, "CapBnd"), "0000000000000000");
  EXPECT_EQ(status_field(worker, "NoNewPrivs"), "1");
  EXPECT_EQ(status_field(worker, "Seccomp"), "2");  // SECCOMP_MODE_FILTER
  EXPECT_NE(ns_of(worker, "net"), ns_of(getpid(), "net"));
  EXPECT_NE(ns_of(worker, "ipc"), ns_of(getpid(), "ipc"));
  std::ifstream limits("/proc/" + std::to_string(worker) + "/limits");
  std::string text((std::istreambuf_iterator<char>(limits)), {});
  EXPECT_NE(text.find("Max core file size        0"), std::string::npos) << text;
}

// The capabilities of the shipped systemd unit, from its CapabilityBoundingSet= line; a name this
// table lacks fails the test, so that a capability added to the unit is added here too.
std::vector<int> unit_capabilities() {
  static const std::map<std::string, int> kByName = {{"CAP_BPF", CAP_BPF},
                                                     {"CAP_PERFMON", CAP_PERFMON},
                                                     {"CAP_SYS_ADMIN", CAP_SYS_ADMIN},
                                                     {"CAP_SYSLOG", CAP_SYSLOG},
                                                     {"CAP_SYS_PTRACE", CAP_SYS_PTRACE},
                                                     {"CAP_DAC_READ_SEARCH", CAP_DAC_READ_SEARCH},
                                                     {"CAP_SYS_RESOURCE", CAP_SYS_RESOURCE},
                                                     {"CAP_IPC_LOCK", CAP_IPC_LOCK},
                                                     {"CAP_SETUID", CAP_SETUID},
                                                     {"CAP_SETGID", CAP_SETGID},
                                                     {"CAP_SETPCAP", CAP_SETPCAP}};
  std::ifstream unit(RS_SERVICE_UNIT);
  std::string line;
  while (std::getline(unit, line) && !line.starts_with("CapabilityBoundingSet=")) {
  }
  std::istringstream names(line.substr(line.find('=') + 1));
  std::vector<int> caps;
  for (std::string name; names >> name;) {
    auto it = kByName.find(name);
    if (it == kByName.end()) ADD_FAILURE() << "unknown capability " << name;
    if (it != kByName.end()) caps.push_back(it->second);
  }
  return caps;
}

// What systemd does for the unit: the bounding set and the inherited capabilities limited to
// its list (root's capabilities after exec are those), and no_new_privs. A capability the test
// itself lacks (a container's) stays out.
bool limit_to(const std::vector<int>& caps) {
  __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct have[_LINUX_CAPABILITY_U32S_3] = {};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capget, &hdr, have)) return false;
  for (int cap : caps) data[cap / 32].inheritable |= have[cap / 32].permitted & (1u << (cap % 32));
  for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; ++cap) {
    bool kept = data[cap / 32].inheritable & (1u << (cap % 32));
    if (!kept && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)) return false;
  }
  for (auto& d : data) d.permitted = d.effective = d.inheritable;
  return syscall(SYS_capset, &hdr, data) == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
}

TEST(WorkerSandbox, WorkerStartsUnderTheServiceUnitsCapabilities) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  std::vector<int> caps = unit_capabilities();
  ASSERT_FALSE(caps.empty());
  pid_t pid = fork();
  if (pid == 0) {
    if (!limit_to(caps)) _exit(2);
    ProcessSymbolizer sym("", {}, test::test_worker());
    sym.record_process(getpid(), 0);
    UserFrame f = sym.symbolize(getpid(), 1, reinterpret_cast<uint64_t>(&status_field), false);
    _exit(f.sym.found && sym.worker().failures() == 0 ? 0 : 1);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(WIFEXITED(st)) << st;
  EXPECT_EQ(WEXITSTATUS(st), 0) << "2: the unit's capabilities could not be set; 1: no worker";
}

// Without CAP_SYS_ADMIN and CAP_SETPCAP the worker still starts, without its namespaces and with
// its bounding set, and -v says so.
TEST(WorkerSandbox, RefusedIsolationIsReportedUnderV) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root";
  test::TempDir dir;
  std::string log = dir.path() + "/stderr";
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || dup2(fd, 2) < 0 || !limit_to({CAP_SETUID, CAP_SETGID})) _exit(2);
    set_log_verbosity(1);
    ProcessSymbolizer sym("", {}, test::test_worker());
    sym.record_process(getpid(), 0);
    UserFrame f = sym.symbolize(getpid(), 1, reinterpret_cast<uint64_t>(&status_field), false);
    _exit(f.sym.found ? 0 : 1);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(WIFEXITED(st)) << st;
  EXPECT_EQ(WEXITSTATUS(st), 0);
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("symbolizer worker: no network and IPC namespaces of its own: Operation not "
                      "permitted\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("symbolizer worker: capability bounding set kept: Operation not permitted\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace retsnoop
