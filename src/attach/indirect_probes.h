// --callees: a perf kprobe on each indirect call site of the walked functions, running
// bpf/indirect.bpf.c, which counts the targets the sites go to while a session is open. A site
// the kernel refuses (alternatives, jump labels, kprobe-blacklisted code) is skipped and
// counted. Owns every link: destroying it takes them all off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "attach/link_ptr.h"
#include "attach/tracer_object.h"
#include "discovery/indirect_sites.h"
#include "discovery/indirect_targets.h"

struct rs_indirect;

namespace retsnoop {

struct IndirectProbesConfig {
  SessionMaps maps;
  bool atomic_fetch = true;  // the tracer keeps session_bits (KernelCaps::atomic_fetch)
  bool task_btf = true;      // KernelCaps::task_btf
  std::span<const CallerSite> sites;
};

class IndirectProbes {
 public:
  // Loads the object and attaches a probe per site, the site's index and operand as its BPF
  // cookie (which the caller checked the kernel has). A load failure or a missing kprobe PMU
  // leaves it holding nothing, with a -v message.
  explicit IndirectProbes(const IndirectProbesConfig& cfg);
  ~IndirectProbes();
  IndirectProbes(const IndirectProbes&) = delete;
  IndirectProbes& operator=(const IndirectProbes&) = delete;

  size_t attached() const { return links_.size(); }
  size_t refused() const { return refused_; }
  // The (site, target) pairs counted so far; each site indexes cfg.sites.
  std::vector<SeenTarget> seen() const;
  // Targets not counted: the map of pairs was full.
  uint64_t dropped() const;
  void detach() { links_.clear(); }

 private:
  bool load(const IndirectProbesConfig& cfg);

  rs_indirect* skel_ = nullptr;
  std::vector<LinkPtr> links_;
  size_t refused_ = 0;
};

// The BPF cookie of site number index: see RS_INDIRECT_* in bpf/abi.h.
uint64_t indirect_cookie(const IndirectSite& site, uint32_t index);

}  // namespace retsnoop
