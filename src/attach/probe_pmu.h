// Perf kprobes and uprobes opened through the kernel's kprobe and uprobe PMUs, for a BPF program
// to attach to: with its own cookie through libbpf, or as a program copy by attach_copy_to().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/owned_fd.h"

namespace retsnoop {

// The kprobe PMU's perf event type; nullopt (errno set) when the kernel has none.
std::optional<int> kprobe_pmu_type();

// A kprobe at addr on every task and CPU; an invalid fd (errno set) when the kernel refuses it.
// By address, not symbol+offset: a static function's name may be shared, and since 6.5 the kernel
// refuses such names.
OwnedFd open_kprobe_at(int pmu_type, uint64_t addr);

// The uprobe PMU: its perf event type, and the config bit that makes a uprobe a uretprobe.
struct UprobePmu {
  int type = 0;
  int retprobe_bit = 0;
};

// nullopt (errno set) when the kernel has no uprobe PMU.
std::optional<UprobePmu> uprobe_pmu();

// The bit a PMU format file names ("config:0" -> 0); nullopt for any other form.
std::optional<int> pmu_config_bit(std::string_view format);

// A uprobe (a uretprobe with retprobe) at the file offset of binary, in every process that maps
// it, now or later; an invalid fd (errno set) when the kernel refuses it.
OwnedFd open_uprobe_at(const UprobePmu& pmu, const std::string& binary, uint64_t offset,
                       bool retprobe);

// Runs the program prog_fd on every hit of the perf probe event_fd, until the event is closed:
// PERF_EVENT_IOC_SET_BPF, then ENABLE. 0, or a negative errno.
int attach_copy_to(int event_fd, int prog_fd);

// A program copy and the perf probe it runs on; the event closes first, which detaches it.
struct CopyProbe {
  OwnedFd prog;
  OwnedFd event;
};

}  // namespace retsnoop
