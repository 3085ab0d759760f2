#include "kernel/features.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <cerrno>

#include "attach/kprobe_multi_link.h"
#include "attach/tracing_multi_link.h"
#include "discovery/kernel_btf.h"
#include "discovery/traceable.h"
#include "kernel/lockdown.h"
#include "util/errno_names.h"
#include "util/log.h"
#include "util/owned_fd.h"
#include "util/phase_timer.h"

namespace retsnoop {

namespace {

std::string yes_no(int value) { return value > 0 ? "yes" : "no"; }
std::string yes_or_errno(int value) {
  return value >= 0 ? yes_no(value) : "no (" + errno_text(-value) + ")";
}

struct FeatureRow {
  Feature feature;
  const char* label;
  int (*probe)(KernelBtf& btf);
  std::string (*format)(int value) = yes_no;
};

bool probe_helper(bpf_func_id helper) {
  return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, helper, nullptr) > 0;
}

int probe_ringbuf(KernelBtf&) {
  return libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, nullptr) > 0;
}
int probe_func_ip(KernelBtf&) { return probe_helper(BPF_FUNC_get_func_ip); }
int probe_branch_snapshot(KernelBtf&) { return probe_helper(BPF_FUNC_get_branch_snapshot); }
int probe_cookie(KernelBtf&) { return probe_helper(BPF_FUNC_get_attach_cookie); }
// Memory cgroup accounting of BPF memory and bpf_ktime_get_coarse_ns() both came in 5.11, and no
// interface tells the accounting apart: the helper stands for it, as libbpf's own probe does.
int probe_memcg_accounting(KernelBtf&) { return probe_helper(BPF_FUNC_ktime_get_coarse_ns); }

