// What the running kernel can do, in one table of feature probes. The attach-mode choice, -V -v
// and the tests all read it. A probe runs the first time its row is asked for and is remembered:
// a run pays only for what it uses (BTF parsing, a probe attach).
#pragma once

#include <array>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace retsnoop {

enum class Feature {
  Ringbuf,
  FuncIp,
  BranchSnapshot,
  BpfCookie,
  MultiKprobe,
  KprobeSession,
  RawTpCookie,
  FentryCookie,
  ProbeMissCounters,
  Kprobes,
  FentryAttach,
  Tracefs,
  Lockdown,
  TaskBtf,
  TaskStorage,
  AtomicFetch,
  KretprobeStacks,
  SessionKfuncCtx,
  MemcgAccounting,
  Uprobes,
  MultiUprobe,
  FentryMulti,
  PerfDetachWait,
  Count,
};

class KernelBtf;

class Features {
 public:
  // This kernel's table. Probes run on demand and need CAP_BPF/CAP_SYS_ADMIN; a probe that
  // cannot run reads "no".
  static Features detect();
  // A table that probes nothing: rows not listed read 0. For tests of what reads the table.
  static Features fixed(std::initializer_list<std::pair<Feature, int>> values);
  ~Features();
  Features(Features&&) noexcept;
  Features& operator=(Features&&) noexcept;

  bool has(Feature f) const { return value(f) > 0; }
  // 0/1 for yes/no rows. FentryAttach and Tracefs: 1, or the -errno of what failed. Lockdown: the
  // mode (kernel/lockdown.h), or the -errno of reading it.
  int value(Feature f) const;
  // The "Feature detection:" block of -V -v.
  std::string report() const;
  // The running kernel's BTF that the probes read, for the rest of the run to share: parsing
  // vmlinux's takes a fifth of a second and more under emulation. Null in fixed tables.
  std::shared_ptr<KernelBtf> kernel_btf() const { return btf_; }

 private:
  Features();

  static constexpr size_t kCount = static_cast<size_t>(Feature::Count);
  mutable std::array<std::optional<int>, kCount> values_;
  std::shared_ptr<KernelBtf> btf_;  // null in fixed tables
};

}  // namespace retsnoop
