// Single kprobes as tracefs kprobe events. Functions go in chunks; a chunk is one entry event and
// one return event holding a probe per function, each attached to the tracer with one perf event,
// and the programs learn the function from its address (TracerConfig::kprobe_events). Attach and
// detach then cost a few grace periods per chunk instead of several per function.
#include <bpf/libbpf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <span>
#include <vector>

#include "attach/attacher.h"
#include "attach/kprobe_events.h"
#include "attach/link_ptr.h"
#include "attach/parallel.h"
#include "attach/parallel_attach.h"
#include "attach/run_registry.h"
#include "bpf/abi.h"
#include "discovery/kallsyms.h"
#include "discovery/traceable.h"
#include "util/error.h"
#include "util/fault_injection.h"
#include "util/log.h"
#include "util/phase_timer.h"

namespace retsnoop {

namespace {

// Enough chunks for progress and Ctrl-C to act between them, few enough that their own cost
// (one perf event and its grace periods per event) stays small next to the probes'. Arming a
// chunk is one uninterruptible syscall that waits for RCU grace periods per function, so
// kMaxChunk bounds how long Ctrl-C waits.
constexpr size_t kTargetChunks = 16;
constexpr size_t kMinChunk = 64;
constexpr size_t kMaxChunk = 256;

size_t chunk_size(size_t nr_funcs) {
  return std::clamp((nr_funcs + kTargetChunks - 1) / kTargetChunks, kMinChunk, kMaxChunk);
}

// Function ids by address, entry functions first. Arming in address order patches the kernel
// text page after page, touching each text page once rather than again for every function on it,
// and fewer hits of already armed probes come while arming. Entry functions, usually a few, get
// chunks of their own (see Chunk::entry_funcs).
std::vector<size_t> attach_order(const FuncTable& funcs) {
  std::vector<size_t> ids(funcs.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::sort(ids.begin(), ids.end(), [&](size_t a, size_t b) {
    if (funcs[a].is_entry != funcs[b].is_entry) return funcs[a].is_entry;
    return funcs[a].addr < funcs[b].addr;
  });
  return ids;
}

struct Chunk {
  EventName entry, exit;
  size_t entry_probes = 0, exit_probes = 0;
  // All its functions are entry functions, none otherwise: the entry event's BPF cookie says so
  // (RS_KEV_ENTRY_FUNCS), and a hit of another event outside any session ends without looking
  // its function up.
  bool entry_funcs = false;
  LinkPtr entry_link, exit_link;
};

class KprobeEventAttacher : public Attacher {
 public:
  KprobeEventAttacher(TracerObject& obj, KprobeEventsFile file, TextAnchor anchor, RunLock& run)
      : obj_(obj),
        file_(std::move(file)),
        run_(run),
        group_(run_group(run.id())),
        anchor_(std::move(anchor)) {}
  ~KprobeEventAttacher() override { detach_or_log(*this); }

  const char* name() const override { return "kprobe"; }

  // Every probe is defined before any is armed. A definition runs kallsyms lookups and more in
  // the kernel; armed probes on functions of that path would tax every later definition (6.1,
  // 1,000 functions: 1.5 ms per definition before a hot function was armed, 10 ms after).
  // Progress counts a function once when its probes are defined and once when they are armed.
  AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) override {
    AttachResult res;
    size_t per_chunk = chunk_size(funcs.size());
    std::vector<size_t> order = attach_order(funcs);
    {
      PhaseTimer timer("kprobe event definitions");
      size_t entry_funcs = std::ranges::count_if(funcs, [](const auto& f) { return f.is_entry; });
      for (size_t first = 0; first < order.size() && !opts.should_stop();) {
        size_t group_end = first < entry_funcs ? entry_funcs : order.size();
        size_t end = std::min(group_end, first + per_chunk);
        define_chunk(funcs, std::span(order).subspan(first, end - first), first < entry_funcs, opts,
                     res);
        if (opts.progress) opts.progress->advance(end - first);
        first = end;
      }
    }
    // Entry events first: arming the entry probe is the ftrace update, and the return probe on
    // the same address then joins it at no cost. Probes armed early fire while the rest arm,
    // and plain kprobe hits cost less than return probe hits. A function counts as attached
    // once both its probes are armed, and it has an entry probe only with a return probe.
    PhaseTimer timer("kprobe event arming");
    for (size_t i = 0; i < chunks_.size() && !opts.should_stop(); ++i) {
      Chunk& c = chunks_[i];
      arm_event(obj_.entry_prog(), c.entry, c.entry_probes, c.entry_funcs ? RS_KEV_ENTRY_FUNCS : 0,
                c.entry_link);
      if (opts.progress) opts.progress->advance(c.entry_probes);
      inject_fault(FaultPoint::Attach);
    }
    for (size_t i = 0; i < chunks_.size() && !opts.should_stop(); ++i) {
      Chunk& c = chunks_[i];
      arm_event(obj_.exit_prog(), c.exit, c.exit_probes, 0, c.exit_link);
      res.attached += c.entry_probes;
    }
    res.interrupted = opts.should_stop();
    if (res.attached == 0 && !res.interrupted)
      throw UserError("no function could be attached with kprobes");
    logf(LOG_INFO, "kprobe events: %zu functions in %zu chunks of group %s\n", res.attached,
         chunks_.size(), group_.c_str());
    return res;
  }

  size_t probe_count() const override {
    size_t probes = 0;
    for (const Chunk& c : chunks_) probes += c.entry_probes + c.exit_probes;
    return probes;
  }

  uint64_t missed_hits() const override {
    return obj_.recursion_misses() + file_.missed_hits(group_ + "_");
  }

  // Events are removed by name whatever their probe count says: a definition that failed
  // halfway (out of memory or descriptors) leaves an event the count does not know of. The
  // sweep of the group at the end catches whatever a failed removal left.
  void detach(ProgressMeter* progress) override {
    if (chunks_.empty()) return;
    // Chunks overlap their waits: one chunk's tasks-trace grace period (BPF detach) runs while
    // another's perf event or probes go.
    try {
      parallel_for(chunks_.size(), kAttachThreads, [&](size_t i) {
        Chunk& c = chunks_[i];
        c.entry_link.reset();
        c.exit_link.reset();
        remove_event(c.entry);
        remove_event(c.exit);
        if (progress) progress->advance(c.entry_probes + c.exit_probes);
        inject_fault(FaultPoint::Detach);
      });
    } catch (...) {
      sweep_group();
      throw;
    }
    sweep_group();
  }

 private:
  EventName event_name(char kind, size_t chunk) const {
    return {group_, group_ + "_" + kind + std::to_string(chunk)};
  }

  // Defines the probes of one kind on functions ids in event ev; returns the ids defined, fewer
  // than asked when the kernel refused some (skipped) or a stop was requested.
  std::vector<size_t> define_probes(ProbeKind kind, const EventName& ev, const FuncTable& funcs,
                                    std::span<const size_t> ids, const AttachOpts& opts,
                                    AttachResult& res) {
    std::vector<std::string> commands;
    commands.reserve(ids.size());
    for (size_t id : ids)
      commands.push_back(probe_definition(kind, ev.group, ev.event, anchor_, funcs[id].addr));
    std::vector<int> errs = file_.run_batched(commands, opts.should_stop);
    std::vector<size_t> defined;
    for (size_t i = 0; i < errs.size(); ++i) {
      if (errs[i] == 0) {
        defined.push_back(ids[i]);
        continue;
      }
      if (kind == ProbeKind::Entry) obj_.forget_func(funcs[ids[i]].addr);
      AttachError e{errs[i],
                    kind == ProbeKind::Entry ? "kprobe event failed" : "kretprobe event failed"};
      if (!skip_function(funcs[ids[i]], e)) throw UserError(failure_message(funcs[ids[i]], e));
      ++res.skipped;
    }
    return defined;
  }

  // Return probes first: a function whose return probe the kernel refuses is skipped with nothing
  // to undo; a refused entry probe after an accepted return probe leaves a return probe whose
  // hits the programs ignore, as the function is dropped from their table.
  void define_chunk(const FuncTable& funcs, std::span<const size_t> chunk_ids, bool entry_funcs,
                    const AttachOpts& opts, AttachResult& res) {
    Chunk& c = chunks_.emplace_back();
    c.entry_funcs = entry_funcs;
    c.entry = event_name('e', chunks_.size() - 1);
    c.exit = event_name('r', chunks_.size() - 1);
    std::vector<size_t> ids = define_probes(ProbeKind::Return, c.exit, funcs, chunk_ids, opts, res);
    c.exit_probes = ids.size();
    c.entry_probes = define_probes(ProbeKind::Entry, c.entry, funcs, ids, opts, res).size();
  }

  // Opening an event's perf event arms all its probes at once.
  void arm_event(bpf_program* prog, const EventName& ev, size_t probes, uint64_t cookie,
                 LinkPtr& link) {
    if (!probes) return;
    // Without cookies the programs read the function's flags instead.
    LIBBPF_OPTS(bpf_tracepoint_opts, topts, .bpf_cookie = obj_.has_cookies() ? cookie : 0);
    link.reset(
        bpf_program__attach_tracepoint_opts(prog, ev.group.c_str(), ev.event.c_str(), &topts));
    if (!link)
      throw UserError("kprobe event " + ev.group + "/" + ev.event +
                      ": cannot attach: " + std::strerror(errno));
  }

  // ENOENT: the event was never defined (its chunk's definitions stopped before it).
  void remove_event(const EventName& ev) {
    int err = file_.run(event_removal(ev.group, ev.event));
    if (err && err != -ENOENT)
      logf(LOG_DEBUG, "cannot remove kprobe event %s/%s: %s\n", ev.group.c_str(), ev.event.c_str(),
           std::strerror(-err));
  }

  // Events that stay are the run's to account for: its kept lock file lets a later run judge
  // them a dead run's and remove them.
  void sweep_group() {
    chunks_.clear();
    if (file_.remove_group(group_).complete) return;
    run_.keep_until_cleaned();
    if (run_.registered())
      logf(LOG_WARN, "kprobe events of group %s stay: the next retsnoop run removes them\n",
           group_.c_str());
    else
      logf(LOG_WARN,
           "kprobe events of group %s stay, and no later run will remove them (%s is "
           "unusable)\n",
           group_.c_str(), kRunStateDir.c_str());
  }

  TracerObject& obj_;
  KprobeEventsFile file_;
  RunLock& run_;
  std::string group_;
  TextAnchor anchor_;
  std::vector<Chunk> chunks_;
};

}  // namespace

std::unique_ptr<Attacher> make_kprobe_event_attacher(TracerObject& obj, const Kallsyms& ksyms,
                                                     RunLock& run) {
  auto file = KprobeEventsFile::open(kDefaultTracefsDirs);
  if (!file)
    throw UserError("cannot open kprobe_events in tracefs: " + std::string(std::strerror(errno)));
  auto anchor = find_text_anchor([&](const char* name) { return ksyms.addr_of(name); });
  if (!anchor)
    throw UserError("cannot find _text or _stext in /proc/kallsyms, the anchor of kprobe events");
  return std::make_unique<KprobeEventAttacher>(obj, std::move(*file), std::move(*anchor), run);
}

}  // namespace retsnoop
