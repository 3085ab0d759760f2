#include "attach/indirect_probes.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attach/imm_mark.h"
#include "attach/load_diagnosis.h"
#include "attach/probe_pmu.h"
#include "bpf/abi.h"
#include "rs_indirect.skel.h"
#include "util/log.h"

namespace retsnoop {

uint64_t indirect_cookie(const IndirectSite& site, uint32_t index) {
  return uint64_t(uint32_t(site.disp)) << 32 | uint64_t(index & 0xffff) << 16 |
         uint64_t(site.mem ? 1 : 0) << 8 | site.reg;
}

namespace {

// "caller+0xOFFSET": a site in messages.
std::string site_name(const CallerSite& s) {
  char offset[24];
  std::snprintf(offset, sizeof(offset), "+0x%llx",
                (unsigned long long)(s.site.addr - s.caller_addr));
  return s.caller + offset;
}

}  // namespace

std::string indirect_probed_line(size_t attached, size_t refused, bool cookies) {
  return "--callees: " + std::to_string(attached) + " indirect call sites probed" +
         (cookies ? "" : " (one program per site)") + ", " + std::to_string(refused) +
         " refused by the kernel\n";
}

IndirectProbes::IndirectProbes(const IndirectProbesConfig& cfg) {
  std::optional<int> pmu_type = kprobe_pmu_type();
  if (!pmu_type) {
    logf(LOG_INFO, "--callees: indirect call sites not probed: the kernel has no kprobe PMU\n");
    return;
  }
  if (!load(cfg)) return;
  std::optional<ProgTemplate> copies;
  if (!cfg.cookies) copies = template_of(skel_->progs.indirect_site_by_mark, "--callees");
  for (uint32_t i = 0; i < cfg.sites.size(); ++i) {
    const CallerSite& s = cfg.sites[i];
    std::string where = site_name(s);
    OwnedFd event = open_kprobe_at(*pmu_type, s.site.addr);
    AttachError e = !event   ? AttachError{-errno, "kprobe refused"}
                    : copies ? attach_copy(*copies, s, i, where, event)
                             : attach_cookie(s, i, event);
    if (e.err) {
      logf(LOG_DEBUG, "--callees: no probe at %s: %s: %s\n", where.c_str(), e.what.c_str(),
           std::strerror(-e.err));
      ++refused_;
    }
  }
  logf(LOG_INFO, "%s", indirect_probed_line(attached(), refused_, cfg.cookies).c_str());
}

AttachError IndirectProbes::attach_cookie(const CallerSite& s, uint32_t index, OwnedFd& event) {
  LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = indirect_cookie(s.site, index));
  bpf_link* link =
      bpf_program__attach_perf_event_opts(skel_->progs.indirect_site, event.get(), &opts);
  if (!link) return {-errno, "attach failed"};
  event.release();  // the link owns it now
  links_.emplace_back(link);
  return {};
}

AttachError IndirectProbes::attach_copy(const ProgTemplate& t, const CallerSite& s, uint32_t index,
                                        const std::string& where, OwnedFd& event) {
  std::vector<bpf_insn> insns =
      with_mark_replaced(t.insns, RS_INDIRECT_MARK, indirect_cookie(s.site, index));
  CopyProbe copy;
  if (AttachError e = load_copy(t, insns, where, {}, copy.prog); e.err) return e;
  if (int err = attach_copy_to(event.get(), copy.prog.get())) return {err, "attach failed"};
  copy.event = std::move(event);
  copies_.push_back(std::move(copy));
  return {};
}

IndirectProbes::~IndirectProbes() {
  detach();
  rs_indirect__destroy(skel_);
}

// Only the program this kernel can load: before 5.15 indirect_site's cookie helper fails it.
bool IndirectProbes::load(const IndirectProbesConfig& cfg) {
  skel_ = rs_indirect__open();
  if (!skel_) return false;
  bpf_program__set_autoload(skel_->progs.indirect_site, cfg.cookies);
  bpf_program__set_autoload(skel_->progs.indirect_site_by_mark, !cfg.cookies);
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
