// Multi-kprobes (kernel 5.18+, CONFIG_FPROBE): every function in a few links, by address with the
// function id as cookie. Kernels with kprobe sessions (6.10+) get one session link, the others an
// entry and a return link. Two links put two ftrace users on every call site, and the second
// costs more than the first because it turns each site into a shared one, whose every call then
// walks a list of ftrace users; attaching and detaching both take more than twice as long
// (bench/attach.sh compares them).
#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "attach/attacher.h"
#include "attach/kprobe_multi_link.h"
#include "attach/probe_misses.h"
#include "util/error.h"
#include "util/fault_injection.h"
#include "util/log.h"
#include "util/owned_fd.h"

namespace retsnoop {

namespace {

const char* kind_name(MultiLinkKind kind) {
  switch (kind) {
    case MultiLinkKind::Entry: return "entry";
    case MultiLinkKind::Return: return "return";
    case MultiLinkKind::Session: break;
  }
  return "session";
}

// The arrays every link takes a slice of.
struct Targets {
  std::vector<unsigned long> addrs;
  std::vector<const char*> names;
  std::vector<__u64> cookies;

  explicit Targets(const FuncTable& funcs) {
    for (size_t id = 0; id < funcs.size(); ++id) {
      addrs.push_back(funcs[id].addr);
      names.push_back(funcs[id].name.c_str());
      cookies.push_back(id);
    }
  }

  // Functions [start, start + cnt) by address.
  MultiLinkTargets slice(size_t start, size_t cnt) const {
    MultiLinkTargets s;
    s.addrs = addrs.data() + start;
    s.cookies = cookies.data() + start;
    s.cnt = cnt;
    return s;
  }
};

class MultiKprobeAttacher : public Attacher {
 public:
  explicit MultiKprobeAttacher(TracerObject& obj) : obj_(obj) {}
  ~MultiKprobeAttacher() override { detach_or_log(*this); }

  const char* name() const override { return "multi-kprobe"; }

  AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) override {
    log_level_ = opts.debug ? LOG_NOTICE : LOG_DEBUG;
    Targets targets(funcs);
    if (obj_.kprobe_session()) {
      attach_batched(obj_.entry_prog(), MultiLinkKind::Session, targets, opts);
    } else {
      attach_batched(obj_.entry_prog(), MultiLinkKind::Entry, targets, opts);
      attach_batched(obj_.exit_prog(), MultiLinkKind::Return, targets, opts);
    }
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
    uint64_t n = obj_.recursion_misses();
    for (const auto& l : links_) n += link_missed_hits(l.fd.get());
    return n;
  }

  void detach(ProgressMeter* progress) override {
    for (auto& l : links_) {
      l.fd.reset();
      if (progress) progress->advance(l.probes);
    }
    bool had_links = !links_.empty();
    links_.clear();
    if (had_links) inject_fault(FaultPoint::Detach);
  }

 private:
  // Kernels 6.7-6.11 fail large return and session links with ENOMEM: the pool of return-probe
  // nodes (functions x CPUs x 2) is allocated in one piece per link. Smaller batches go through,
  // so halve and retry.
  void attach_batched(bpf_program* prog, MultiLinkKind kind, const Targets& targets,
                      const AttachOpts& opts) {
    size_t total = targets.addrs.size(), batch = total;
    size_t probes_per_func = kind == MultiLinkKind::Session ? 2 : 1;
    for (size_t start = 0; start < total;) {
      if (opts.should_stop()) return;
      size_t cnt = std::min(batch, total - start);
      int err =
          attach_range(bpf_program__fd(prog), kind, targets, start, cnt, cnt * probes_per_func);
      if (err == -ENOMEM && cnt > 1) {
        batch = cnt / 2;
        logf(log_level_, "multi-kprobe: ENOMEM, retrying with batches of %zu\n", batch);
        continue;
      }
      if (err) {
        if (opts.debug) report_refused(bpf_program__fd(prog), kind, targets, start, cnt);
        detach(nullptr);
        throw UserError(
            std::string("multi-kprobe ") + kind_name(kind) + " link failed: " + std::strerror(-err),
            "try -K (single kprobes)");
      }
      if (opts.progress) opts.progress->advance(cnt * probes_per_func);
      inject_fault(FaultPoint::Attach);
      start += cnt;
    }
  }

  // By address, else by name: a kernel that cannot resolve some address may know the name.
  int attach_range(int prog_fd, MultiLinkKind kind, const Targets& targets, size_t start,
                   size_t cnt, size_t probes) {
    auto t0 = std::chrono::steady_clock::now();
    MultiLinkTargets slice = targets.slice(start, cnt);
    int fd = create_multi_link(prog_fd, kind, slice);
    if (fd == -ENOMEM) return fd;  // by name needs the same memory
    if (fd < 0) {
      logf(log_level_, "multi-kprobe: cannot attach by address (%s), retrying by name\n",
           std::strerror(-fd));
      slice.addrs = nullptr;
      slice.syms = targets.names.data() + start;
      fd = create_multi_link(prog_fd, kind, slice);
      if (fd < 0) return fd;
    }
    links_.push_back({OwnedFd(fd), probes});
    logf(log_level_, "multi-kprobe: %s link for %zu functions in %.3f s\n", kind_name(kind), cnt,
         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
  }

  // A throwaway link over the slice, by address as attach_range() tries first: whether the kernel
  // takes it. ENOMEM is the size of the slice, not one of its functions.
  static bool refused(int prog_fd, MultiLinkKind kind, const Targets& targets, size_t start,
                      size_t cnt) {
    OwnedFd fd(create_multi_link(prog_fd, kind, targets.slice(start, cnt)));
    return fd.get() < 0 && fd.get() != -ENOMEM;
  }

  // Halves a refused slice down to the functions that make the kernel refuse it: a failing
  // function costs about log2(cnt) links to find.
  void report_refused(int prog_fd, MultiLinkKind kind, const Targets& targets, size_t start,
                      size_t cnt) {
    if (cnt == 1) {
      logf(LOG_WARN, "multi-kprobe: the kernel refuses %s link on %s\n", kind_name(kind),
           targets.names[start]);
      return;
    }
    size_t half = cnt / 2;
    if (refused(prog_fd, kind, targets, start, half))
      report_refused(prog_fd, kind, targets, start, half);
    if (refused(prog_fd, kind, targets, start + half, cnt - half))
      report_refused(prog_fd, kind, targets, start + half, cnt - half);
  }

  struct Link {
    OwnedFd fd;
    size_t probes;  // entry and exit probes it holds
  };

  TracerObject& obj_;
  std::vector<Link> links_;
  int log_level_ = LOG_DEBUG;
};

}  // namespace

std::unique_ptr<Attacher> make_multi_kprobe_attacher(TracerObject& obj) {
  return std::make_unique<MultiKprobeAttacher>(obj);
}

}  // namespace retsnoop
