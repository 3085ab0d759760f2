#include "attach/indirect_probes.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "attach/load_diagnosis.h"
#include "attach/probe_pmu.h"
#include "rs_indirect.skel.h"
#include "util/log.h"

namespace retsnoop {

uint64_t indirect_cookie(const IndirectSite& site, uint32_t index) {
  return uint64_t(uint32_t(site.disp)) << 32 | uint64_t(index & 0xffff) << 16 |
         uint64_t(site.mem ? 1 : 0) << 8 | site.reg;
}

IndirectProbes::IndirectProbes(const IndirectProbesConfig& cfg) {
  std::optional<int> pmu_type = kprobe_pmu_type();
  if (!pmu_type) {
    logf(LOG_INFO, "--callees: indirect call sites not probed: the kernel has no kprobe PMU\n");
    return;
  }
  if (!load(cfg)) return;
  for (uint32_t i = 0; i < cfg.sites.size(); ++i) {
    const CallerSite& s = cfg.sites[i];
    OwnedFd event = open_kprobe_at(*pmu_type, s.site.addr);
    LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = indirect_cookie(s.site, i));
    bpf_link* link =
        event ? bpf_program__attach_perf_event_opts(skel_->progs.indirect_site, event.get(), &opts)
              : nullptr;
    if (!link) {
      logf(LOG_DEBUG, "--callees: no probe at %s+0x%llx: %s\n", s.caller.c_str(),
           (unsigned long long)(s.site.addr - s.caller_addr), std::strerror(errno));
      ++refused_;
      continue;
    }
    event.release();  // the link owns it now
    links_.emplace_back(link);
  }
  logf(LOG_INFO, "--callees: %zu indirect call sites probed, %zu refused by the kernel\n",
       links_.size(), refused_);
}

IndirectProbes::~IndirectProbes() {
  links_.clear();
  rs_indirect__destroy(skel_);
}

bool IndirectProbes::load(const IndirectProbesConfig& cfg) {
  skel_ = rs_indirect__open();
  if (!skel_) return false;
  auto* ro = skel_->rodata;
  ro->bits_kept = cfg.atomic_fetch;
  ro->has_task_btf = cfg.task_btf;
  ro->session_slots = cfg.maps.session_slots;
  ro->cpu_bits = cfg.maps.cpu_bits;
  LibbpfWarnings warnings;  // an optional part: its log only with -vv
  bool ok = !bpf_map__reuse_fd(skel_->maps.sessions, cfg.maps.sessions_fd) &&
            !bpf_map__reuse_fd(skel_->maps.session_bits, cfg.maps.session_bits_fd) &&
            !bpf_map__reuse_fd(skel_->maps.rb, cfg.maps.ringbuf_fd) && !rs_indirect__load(skel_);
  if (ok) return true;
  logf(LOG_DEBUG, "--callees: indirect probes load failed:\n%s", warnings.text().c_str());
  logf(LOG_INFO, "--callees: indirect call sites not probed: the kernel refused their program\n");
  rs_indirect__destroy(skel_);
  skel_ = nullptr;
  return false;
}

std::vector<SeenTarget> IndirectProbes::seen() const {
  std::vector<SeenTarget> out;
  if (!skel_) return out;
  int fd = bpf_map__fd(skel_->maps.indirect_seen);
  rs_indirect_key key{};
  rs_indirect_key next{};
  const void* prev = nullptr;
  while (bpf_map_get_next_key(fd, prev, &next) == 0) {
    uint64_t count = 0;
    if (bpf_map_lookup_elem(fd, &next, &count) == 0) out.push_back({next.site, next.target, count});
    key = next;
    prev = &key;
  }
  return out;
}

uint64_t IndirectProbes::dropped() const { return skel_ ? skel_->bss->indirect_dropped : 0; }

}  // namespace retsnoop
