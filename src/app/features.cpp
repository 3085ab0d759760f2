#include "app/features.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <cerrno>

namespace retsnoop {

namespace {

struct FeatureDesc {
  Feature feature;
  const char* label;
  bool (*probe)();
};

bool probe_helper(bpf_func_id helper) {
  return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, helper, nullptr) > 0;
}

bool probe_ringbuf() { return libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, nullptr) > 0; }
bool probe_func_ip() { return probe_helper(BPF_FUNC_get_func_ip); }
bool probe_branch_snapshot() { return probe_helper(BPF_FUNC_get_branch_snapshot); }
bool probe_cookie() { return probe_helper(BPF_FUNC_get_attach_cookie); }

// The multi-kprobe link type exists in the UAPI since 5.18, but kernels built without
// CONFIG_FPROBE (Debian's 6.1) answer EOPNOTSUPP. Asking for a symbol that cannot exist tells
// the two apart without attaching anything: a supporting kernel fails the lookup instead.
bool probe_multi_kprobe() {
  const bpf_insn prog[] = {
      {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
      {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
  };
  LIBBPF_OPTS(bpf_prog_load_opts, load_opts);
  load_opts.expected_attach_type = BPF_TRACE_KPROBE_MULTI;
  int prog_fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "rs_probe_kmulti", "GPL", prog, 2, &load_opts);
  if (prog_fd < 0) return false;
  const char* syms[] = {"rs_no_such_function_for_probing"};
  LIBBPF_OPTS(bpf_link_create_opts, link_opts);
  link_opts.kprobe_multi.syms = syms;
  link_opts.kprobe_multi.cnt = 1;
  int link_fd = bpf_link_create(prog_fd, 0, BPF_TRACE_KPROBE_MULTI, &link_opts);
  int err = link_fd < 0 ? errno : 0;
  if (link_fd >= 0) close(link_fd);
  close(prog_fd);
  return err != EOPNOTSUPP && err != EINVAL;
}

const FeatureDesc kFeatures[] = {
    {Feature::Ringbuf, "BPF ringbuf map supported", probe_ringbuf},
    {Feature::FuncIp, "bpf_get_func_ip() supported", probe_func_ip},
    {Feature::BranchSnapshot, "bpf_get_branch_snapshot() supported", probe_branch_snapshot},
    {Feature::BpfCookie, "BPF cookie supported", probe_cookie},
    {Feature::MultiKprobe, "multi-attach kprobe supported", probe_multi_kprobe},
};

}  // namespace

Features Features::detect() {
  Features f;
  for (const auto& d : kFeatures) f.present_[static_cast<int>(d.feature)] = d.probe();
  return f;
}

std::string Features::report() const {
  std::string out = "Feature detection:\n";
  for (const auto& d : kFeatures) {
    out += '\t';
    out += d.label;
    out += has(d.feature) ? ": yes\n" : ": no\n";
  }
  return out;
}

}  // namespace retsnoop
