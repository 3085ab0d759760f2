#include "kernel/privileges.h"

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "util/error.h"

namespace retsnoop {

namespace {

constexpr int kCapSysAdmin = 21;
constexpr int kCapPerfmon = 38;
constexpr int kCapBpf = 39;

uint64_t effective_caps() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("CapEff:", 0) == 0) return std::stoull(line.substr(7), nullptr, 16);
  }
  return 0;
}

bool has_cap(uint64_t caps, int cap) { return caps & (1ull << cap); }

}  // namespace

void check_privileges() {
  if (geteuid() == 0) return;
  uint64_t caps = effective_caps();
  if (has_cap(caps, kCapSysAdmin) || (has_cap(caps, kCapBpf) && has_cap(caps, kCapPerfmon))) return;
  throw UserError("insufficient privileges: run as root or with CAP_BPF and CAP_PERFMON",
                  "e.g. sudo retsnoop ...");
}

}  // namespace retsnoop
