// fentry/fexit (BPF trampolines). A trampoline program is verified for exactly one target, so
// every function gets its own entry and exit program: copies of the tracer object's templates,
// whose instructions libbpf already relocated against the shared maps, so each copy costs one
// verifier pass and no object load. Attached by BTF id, with the function id as link cookie;
// before link cookies (5.19), each copy carries the function id in place of RS_FUNC_MARK and
// is attached with BPF_RAW_TRACEPOINT_OPEN, which every kernel with trampolines has.
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "attach/attacher.h"
#include "attach/imm_mark.h"
#include "attach/module_btf.h"
#include "attach/parallel_attach.h"
#include "attach/probe_misses.h"
#include "attach/prog_btf.h"
#include "bpf/func_mark.h"
#include "util/error.h"
#include "util/log.h"
#include "util/owned_fd.h"
#include "util/text_lines.h"

namespace retsnoop {

namespace {

constexpr size_t kVerifierLogSize = 64 * 1024;
// BPF_LOG_STATS (5.2+): the verifier's statistics alone, a few short lines.
constexpr uint32_t kLogStats = 4;
constexpr size_t kStatsLogSize = 1024;

struct ProgTemplate {
  const char* name;
  std::span<const bpf_insn> insns;
  bpf_attach_type type;
  CopyFuncInfo func_info;
};

ProgTemplate template_of(bpf_program* prog, bpf_attach_type type) {
  ProgTemplate t{
      bpf_program__name(prog), {bpf_program__insns(prog), bpf_program__insn_cnt(prog)}, type, {}};
  t.func_info = copy_func_info(bpf_program__fd(prog), t.insns);
  if (t.func_info.funcs.empty())
    logf(LOG_INFO, "fentry: %s copies load without BTF function records, verified longer\n",
         t.name);
  return t;
}

// The instructions of fn's copy: the template's, or with the function's id and argument count
// in place of the mark.
struct CopyInsns {
  std::vector<bpf_insn> patched;
  std::span<const bpf_insn> insns;
};

CopyInsns copy_insns(const ProgTemplate& t, bool by_mark, uint32_t id, const FuncInfo& fn) {
  CopyInsns c;
  if (!by_mark) {
    c.insns = t.insns;
    return c;
  }
  c.patched = with_mark_replaced(t.insns, RS_FUNC_MARK, rs_func_mark_value(id, fn.nargs));
  c.insns = c.patched;
  return c;
}

std::set<std::string> modules_of(const FuncTable& funcs) {
  std::set<std::string> mods;
  for (const auto& fn : funcs)
    if (!fn.module.empty()) mods.insert(fn.module);
  return mods;
}

// The verifier's last words on a rejected copy, for the -v skip message: its last line but the
// statistics it appends to every log ("processed N insns ...").
std::string verifier_verdict(const char* log) {
  std::string_view verdict;
  for_each_line(log, [&](std::string_view line) {
    if (!line.empty() && !line.starts_with("processed ")) verdict = line;
  });
  return std::string(verdict);
}

// A short log's lines joined by "; ".
std::string one_line(const char* log) {
  std::string out;
  for_each_line(log, [&](std::string_view line) {
    if (line.empty()) return;
    if (!out.empty()) out += "; ";
    out += line;
  });
  return out;
}

class FentryAttacher : public Attacher {
 public:
  explicit FentryAttacher(TracerObject& obj) : obj_(obj) {}
  ~FentryAttacher() override { detach_or_log(*this); }

  const char* name() const override { return "fentry"; }

  AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) override {
    ModuleBtfs btfs(modules_of(funcs));
    ProgTemplate entry = template_of(obj_.entry_prog(), BPF_TRACE_FENTRY);
    ProgTemplate exit = template_of(obj_.exit_prog(), BPF_TRACE_FEXIT);
    probes_.resize(funcs.size());
    AttachResult res = attach_each(
        funcs, opts, [&](size_t id) { return attach_one(funcs[id], id, entry, exit, btfs); });
    std::erase_if(probes_, [](const Probe& p) { return !p.exit_link; });
    if (res.attached == 0 && !res.interrupted)
      throw UserError("no function could be attached with fentry/fexit");
    return res;
  }

  size_t probe_count() const override { return 2 * probes_.size(); }

  // Trampolines skip a program already running on the CPU and count it on that program.
  uint64_t missed_hits() const override {
    uint64_t n = 0;
    for (const auto& p : probes_)
      n += prog_recursion_misses(p.entry_prog.get()) + prog_recursion_misses(p.exit_prog.get());
    return n;
  }

  void detach(ProgressMeter* progress) override {
    if (probes_.empty()) return;
    // Links first: closing the last link of a function takes its trampoline off.
    detach_each(probes_.size(), progress, [&](size_t i) {
      probes_[i].entry_link.reset();
      probes_[i].exit_link.reset();
      probes_[i].entry_prog.reset();
      probes_[i].exit_prog.reset();
    });
    probes_.clear();
  }

