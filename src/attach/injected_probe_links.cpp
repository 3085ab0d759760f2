#include "attach/injected_probe_links.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "attach/imm_mark.h"
#include "discovery/probe_keys.h"
#include "discovery/traceable.h"
#include "util/error.h"

namespace retsnoop {

namespace {

[[noreturn]] void refused(const ProbeSpec& p, const std::string& why) {
  throw UserError("probe '" + probe_label(p) + "': " + why);
}

// The kernel's reasons, in the words of what went wrong with the spec.
std::string kprobe_failure(const ProbeSpec& p, int err) {
  char off[32];
  std::snprintf(off, sizeof(off), "0x%llx", (unsigned long long)p.offset);
  if (err == EILSEQ)
    return std::string("offset ") + off + " is not on an instruction boundary of " + p.name;
  // Linux 6.5+ refuses a name that several static functions share.
  if (err == EADDRNOTAVAIL) return p.name + " names several kernel functions";
  if (err == ENOENT || err == EINVAL)
    return "the kernel cannot probe " + p.name + " (" + std::strerror(err) + ")";
  return std::string("kprobe attach failed: ") + std::strerror(err);
}

}  // namespace

InjectedProbeLinks::InjectedProbeLinks(TracerObject& obj, const ProbeTable& probes) : obj_(obj) {
  for (uint32_t id = 0; id < probes.size(); ++id) attach_one(probes[id], id);
}

void InjectedProbeLinks::detach() {
  links_.clear();
  raw_links_.clear();
  raw_progs_.clear();
}

void InjectedProbeLinks::attach_one(const ProbeSpec& p, uint32_t id) {
  switch (p.kind) {
    case InjectKind::Kprobe:
    case InjectKind::Kretprobe: return attach_kprobe(p, id);
    case InjectKind::Tracepoint: return attach_tracepoint(p, id);
    case InjectKind::RawTracepoint: break;
  }
  attach_raw_tracepoint(p, id);
}

void InjectedProbeLinks::attach_kprobe(const ProbeSpec& p, uint32_t id) {
  // Without cookies the program knows the probe by its address (TracerConfig::probe_keys).
  uint64_t cookie = obj_.has_cookies() ? id : 0;
  LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = cookie, .offset = p.offset,
              .retprobe = p.kind == InjectKind::Kretprobe);
  bpf_link* link = bpf_program__attach_kprobe_opts(obj_.probe_prog(p.kind), p.name.c_str(), &opts);
  if (!link) refused(p, kprobe_failure(p, errno));
  links_.emplace_back(link);
}

void InjectedProbeLinks::attach_tracepoint(const ProbeSpec& p, uint32_t id) {
  if (!obj_.has_cookies()) return attach_tracepoint_copy(p, id);
  // Without cookies the program knows the probe by its event type (TracerConfig::probe_keys).
  LIBBPF_OPTS(bpf_tracepoint_opts, opts, .bpf_cookie = obj_.has_cookies() ? id : 0);
  bpf_link* link = bpf_program__attach_tracepoint_opts(obj_.probe_prog(p.kind), p.category.c_str(),
                                                       p.name.c_str(), &opts);
  if (!link) refused(p, std::string("tracepoint attach failed: ") + std::strerror(errno));
  links_.emplace_back(link);
}

OwnedFd InjectedProbeLinks::load_copy(const ProbeSpec& p, uint32_t id, bpf_prog_type type) {
  bpf_program* tmpl = obj_.probe_prog(p.kind);
  std::vector<bpf_insn> insns = with_mark_replaced(
      {bpf_program__insns(tmpl), bpf_program__insn_cnt(tmpl)}, RS_PROBE_ID_MARK, id);
  OwnedFd prog(bpf_prog_load(type, bpf_program__name(tmpl), TracerObject::kLicense, insns.data(),
                             insns.size(), nullptr));
  if (!prog) refused(p, std::string("program copy rejected: ") + std::strerror(errno));
  return prog;
}

// Before 5.15 a perf event carries no cookie, and libbpf attaches only the programs of an
// object: the copy goes on the tracepoint's perf event by the kernel's own interface.
void InjectedProbeLinks::attach_tracepoint_copy(const ProbeSpec& p, uint32_t id) {
  std::optional<uint32_t> type = read_tp_event_type(kDefaultTracefsDirs, p.category, p.name);
  if (!type) refused(p, "cannot read its event type from tracefs");
  OwnedFd prog = load_copy(p, id, BPF_PROG_TYPE_TRACEPOINT);
  perf_event_attr attr = {};
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.size = sizeof(attr);
  attr.config = *type;
  attr.sample_period = 1;
  attr.wakeup_events = 1;
  // One event on CPU 0 runs the program for hits on every CPU, as libbpf's do.
  OwnedFd event(int(syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC)));
  if (!event) refused(p, std::string("tracepoint perf event failed: ") + std::strerror(errno));
  if (ioctl(event.get(), PERF_EVENT_IOC_SET_BPF, prog.get()) ||
      ioctl(event.get(), PERF_EVENT_IOC_ENABLE, 0))
    refused(p, std::string("tracepoint attach failed: ") + std::strerror(errno));
  raw_progs_.push_back(std::move(prog));
  raw_links_.push_back(std::move(event));
}

void InjectedProbeLinks::attach_raw_tracepoint(const ProbeSpec& p, uint32_t id) {
  OwnedFd prog = load_copy(p, id, BPF_PROG_TYPE_RAW_TRACEPOINT);
  OwnedFd link(bpf_raw_tracepoint_open(p.name.c_str(), prog.get()));
  if (!link) refused(p, std::string("raw tracepoint attach failed: ") + std::strerror(errno));
  raw_progs_.push_back(std::move(prog));
  raw_links_.push_back(std::move(link));
}

}  // namespace retsnoop
