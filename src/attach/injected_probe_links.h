// Injected probes (-J): kprobes and kretprobes as perf kprobes, tracepoints as perf tracepoint
// events, both with the probe id as BPF cookie; raw tracepoints through BPF_RAW_TRACEPOINT_OPEN,
// one program copy each. Without cookies (before 5.15) kprobes are known by their address
// (TracerConfig::probe_keys) and tracepoints get program copies too. Owns every link:
// destroying it takes them all off.
#pragma once

#include <linux/bpf.h>

#include <cstddef>
#include <vector>

#include "attach/link_ptr.h"
#include "attach/tracer_object.h"
#include "discovery/probe_spec.h"
#include "util/owned_fd.h"

namespace retsnoop {

class InjectedProbeLinks {
 public:
  // Attaches every probe of the table, whose index is the probe id; throws UserError naming the
  // probe the kernel refused, after taking off those already attached.
  InjectedProbeLinks(TracerObject& obj, const ProbeTable& probes);

  size_t count() const { return links_.size() + raw_links_.size(); }
  void detach();

 private:
  void attach_one(const ProbeSpec& p, uint32_t id);
  void attach_kprobe(const ProbeSpec& p, uint32_t id);
  void attach_tracepoint(const ProbeSpec& p, uint32_t id);
  void attach_tracepoint_copy(const ProbeSpec& p, uint32_t id);
  void attach_raw_tracepoint(const ProbeSpec& p, uint32_t id);
  // A copy of the probe kind's template program with id in place of its mark.
  OwnedFd load_copy(const ProbeSpec& p, uint32_t id, bpf_prog_type type);

  TracerObject& obj_;
  std::vector<LinkPtr> links_;
  // Declared after the programs: links go first, so no program stays attached to a tracepoint.
  std::vector<OwnedFd> raw_progs_;
  std::vector<OwnedFd> raw_links_;
};

}  // namespace retsnoop
