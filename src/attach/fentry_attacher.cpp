// fentry/fexit (BPF trampolines). A trampoline program is verified for exactly one target, so
// every function gets its own entry and exit program: copies of the tracer object's templates
// (attach/prog_copy.h). Attached by BTF id, with the function id as link cookie;
// before link cookies (5.19), each copy carries the function id in place of RS_FUNC_MARK and
// is attached with BPF_RAW_TRACEPOINT_OPEN, which every kernel with trampolines has. Where the
// kernel has tracing multi links (7.2), the functions of vmlinux share one entry and one exit
// program instead, verified once whatever their number; module functions keep their copies.
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "attach/attacher.h"
#include "attach/imm_mark.h"
#include "attach/module_btf.h"
#include "attach/parallel_attach.h"
#include "attach/probe_misses.h"
#include "attach/prog_copy.h"
#include "attach/tracing_multi_link.h"
#include "bpf/func_mark.h"
#include "util/error.h"
#include "util/fault_injection.h"
#include "util/log.h"
#include "util/owned_fd.h"

namespace retsnoop {

namespace {

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

class FentryAttacher : public Attacher {
 public:
  explicit FentryAttacher(TracerObject& obj) : obj_(obj) {}
  ~FentryAttacher() override { detach_or_log(*this); }

  const char* name() const override { return "fentry"; }

  AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) override {
    ModuleBtfs btfs(modules_of(funcs));
    ProgTemplate entry = template_of(obj_.entry_prog(), "fentry");
    ProgTemplate exit = template_of(obj_.exit_prog(), "fentry");
    std::vector<bool> shared(funcs.size());
    if (obj_.fentry_multi()) shared = attach_multi(funcs, entry, exit);
    probes_.resize(funcs.size());
    AttachResult res = attach_each(funcs, opts, [&](size_t id) {
      return shared[id] ? AttachError{} : attach_one(funcs[id], id, entry, exit, btfs);
    });
    std::erase_if(probes_, [](const Probe& p) { return !p.exit_link; });
    if (res.attached == 0 && !res.interrupted)
      throw UserError("no function could be attached with fentry/fexit");
    return res;
  }

  size_t probe_count() const override { return 2 * (probes_.size() + shared_funcs_); }

  // Trampolines skip a program already running on the CPU and count it on that program.
  uint64_t missed_hits() const override {
    uint64_t n = misses(shared_);
    for (const auto& p : probes_) n += misses(p);
    return n;
  }

  void detach(ProgressMeter* progress) override {
    if (shared_funcs_) {
      shared_ = Probe{};  // one close each takes every function's entry or exit off
      if (progress) progress->advance(2 * shared_funcs_);
      shared_funcs_ = 0;
      inject_fault(FaultPoint::Detach);
    }
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

  static uint64_t misses(const Probe& p) {
    return prog_recursion_misses(p.entry_prog.get()) + prog_recursion_misses(p.exit_prog.get());
  }

  // Every function of vmlinux on one multi link each for entry and exit; true for the functions
  // they hold. A refusal (a function the kernel will not trace, an architecture without them)
  // leaves every function to its copies, with a -v line.
  std::vector<bool> attach_multi(const FuncTable& funcs, const ProgTemplate& entry,
                                 const ProgTemplate& exit) {
    std::vector<bool> shared(funcs.size());
    std::vector<uint32_t> btf_ids;
    std::vector<uint64_t> cookies;
    std::set<uint32_t> seen;  // a BTF id twice would make the kernel refuse the whole link
    for (size_t id = 0; id < funcs.size(); ++id) {
      if (!funcs[id].module.empty() || !funcs[id].btf_id) continue;
      if (!seen.insert(funcs[id].btf_id).second) continue;
      btf_ids.push_back(funcs[id].btf_id);
      cookies.push_back(id);
    }
    if (btf_ids.empty()) return shared;
    Probe p;
    AttachError e = load_multi(entry, kTraceFentryMulti, p.entry_prog);
    if (!e.err) e = load_multi(exit, kTraceFexitMulti, p.exit_prog);
    if (!e.err) e = link_multi(p.entry_prog, kTraceFentryMulti, btf_ids, cookies, p.entry_link);
    if (!e.err) e = link_multi(p.exit_prog, kTraceFexitMulti, btf_ids, cookies, p.exit_link);
    if (e.err) {
      logf(LOG_INFO, "fentry: %s: %s; one program copy per function instead\n", e.what.c_str(),
           std::strerror(-e.err));
      return shared;
    }
    for (uint64_t id : cookies) shared[id] = true;
    shared_ = std::move(p);
    shared_funcs_ = cookies.size();
    logf(LOG_INFO, "fentry: %zu functions share one entry and one exit program (multi links)\n",
         shared_funcs_);
    return shared;
  }

  static AttachError load_multi(const ProgTemplate& t, bpf_attach_type type, OwnedFd& out) {
    return load_copy(t, t.insns, "every function of vmlinux", CopyTarget{.multi_type = type}, out);
  }

  static AttachError link_multi(const OwnedFd& prog, bpf_attach_type type,
                                std::span<const uint32_t> btf_ids,
                                std::span<const uint64_t> cookies, OwnedFd& out) {
    int fd = create_tracing_multi_link(prog.get(), type, btf_ids, cookies);
    if (fd < 0)
      return {fd, type == kTraceFentryMulti ? "the entry program's multi link refused"
                                            : "the exit program's multi link refused"};
    out = OwnedFd(fd);
    return {};
  }

  // Both programs are loaded before either is attached: a function whose fexit copy the
  // verifier rejects (an unusual prototype) is skipped whole, never traced on entry only.
  AttachError attach_one(const FuncInfo& fn, size_t id, const ProgTemplate& entry,
                         const ProgTemplate& exit, const ModuleBtfs& btfs) {
    CopyTarget target{.btf_id = fn.btf_id};
    if (!fn.module.empty() && (target.btf_obj_fd = btfs.fd(fn.module)) < 0)
      return {-ENOENT, "no BTF object for its module"};
    Probe p;
    CopyInsns entry_insns = copy_insns(entry, obj_.fentry_by_mark(), id, fn);
    CopyInsns exit_insns = copy_insns(exit, obj_.fentry_by_mark(), id, fn);
    if (AttachError e = load_copy(entry, entry_insns.insns, fn.name, target, p.entry_prog); e.err)
      return e;
    if (AttachError e = load_copy(exit, exit_insns.insns, fn.name, target, p.exit_prog); e.err)
      return e;
    if (AttachError e = link(p.entry_prog, entry.attach_type, id, p.entry_link); e.err) return e;
    if (AttachError e = link(p.exit_prog, exit.attach_type, id, p.exit_link); e.err) return e;
    probes_[id] = std::move(p);
    return {};
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
  Probe shared_;               // the multi links' programs and links
  size_t shared_funcs_ = 0;    // functions on shared_
};

}  // namespace

std::unique_ptr<Attacher> make_fentry_attacher(TracerObject& obj) {
  return std::make_unique<FentryAttacher>(obj);
}

}  // namespace retsnoop
