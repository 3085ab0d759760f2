// --callees: a perf kprobe on each indirect call site of the walked functions, running
// bpf/indirect.bpf.c, which counts the targets the sites go to while a session is open: one
// program whose BPF cookie tells the site, or without cookies (before 5.15) one program copy per
// site. A site the kernel refuses (alternatives, jump labels, kprobe-blacklisted code) is skipped
// and counted. Owns every link, copy and perf event: destroying it takes them all off, and the
// kernel takes them off with the last descriptor when retsnoop dies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "attach/link_ptr.h"
#include "attach/parallel_attach.h"
#include "attach/probe_pmu.h"
#include "attach/prog_copy.h"
#include "attach/tracer_object.h"
#include "discovery/indirect_sites.h"
#include "discovery/indirect_targets.h"
#include "util/owned_fd.h"

struct rs_indirect;

namespace retsnoop {

struct IndirectProbesConfig {
  SessionMaps maps;
  bool atomic_fetch = true;  // the tracer keeps session_bits (KernelCaps::atomic_fetch)
  bool task_btf = true;      // KernelCaps::task_btf
  bool cookies = true;       // kprobes take BPF cookies (5.15+), else one program copy per site
  std::span<const CallerSite> sites;
};

class IndirectProbes {
 public:
  // Loads the object and attaches a probe per site, the site's index and operand as its BPF
  // cookie or its program copy's mark. A load failure or a missing kprobe PMU leaves it holding
  // nothing, with a -v message.
  explicit IndirectProbes(const IndirectProbesConfig& cfg);
  ~IndirectProbes();
  IndirectProbes(const IndirectProbes&) = delete;
  IndirectProbes& operator=(const IndirectProbes&) = delete;

  size_t attached() const { return links_.size() + copies_.size(); }
  size_t refused() const { return refused_; }
  // The (site, target) pairs counted so far; each site indexes cfg.sites.
  std::vector<SeenTarget> seen() const;
  // Targets not counted: the map of pairs was full.
  uint64_t dropped() const;
  void detach() {
    links_.clear();
    copies_.clear();
  }

 private:
  bool load(const IndirectProbesConfig& cfg);
  // The program on the kprobe event of the site number index: with its cookie, or as a copy of
  // t with its mark, named where (caller+offset) in -vv's load line.
  AttachError attach_cookie(const CallerSite& s, uint32_t index, OwnedFd& event);
  AttachError attach_copy(const ProgTemplate& t, const CallerSite& s, uint32_t index,
                          const std::string& where, OwnedFd& event);

  rs_indirect* skel_ = nullptr;
  std::vector<LinkPtr> links_;
  std::vector<CopyProbe> copies_;
  size_t refused_ = 0;
};

// The BPF cookie of site number index: see RS_INDIRECT_* in bpf/abi.h.
uint64_t indirect_cookie(const IndirectSite& site, uint32_t index);

// The -v line on how many sites took a probe and how many the kernel refused.
std::string indirect_probed_line(size_t attached, size_t refused, bool cookies);

}  // namespace retsnoop
