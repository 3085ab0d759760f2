#include "app/features.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <cerrno>

#include "app/kernel_btf.h"
#include "attach/kprobe_multi_link.h"
#include "util/phase_timer.h"

namespace retsnoop {

namespace {

struct FeatureRow {
  Feature feature;
  const char* label;
  int (*probe)(KernelBtf& btf);
};

bool probe_helper(bpf_func_id helper) {
  return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, helper, nullptr) > 0;
}

int probe_ringbuf(KernelBtf&) { return libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, nullptr) > 0; }
int probe_func_ip(KernelBtf&) { return probe_helper(BPF_FUNC_get_func_ip); }
int probe_branch_snapshot(KernelBtf&) { return probe_helper(BPF_FUNC_get_branch_snapshot); }
int probe_cookie(KernelBtf&) { return probe_helper(BPF_FUNC_get_attach_cookie); }

// Asks for a multi-kprobe link of this kind with an address array it cannot read: a kernel that
// has the kind fails copying it (EFAULT), one that does not answers EINVAL (unknown attach type)
// or, built without CONFIG_FPROBE (Debian's 6.1), EOPNOTSUPP. Nothing gets attached. A symbol
// name that cannot exist would do too, but the kernel looks a name up among all its symbols:
// 45 ms per probe in the test VMs, against 1 ms.
bool probe_multi_link(MultiLinkKind kind) {
  const bpf_insn prog[] = {
      {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
      {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
  };
  LIBBPF_OPTS(bpf_prog_load_opts, load_opts);
  load_opts.expected_attach_type = static_cast<bpf_attach_type>(multi_link_attach_type(kind));
  int prog_fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "rs_probe_kmulti", "GPL", prog, 2, &load_opts);
  if (prog_fd < 0) return false;
  MultiLinkTargets targets;
  // Page 0 is never mapped (vm.mmap_min_addr).
  targets.addrs = reinterpret_cast<const unsigned long*>(alignof(unsigned long));
  targets.cnt = 1;
  int link_fd = create_multi_link(prog_fd, kind, targets);
  if (link_fd >= 0) close(link_fd);
  close(prog_fd);
  return link_fd != -EOPNOTSUPP && link_fd != -EINVAL;
}

int probe_multi_kprobe(KernelBtf&) { return probe_multi_link(MultiLinkKind::Entry); }

// 535a3692ba72 "bpf: Add support for kprobe session attach" (6.10).
int probe_kprobe_session(KernelBtf&) { return probe_multi_link(MultiLinkKind::Session); }

// The rows below have no probe of their own that is cheaper than asking BTF for what the
// change introduced; each names the commit.

// 68ca5d4eebb8 "bpf: support BPF cookie in raw tracepoint (raw_tp, tp_btf) programs" (6.10).
int probe_raw_tp_cookie(KernelBtf& btf) {
  return btf.has_member(BTF_KIND_UNION, "bpf_attr", "raw_tracepoint.cookie");
}

// 2fcc82411e74 "bpf, x86: Attach a cookie to fentry/fexit/fmod_ret/lsm." (5.19) stores it here.
int probe_fentry_cookie(KernelBtf& btf) {
  return btf.has_member(BTF_KIND_STRUCT, "bpf_tramp_link", "cookie");
}

// The "missed" counters of kprobe-multi and perf-event kprobe links, and kprobe programs'
// recursion_misses, came in one series (6.7: "bpf: Add missed value to kprobe_multi link info").
int probe_miss_counters(KernelBtf& btf) {
  return btf.has_member(BTF_KIND_STRUCT, "bpf_link_info", "kprobe_multi.missed");
}

constexpr FeatureRow kRows[] = {
    {Feature::Ringbuf, "BPF ringbuf map supported", probe_ringbuf},
    {Feature::FuncIp, "bpf_get_func_ip() supported", probe_func_ip},
    {Feature::BranchSnapshot, "bpf_get_branch_snapshot() supported",
     probe_branch_snapshot},
    {Feature::BpfCookie, "BPF cookie supported", probe_cookie},
    {Feature::MultiKprobe, "multi-attach kprobe supported", probe_multi_kprobe},
    {Feature::KprobeSession, "kprobe session supported", probe_kprobe_session},
    {Feature::RawTpCookie, "raw tracepoint cookie supported", probe_raw_tp_cookie},
    {Feature::FentryCookie, "fentry/fexit cookie supported", probe_fentry_cookie},
    {Feature::ProbeMissCounters, "kprobe missed counters supported",
     probe_miss_counters},
};

constexpr bool rows_follow_enum() {
  for (size_t i = 0; i < std::size(kRows); ++i)
    if (static_cast<size_t>(kRows[i].feature) != i) return false;
  return std::size(kRows) == static_cast<size_t>(Feature::Count);
}
static_assert(rows_follow_enum(), "one row per feature, in enum order");

constexpr const FeatureRow& row_of(Feature f) { return kRows[static_cast<size_t>(f)]; }

}  // namespace

Features::Features() = default;
Features::~Features() = default;
Features::Features(Features&&) noexcept = default;
Features& Features::operator=(Features&&) noexcept = default;

Features Features::detect() {
  Features f;
  f.btf_ = std::make_unique<KernelBtf>();
  return f;
}

Features Features::fixed(std::initializer_list<std::pair<Feature, int>> values) {
  Features f;
  f.values_.fill(0);
  for (const auto& [feature, value] : values) f.values_[static_cast<size_t>(feature)] = value;
  return f;
}

int Features::value(Feature f) const {
  auto& v = values_[static_cast<size_t>(f)];
  if (!v) v = timed(row_of(f).label, [&] { return row_of(f).probe(*btf_); });
  return *v;
}

std::string Features::report() const {
  std::string out = "Feature detection:\n";
  for (const auto& row : kRows)
    out.append("\t").append(row.label).append(": ").append(has(row.feature) ? "yes" : "no").append("\n");
  return out;
}

}  // namespace retsnoop
