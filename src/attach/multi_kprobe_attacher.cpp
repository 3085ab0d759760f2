// Multi-kprobes (kernel 5.18+, CONFIG_FPROBE): one entry and one return link for all functions,
// by address with the function id as cookie.
#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "attach/attacher.h"
#include "attach/probe_misses.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

class MultiKprobeAttacher : public Attacher {
 public:
  explicit MultiKprobeAttacher(TracerObject& obj) : obj_(obj) {}
  ~MultiKprobeAttacher() override { detach(nullptr); }

  const char* name() const override { return "multi-kprobe"; }

  AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) override {
    std::vector<unsigned long> addrs;
    std::vector<__u64> cookies;
    std::vector<const char*> names;
    for (size_t id = 0; id < funcs.size(); ++id) {
      addrs.push_back(funcs[id].addr);
      cookies.push_back(id);
      names.push_back(funcs[id].name.c_str());
    }
    attach_batched(obj_.entry_prog(), false, addrs, names, cookies, opts);
    attach_batched(obj_.exit_prog(), true, addrs, names, cookies, opts);
    AttachResult res;
    res.interrupted = opts.should_stop();
    res.attached = res.interrupted ? 0 : funcs.size();
    return res;
  }

  size_t probe_count() const override {
    size_t n = 0;
    for (const auto& l : links_) n += l.probes;
    return n;
  }

  uint64_t missed_hits() const override {
    uint64_t n = prog_recursion_misses(bpf_program__fd(obj_.entry_prog())) +
                 prog_recursion_misses(bpf_program__fd(obj_.exit_prog()));
    for (const auto& l : links_) n += link_missed_hits(bpf_link__fd(l.link));
    return n;
  }

  void detach(ProgressMeter* progress) override {
    for (const auto& l : links_) {
      bpf_link__destroy(l.link);
      if (progress) progress->advance(l.probes);
    }
    links_.clear();
  }

 private:
  // Kernels 6.7-6.11 fail large kretprobe-multi attaches with ENOMEM (the return-probe
  // shadow stack is sized per attach); smaller batches go through, so halve and retry.
  void attach_batched(bpf_program* prog, bool retprobe, const std::vector<unsigned long>& addrs,
                      const std::vector<const char*>& names, const std::vector<__u64>& cookies,
                      const AttachOpts& opts) {
    size_t batch = addrs.size();
    for (size_t start = 0; start < addrs.size();) {
      if (opts.should_stop()) return;
      size_t cnt = std::min(batch, addrs.size() - start);
      int err = attach_range(prog, retprobe, addrs, names, cookies, start, cnt);
      if (err == -ENOMEM && cnt > 1) {
        batch = cnt / 2;
        logf(LOG_DEBUG, "multi-kprobe: ENOMEM, retrying with batches of %zu\n", batch);
        continue;
      }
      if (err) {
        detach(nullptr);
        throw UserError(std::string("multi-kprobe attach failed: ") + std::strerror(-err),
                        "try -K (single kprobes) or --debug multi-kprobe");
      }
      start += cnt;
      if (opts.progress) opts.progress->advance(cnt);
    }
  }

  int attach_range(bpf_program* prog, bool retprobe, const std::vector<unsigned long>& addrs,
                   const std::vector<const char*>& names, const std::vector<__u64>& cookies,
                   size_t start, size_t cnt) {
    LIBBPF_OPTS(bpf_kprobe_multi_opts, mopts);
    mopts.addrs = addrs.data() + start;
    mopts.cookies = cookies.data() + start;
    mopts.cnt = cnt;
    mopts.retprobe = retprobe;
    bpf_link* link = bpf_program__attach_kprobe_multi_opts(prog, nullptr, &mopts);
    if (!link) {
      int err = -errno;
      logf(LOG_DEBUG, "multi-kprobe by address failed (%s), retrying by name\n", std::strerror(-err));
      mopts.addrs = nullptr;
      mopts.syms = const_cast<const char**>(names.data() + start);
      link = bpf_program__attach_kprobe_multi_opts(prog, nullptr, &mopts);
      if (!link) return err == -ENOMEM ? err : -errno;
    }
    links_.push_back({link, cnt});
    return 0;
  }

  struct Link {
    bpf_link* link;
    size_t probes;  // functions it covers
  };

  TracerObject& obj_;
  std::vector<Link> links_;
};

}  // namespace

std::unique_ptr<Attacher> make_multi_kprobe_attacher(TracerObject& obj) {
  return std::make_unique<MultiKprobeAttacher>(obj);
}

}  // namespace retsnoop
