// Single kprobes: one kprobe and one kretprobe per function, by address, cookie = function id.
#include <bpf/libbpf.h>

#include <cerrno>
#include <vector>

#include "attach/attacher.h"
#include "attach/link_ptr.h"
#include "attach/parallel_attach.h"
#include "attach/probe_misses.h"
#include "util/error.h"

namespace retsnoop {

namespace {

struct ProbePair {
  LinkPtr entry;
  LinkPtr exit;
};

class KprobeAttacher : public Attacher {
 public:
  explicit KprobeAttacher(TracerObject& obj) : obj_(obj) {}
  ~KprobeAttacher() override { detach_or_log(*this); }

  const char* name() const override { return "kprobe"; }

  AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) override {
    pairs_.resize(funcs.size());
    AttachResult res =
        attach_each(funcs, opts, [&](size_t id) { return attach_one(funcs[id], id); });
    std::erase_if(pairs_, [](const ProbePair& p) { return !p.exit; });
    if (res.attached == 0 && !res.interrupted)
      throw UserError("no function could be attached with kprobes");
    return res;
  }

  size_t probe_count() const override { return 2 * pairs_.size(); }

  uint64_t missed_hits() const override {
    uint64_t n = obj_.recursion_misses();
    for (const auto& p : pairs_)
      n += link_missed_hits(bpf_link__fd(p.entry.get())) +
           link_missed_hits(bpf_link__fd(p.exit.get()));
    return n;
  }

  void detach(ProgressMeter* progress) override {
    if (pairs_.empty()) return;
    detach_each(pairs_.size(), progress, [&](size_t i) {
      pairs_[i].entry.reset();
      pairs_[i].exit.reset();
    });
    pairs_.clear();
  }

 private:
  AttachError attach_one(const FuncInfo& fn, size_t id) {
    // Without cookies the programs find the function by its address.
    LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = obj_.has_cookies() ? id : 0,
                .offset = fn.addr);
    // A NULL name with an absolute offset makes the kernel probe that exact address, which
    // keeps static functions that share a name apart. The kretprobe goes first: probes on one
    // address run newest first, so the entry program then runs before the kretprobe replaces
    // the return address, and a stack taken at the entry (5.10) unwinds past the function.
    opts.retprobe = true;
    LinkPtr exit(bpf_program__attach_kprobe_opts(obj_.exit_prog(), nullptr, &opts));
    if (!exit) return {-errno, "kretprobe attach failed"};
    opts.retprobe = false;
    LinkPtr entry(bpf_program__attach_kprobe_opts(obj_.entry_prog(), nullptr, &opts));
    if (!entry) return {-errno, "kprobe attach failed"};
    pairs_[id] = ProbePair{std::move(entry), std::move(exit)};
    return {};
  }

  TracerObject& obj_;
  std::vector<ProbePair> pairs_;  // indexed by function id while attaching, then only attached
};

}  // namespace

std::unique_ptr<Attacher> make_kprobe_attacher(TracerObject& obj) {
  return std::make_unique<KprobeAttacher>(obj);
}

}  // namespace retsnoop
