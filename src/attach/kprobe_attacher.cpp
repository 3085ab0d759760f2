// Single kprobes: one kprobe and one kretprobe per function, by address, cookie = function id.
#include <bpf/libbpf.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include "attach/attacher.h"
#include "attach/parallel.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

constexpr size_t kAttachThreads = 16;

struct ProbePair {
  bpf_link* entry = nullptr;
  bpf_link* exit = nullptr;
};

class KprobeAttacher : public Attacher {
 public:
  explicit KprobeAttacher(TracerObject& obj) : obj_(obj) {}
  ~KprobeAttacher() override { detach(); }

  const char* name() const override { return "kprobe"; }

  AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) override {
    links_.assign(funcs.size(), ProbePair{});
    std::atomic<size_t> skipped{0};
    std::atomic<bool> fatal{false};
    std::string fatal_msg;
    std::mutex msg_mu;
    parallel_for(funcs.size(), kAttachThreads, [&](size_t id) {
      if (opts.should_stop() || fatal.load()) return;
      int err = attach_one(funcs[id], id);
      if (!err) return;
      std::string msg = "function '" + funcs[id].name + "': kprobe attach failed: " + std::strerror(-err);
      if (opts.skip_failures) {
        logf(LOG_INFO, "skipping %s\n", msg.c_str());
        ++skipped;
        return;
      }
      std::lock_guard lock(msg_mu);
      fatal = true;
      fatal_msg = msg;
    });
    if (fatal) {
      detach();
      throw UserError(fatal_msg);
    }
    AttachResult res;
    res.skipped = skipped;
    res.interrupted = opts.should_stop();
    for (const auto& p : links_) res.attached += p.entry && p.exit;
    if (res.attached == 0 && !res.interrupted) {
      detach();
      throw UserError("no function could be attached with kprobes");
    }
    return res;
  }

  void detach() override {
    parallel_for(links_.size(), kAttachThreads, [&](size_t i) {
      bpf_link__destroy(links_[i].entry);
      bpf_link__destroy(links_[i].exit);
    });
    links_.clear();
  }

 private:
  int attach_one(const FuncInfo& fn, size_t id) {
    LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = id, .offset = fn.addr);
    // A NULL name with an absolute offset makes the kernel probe that exact address, which
    // keeps static functions that share a name apart.
    bpf_link* entry = bpf_program__attach_kprobe_opts(obj_.entry_prog(), nullptr, &opts);
    if (!entry) return -errno;
    opts.retprobe = true;
    bpf_link* exit = bpf_program__attach_kprobe_opts(obj_.exit_prog(), nullptr, &opts);
    if (!exit) {
      int err = -errno;
      bpf_link__destroy(entry);
      return err;
    }
    links_[id] = ProbePair{entry, exit};
    return 0;
  }

  TracerObject& obj_;
  std::vector<ProbePair> links_;
};

}  // namespace

std::unique_ptr<Attacher> make_kprobe_attacher(TracerObject& obj) {
  return std::make_unique<KprobeAttacher>(obj);
}

}  // namespace retsnoop