 private:
  struct Probe {
    OwnedFd entry_prog, exit_prog, entry_link, exit_link;
  };

  // Both programs are loaded before either is attached: a function whose fexit copy the
  // verifier rejects (an unusual prototype) is skipped whole, never traced on entry only.
  AttachError attach_one(const FuncInfo& fn, size_t id, const ProgTemplate& entry,
                         const ProgTemplate& exit, const ModuleBtfs& btfs) {
    int btf_obj_fd = 0;  // 0: the target's BTF id is in vmlinux BTF
    if (!fn.module.empty() && (btf_obj_fd = btfs.fd(fn.module)) < 0)
      return {-ENOENT, "no BTF object for its module"};
    Probe p;
    CopyInsns entry_insns = copy_insns(entry, obj_.fentry_by_mark(), id, fn);
    CopyInsns exit_insns = copy_insns(exit, obj_.fentry_by_mark(), id, fn);
    if (AttachError e = load_copy(entry, entry_insns, fn, btf_obj_fd, p.entry_prog); e.err)
      return e;
    if (AttachError e = load_copy(exit, exit_insns, fn, btf_obj_fd, p.exit_prog); e.err) return e;
    if (AttachError e = link(p.entry_prog, entry.type, id, p.entry_link); e.err) return e;
    if (AttachError e = link(p.exit_prog, exit.type, id, p.exit_link); e.err) return e;
    probes_[id] = std::move(p);
    return {};
  }

  // At -vv with the verifier's statistics and the load's time: what each function costs.
  static AttachError load_copy(const ProgTemplate& t, const CopyInsns& c, const FuncInfo& fn,
                               int btf_obj_fd, OwnedFd& out) {
    LIBBPF_OPTS(bpf_prog_load_opts, lo);
    lo.expected_attach_type = t.type;
    lo.attach_btf_id = fn.btf_id;
    lo.attach_btf_obj_fd = btf_obj_fd;
    if (!t.func_info.funcs.empty()) {
      lo.prog_btf_fd = t.func_info.btf.get();
      lo.func_info = t.func_info.funcs.data();
      lo.func_info_cnt = uint32_t(t.func_info.funcs.size());
      lo.func_info_rec_size = sizeof(bpf_func_info);
    }
    std::array<char, kStatsLogSize> stats{};
    bool debug = log_enabled(LOG_DEBUG);
    if (debug) {
      lo.log_buf = stats.data();
      lo.log_size = stats.size() - 1;
      lo.log_level = kLogStats;
    }
    auto start = std::chrono::steady_clock::now();
    int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, t.name, TracerObject::kLicense, c.insns.data(),
                           c.insns.size(), &lo);
    if (fd >= 0 && debug)
      logf(LOG_DEBUG, "fentry: %s copy for %s: %s, loaded in %.1f ms\n", t.name, fn.name.c_str(),
           one_line(stats.data()).c_str(),
           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
               .count());
    if (fd < 0) {
      AttachError e{-errno, std::string(t.name) + " copy rejected"};
      if (!is_system_error(e.err) && log_enabled(LOG_INFO))
        e.what += ": " + verifier_reason(t, c, lo);
      return e;
    }
    out = OwnedFd(fd);
    return {};
  }

  // Loads once more with the verifier log on: only for a rejection the user will read about.
  static std::string verifier_reason(const ProgTemplate& t, const CopyInsns& c,
                                     bpf_prog_load_opts lo) {
    std::vector<char> log(kVerifierLogSize);
    lo.log_buf = log.data();
    lo.log_size = log.size() - 1;  // the last byte stays NUL, whatever the kernel writes
    lo.log_level = 1;
    OwnedFd fd(bpf_prog_load(BPF_PROG_TYPE_TRACING, t.name, TracerObject::kLicense, c.insns.data(),
                             c.insns.size(), &lo));
    std::string line = verifier_verdict(log.data());
    return line.empty() ? "no verifier log" : "'" + line + "'";
  }

  AttachError link(const OwnedFd& prog, bpf_attach_type type, size_t id, OwnedFd& out) const {
    int fd;
    if (obj_.fentry_by_mark()) {
      fd = bpf_raw_tracepoint_open(nullptr, prog.get());
    } else {
      LIBBPF_OPTS(bpf_link_create_opts, lo);
      lo.tracing.cookie = id;
      fd = bpf_link_create(prog.get(), 0, type, &lo);
    }
    if (fd < 0)
      return {-errno, type == BPF_TRACE_FENTRY ? "fentry attach failed" : "fexit attach failed"};
    out = OwnedFd(fd);
    return {};
  }

  TracerObject& obj_;
  std::vector<Probe> probes_;  // indexed by function id while attaching, then only attached
};

}  // namespace

std::unique_ptr<Attacher> make_fentry_attacher(TracerObject& obj) {
  return std::make_unique<FentryAttacher>(obj);
}

}  // namespace retsnoop