// "return 0" as a program of this type: the fd, or -errno. libbpf writes to opts (the log size).
int load_return_zero(bpf_prog_type type, const char* name, bpf_prog_load_opts& opts) {
  const bpf_insn prog[] = {
      {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
      {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
  };
  return bpf_prog_load(type, name, "GPL", prog, std::size(prog), &opts);
}

// Asks for a multi-kprobe link of this kind with an address array it cannot read: a kernel that
// has the kind fails copying it (EFAULT), one that does not answers EINVAL (unknown attach type)
// or, built without CONFIG_FPROBE (Debian's 6.1), EOPNOTSUPP. Nothing gets attached. A symbol
// name that cannot exist would do too, but the kernel then looks the name up among all its
// symbols, a walk of all of kallsyms per probe.
bool probe_multi_link(MultiLinkKind kind) {
  LIBBPF_OPTS(bpf_prog_load_opts, load_opts);
  load_opts.expected_attach_type = multi_link_attach_type(kind);
  OwnedFd prog(load_return_zero(BPF_PROG_TYPE_KPROBE, "rs_probe_kmulti", load_opts));
  if (!prog) return false;
  MultiLinkTargets targets;
  // Page 0 is never mapped (vm.mmap_min_addr).
  targets.addrs = reinterpret_cast<const unsigned long*>(alignof(unsigned long));
  targets.cnt = 1;
  OwnedFd link(create_multi_link(prog.get(), kind, targets));
  return link.get() != -EOPNOTSUPP && link.get() != -EINVAL;
}

int probe_multi_kprobe(KernelBtf&) { return probe_multi_link(MultiLinkKind::Entry); }

// 535a3692ba72 "bpf: Add support for kprobe session attach" (6.10).
int probe_kprobe_session(KernelBtf&) { return probe_multi_link(MultiLinkKind::Session); }

// The uprobe PMU (4.17) or tracefs uprobe_events, both CONFIG_UPROBE_EVENTS.
int probe_uprobes(KernelBtf&) {
  if (access("/sys/bus/event_source/devices/uprobe", F_OK) == 0) return 1;
  for (const std::string& dir : kDefaultTracefsDirs)
    if (access((dir + "/uprobe_events").c_str(), F_OK) == 0) return 1;
  return 0;
}

// 89ae89f53d20 "bpf: Add multi uprobe link" (6.6). A link with a path it cannot read: a kernel
// that has the link fails copying the path (EFAULT), one without it answers EINVAL (unknown
// attach type) or, built without CONFIG_UPROBES, EOPNOTSUPP. Nothing gets attached.
int probe_multi_uprobe(KernelBtf&) {
  LIBBPF_OPTS(bpf_prog_load_opts, load_opts);
  load_opts.expected_attach_type = BPF_TRACE_UPROBE_MULTI;
  OwnedFd prog(load_return_zero(BPF_PROG_TYPE_KPROBE, "rs_probe_umulti", load_opts));
  if (!prog) return 0;
  unsigned long offset = 0;
  LIBBPF_OPTS(bpf_link_create_opts, opts);
  // Page 0 is never mapped (vm.mmap_min_addr).
  opts.uprobe_multi.path = reinterpret_cast<const char*>(alignof(unsigned long));
  opts.uprobe_multi.offsets = &offset;
  opts.uprobe_multi.cnt = 1;
  OwnedFd link(bpf_link_create(prog.get(), 0, BPF_TRACE_UPROBE_MULTI, &opts));
  return link.get() == -EFAULT;
}

// The kprobe PMU (4.17) and tracefs kprobe_events both come with CONFIG_KPROBE_EVENTS, which
// needs CONFIG_KPROBES; single kprobes attach through either. sysfs is there: the BTF that
// retsnoop requires lives in it.
int probe_kprobes(KernelBtf&) {
  if (access("/sys/bus/event_source/devices/kprobe", F_OK) == 0) return 1;
  for (const std::string& dir : kDefaultTracefsDirs)
    if (access((dir + "/kprobe_events").c_str(), F_OK) == 0) return 1;
  return 0;
}

// Functions to attach the fentry probe to, the first one this kernel's BTF has: the kernel keeps
// bpf_fentry_test1 for BPF tests to attach to (only BPF_PROG_TEST_RUN calls it; it needs
// CONFIG_NET); do_nanosleep is in every kernel, and whoever sleeps while the probe is attached
// runs a program that only returns.
constexpr const char* kFentryProbeTargets[] = {"bpf_fentry_test1", "do_nanosleep"};

int fentry_probe_target(KernelBtf& btf, const char*& name) {
  for (const char* candidate : kFentryProbeTargets) {
    name = candidate;
    if (int id = btf.type_id(BTF_KIND_FUNC, candidate)) return id;
  }
  return 0;
}

// Loading a trampoline program proves little: building and installing the trampoline happens
// only at attach, and can fail there. So attach for real, for a moment. 1, or the -errno of the
// step that refused (-v -v says which).
int probe_fentry_attach(KernelBtf& btf) {
  const char* target = nullptr;
  LIBBPF_OPTS(bpf_prog_load_opts, load_opts);
  load_opts.expected_attach_type = BPF_TRACE_FENTRY;
  load_opts.attach_btf_id = fentry_probe_target(btf, target);
  if (!load_opts.attach_btf_id) return -ENOENT;
  OwnedFd prog(load_return_zero(BPF_PROG_TYPE_TRACING, "rs_probe_fentry", load_opts));
  if (!prog) {
    logf(LOG_DEBUG, "fentry probe: loading for %s: %s\n", target, errno_text(-prog.get()).c_str());
    return prog.get();
  }
  OwnedFd link(bpf_link_create(prog.get(), 0, BPF_TRACE_FENTRY, nullptr));
  if (!link)
    logf(LOG_DEBUG, "fentry probe: attaching to %s: %s\n", target, errno_text(-link.get()).c_str());
  return link ? 1 : link.get();
}

// available_filter_functions says what ftrace can attach to (discovery guesses from kallsyms and
// BTF without it), and kprobe events live next to it. 1, or the -errno of the first directory.
int probe_tracefs(KernelBtf&) {
  int err = 0;
  for (const std::string& dir : kDefaultTracefsDirs) {
    OwnedFd fd(open((dir + "/available_filter_functions").c_str(), O_RDONLY | O_CLOEXEC));
    if (fd) return 1;
    if (!err) err = errno;
  }
  return -err;
}

int probe_lockdown(KernelBtf&) { return read_lockdown(); }

int probe_task_btf(KernelBtf&) { return probe_helper(BPF_FUNC_get_current_task_btf); }

int probe_task_storage(KernelBtf&) {
  return libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, nullptr) > 0;
}

// Atomic operations that return the old value (fetch-add, exchange, compare-and-swap) came in
// 5.12; before, the verifier knows only the plain atomic add. A compare-and-swap on the stack
// loads where they exist.
int probe_atomic_fetch(KernelBtf&) {
  const bpf_insn prog[] = {
      {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 0},
      {BPF_STX | BPF_DW | BPF_MEM, BPF_REG_10, BPF_REG_1, -8, 0},
      {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
      {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1},
      {BPF_STX | BPF_DW | BPF_ATOMIC, BPF_REG_10, BPF_REG_1, -8, BPF_CMPXCHG},
      {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
      {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
  };
  char log[1024] = "";
  LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_level = 1, .log_size = sizeof(log), .log_buf = log);
  OwnedFd fd(
      bpf_prog_load(BPF_PROG_TYPE_KPROBE, "rs_probe_atomic", "GPL", prog, std::size(prog), &opts));
  if (!fd) logf(LOG_DEBUG, "atomics probe: %s: %s\n", errno_text(-fd.get()).c_str(), log);
  return fd ? 1 : 0;
}

// The rows below have no probe of their own that is cheaper than asking BTF for what the
// change introduced; each names the commit.

// 68ca5d4eebb8 "bpf: support BPF cookie in raw tracepoint (raw_tp, tp_btf) programs" (6.10).
int probe_raw_tp_cookie(KernelBtf& btf) {
  return btf.has_member(BTF_KIND_UNION, "bpf_attr", "raw_tracepoint.cookie");
}

// 2fcc82411e74 "bpf, x86: Attach a cookie to fentry/fexit/fmod_ret/lsm." (5.19) stores it in
// bpf_tramp_link; 7.x moved it into the link's trampoline node.
int probe_fentry_cookie(KernelBtf& btf) {
  return btf.has_member(BTF_KIND_STRUCT, "bpf_tramp_link", "cookie") ||
         btf.has_member(BTF_KIND_STRUCT, "bpf_tramp_link", "node.cookie");
}

// The "missed" counters of kprobe-multi and perf-event kprobe links, and kprobe programs'
// recursion_misses, came in one series (6.7: "bpf: Add missed value to kprobe_multi link info").
int probe_miss_counters(KernelBtf& btf) {
  return btf.has_member(BTF_KIND_STRUCT, "bpf_link_info", "kprobe_multi.missed");
}

// The x86 (5.15) and arm64 (5.17) stack unwinders learned to see through the kretprobe
// trampoline, keeping their place among its returns in unwind_state.kr_cur (arm64 moved it into
// kunwind_state in 6.9); before, a stack taken at a function's return ends in the trampoline.
int probe_kretprobe_stacks(KernelBtf& btf) {
  return btf.has_member(BTF_KIND_STRUCT, "unwind_state", "kr_cur") ||
         btf.has_member(BTF_KIND_STRUCT, "kunwind_state", "kr_cur");
}

// 7.0 gave bpf_session_cookie() and bpf_session_is_return() the program context as parameter.
int probe_session_kfunc_ctx(KernelBtf& btf) {
  const struct btf* b = btf.btf_of("");
  int id = b ? btf__find_by_name_kind(b, "bpf_session_cookie", BTF_KIND_FUNC) : -1;
  if (id <= 0) return 0;
  return btf_vlen(btf__type_by_id(b, btf__type_by_id(b, id)->type)) > 0;
}

// 7.2's tracing multi links (one fentry or fexit program on many functions) came with their
// attach types in the kernel's enum, whose name here vouches for the number kTraceFentryMulti
// gives it. An architecture may still lack them (arm64 7.2 refuses the link): a program that
// only returns is linked to the fentry probe's target for a moment.
int probe_fentry_multi(KernelBtf& btf) {
  if (!btf.has_enumerator("bpf_attach_type", "BPF_TRACE_FENTRY_MULTI")) return 0;
  const char* target = nullptr;
  uint32_t btf_id = fentry_probe_target(btf, target);
  if (!btf_id) return 0;
  LIBBPF_OPTS(bpf_prog_load_opts, load_opts);
  load_opts.expected_attach_type = kTraceFentryMulti;
  OwnedFd prog(load_return_zero(BPF_PROG_TYPE_TRACING, "rs_probe_fmulti", load_opts));
  if (!prog) return 0;
  uint64_t cookie = 0;
  OwnedFd link(
      create_tracing_multi_link(prog.get(), kTraceFentryMulti, {&btf_id, 1}, {&cookie, 1}));
  if (!link)
    logf(LOG_DEBUG, "fentry multi probe: linking to %s: %s\n", target,
         errno_text(-link.get()).c_str());
  return bool(link);
}

// Since sleepable programs came to uprobes (6.1), the program arrays of perf events are freed
// after an RCU tasks-trace grace period, which detaching a perf event waits for: one per probe
// with a perf event each, one per chunk with tracefs kprobe events.
int probe_perf_detach_wait(KernelBtf& btf) {
  return btf.type_id(BTF_KIND_FUNC, "bpf_prog_array_free_sleepable") > 0;
}

constexpr FeatureRow kRows[] = {
    {Feature::Ringbuf, "BPF ringbuf map supported", probe_ringbuf},
    {Feature::FuncIp, "bpf_get_func_ip() supported", probe_func_ip},
    {Feature::BranchSnapshot, "bpf_get_branch_snapshot() supported", probe_branch_snapshot},
    {Feature::BpfCookie, "BPF cookie supported", probe_cookie},
    {Feature::MultiKprobe, "multi-attach kprobe supported", probe_multi_kprobe},
    {Feature::KprobeSession, "kprobe session supported", probe_kprobe_session},
    {Feature::RawTpCookie, "raw tracepoint cookie supported", probe_raw_tp_cookie},
    {Feature::FentryCookie, "fentry/fexit cookie supported", probe_fentry_cookie},
    {Feature::ProbeMissCounters, "kprobe missed counters supported", probe_miss_counters},
    {Feature::Kprobes, "kprobes supported", probe_kprobes},
    {Feature::FentryAttach, "fentry/fexit attach supported", probe_fentry_attach, yes_or_errno},
    {Feature::Tracefs, "tracefs readable", probe_tracefs, yes_or_errno},
    {Feature::Lockdown, "kernel lockdown", probe_lockdown, lockdown_text},
    {Feature::TaskBtf, "bpf_get_current_task_btf() supported", probe_task_btf},
    {Feature::TaskStorage, "task local storage supported", probe_task_storage},
    {Feature::AtomicFetch, "BPF atomics with fetch supported", probe_atomic_fetch},
    {Feature::KretprobeStacks, "kretprobe stacks unwind", probe_kretprobe_stacks},
    {Feature::SessionKfuncCtx, "kprobe session kfuncs take the context", probe_session_kfunc_ctx},
    {Feature::MemcgAccounting, "BPF memory charged to memory cgroups", probe_memcg_accounting},
    {Feature::Uprobes, "uprobes supported", probe_uprobes},
    {Feature::MultiUprobe, "multi-attach uprobe supported", probe_multi_uprobe},
    {Feature::FentryMulti, "multi-attach fentry/fexit supported", probe_fentry_multi},
    {Feature::PerfDetachWait, "perf event detach waits for a grace period", probe_perf_detach_wait},
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
  f.btf_ = std::make_shared<KernelBtf>();
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
    out.append("\t")
        .append(row.label)
        .append(": ")
        .append(row.format(value(row.feature)))
        .append("\n");
  return out;
}

}  // namespace retsnoop
