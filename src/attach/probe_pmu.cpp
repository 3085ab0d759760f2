#include "attach/probe_pmu.h"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

#include "util/file_text.h"

namespace retsnoop {

namespace {

constexpr const char* kPmuDir = "/sys/bus/event_source/devices/";

std::optional<int> pmu_type(const std::string& pmu) {
  std::optional<std::string> text = read_text_file(kPmuDir + pmu + "/type");
  if (!text) return std::nullopt;
  return std::stoi(*text);
}

// On every task; on CPU 0, which a probe with no task takes to mean every CPU.
OwnedFd open_probe(perf_event_attr& attr) {
  attr.size = sizeof(attr);
  return OwnedFd(int(syscall(__NR_perf_event_open, &attr, -1 /* every task */, 0 /* CPU */,
                             -1 /* group */, PERF_FLAG_FD_CLOEXEC)));
}

}  // namespace

std::optional<int> kprobe_pmu_type() { return pmu_type("kprobe"); }

OwnedFd open_kprobe_at(int pmu_type, uint64_t addr) {
  perf_event_attr attr = {};
  attr.type = uint32_t(pmu_type);
  attr.config1 = 0;     // kprobe_func: none, so that config2 is the address
  attr.config2 = addr;  // kprobe_addr
  return open_probe(attr);
}

std::optional<int> pmu_config_bit(std::string_view format) {
  constexpr std::string_view kPrefix = "config:";
  if (!format.starts_with(kPrefix)) return std::nullopt;
  format.remove_prefix(kPrefix.size());
  while (!format.empty() && (format.back() == '\n' || format.back() == ' '))
    format.remove_suffix(1);
  int bit = -1;
  auto [end, ec] = std::from_chars(format.data(), format.data() + format.size(), bit);
  if (ec != std::errc() || end != format.data() + format.size() || bit < 0 || bit > 63)
    return std::nullopt;
  return bit;
}

std::optional<UprobePmu> uprobe_pmu() {
  std::optional<int> type = pmu_type("uprobe");
  if (!type) return std::nullopt;
  std::optional<std::string> format =
      read_text_file(std::string(kPmuDir) + "uprobe/format/retprobe");
  std::optional<int> bit = format ? pmu_config_bit(*format) : std::nullopt;
  if (!bit) {
    if (format) errno = EINVAL;
    return std::nullopt;
  }
  return UprobePmu{*type, *bit};
}

OwnedFd open_uprobe_at(const UprobePmu& pmu, const std::string& binary, uint64_t offset,
                       bool retprobe) {
  perf_event_attr attr = {};
  attr.type = uint32_t(pmu.type);
  attr.config = retprobe ? uint64_t(1) << pmu.retprobe_bit : 0;
  attr.config1 = reinterpret_cast<uint64_t>(binary.c_str());  // uprobe_path
  attr.config2 = offset;                                      // probe_offset
  return open_probe(attr);
}

int attach_copy_to(int event_fd, int prog_fd) {
  if (ioctl(event_fd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0) return -errno;
  if (ioctl(event_fd, PERF_EVENT_IOC_ENABLE, 0) < 0) return -errno;
  return 0;
}

}  // namespace retsnoop
