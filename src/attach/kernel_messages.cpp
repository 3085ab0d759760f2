#include "attach/kernel_messages.h"

#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "attach/load_diagnosis.h"
#include "rs_messages.skel.h"
#include "util/log.h"

namespace retsnoop {

static_assert(sizeof(rs_kmsg_rec) == 768, "rs_kmsg_rec layout must match BPF");

// How a source's program reaches its kernel function.
enum class Hook {
  Kprobe,
  Fexit,       // needs the function in BTF besides kallsyms
  KprobePair,  // a kprobe at entry, a kretprobe reading what the function left
};

// One message source: the kernel function its program hooks, and the program(s).
struct MessageSource {
  const char* name;  // as the output's kind column shows it
  const char* func;
  Hook hook;
  bpf_program* (*prog)(rs_messages*);
  bpf_program* (*ret_prog)(rs_messages*) = nullptr;  // KprobePair: the kretprobe
  const MessageSource* fallback = nullptr;  // the same source another way, when this one is refused
};

namespace {

const MessageSource kVerifierByKprobes = {
    "verifier", "bpf_verifier_vlog", Hook::KprobePair,
    [](rs_messages* s) { return s->progs.kmsg_verifier_entry; },
    [](rs_messages* s) { return s->progs.kmsg_verifier_exit; }};

// arm64's trampolines take no struct argument, and bpf_verifier_vlog()'s va_list is one there:
// its fexit program would only be refused, at the price of a second load of the object.
#if defined(__aarch64__)
const MessageSource& kVerifier = kVerifierByKprobes;
#else
const MessageSource kVerifier = {"verifier",  "bpf_verifier_vlog",
                                 Hook::Fexit, [](rs_messages* s) { return s->progs.kmsg_verifier; },
                                 nullptr,     &kVerifierByKprobes};
#endif

const MessageSource kSources[] = {
    {"fs", "logfc", Hook::Kprobe, [](rs_messages* s) { return s->progs.kmsg_logfc; }},
    {"extack", "do_trace_netlink_extack", Hook::Kprobe,
     [](rs_messages* s) { return s->progs.kmsg_extack; }},
    kVerifier,
    {"printk", "vprintk_store", Hook::Kprobe, [](rs_messages* s) { return s->progs.kmsg_printk; }},
};

const char* hook_text(Hook hook) {
  switch (hook) {
    case Hook::Kprobe: return "kprobe";
    case Hook::Fexit: return "fexit";
    case Hook::KprobePair: return "kprobe and kretprobe";
  }
  return "?";
}

// Why this kernel cannot have src, or nothing when it can.
std::string missing_reason(const MessageSource& src, const KernelFunctionCheck& in_kallsyms,
                           const KernelFunctionCheck& in_btf) {
  if (!in_kallsyms(src.func)) return std::string("this kernel has no ") + src.func;
  if (src.hook == Hook::Fexit && !in_btf(src.func))
    return std::string(src.func) + " is not in the kernel's BTF";
  return {};
}

// src, or the first of its fallbacks this kernel can have; nullptr with why set when none.
const MessageSource* usable_source(const MessageSource& src, const KernelFunctionCheck& in_kallsyms,
                                   const KernelFunctionCheck& in_btf, std::string& why) {
  for (const MessageSource* s = &src; s; s = s->fallback) {
    std::string reason = missing_reason(*s, in_kallsyms, in_btf);
    if (reason.empty()) return s;
    if (why.empty()) why = reason;
  }
  return nullptr;
}

// The sources whose function this kernel has; -v says which are missing.
std::vector<const MessageSource*> present_sources(const KernelMessagesConfig& cfg) {
  std::vector<const MessageSource*> out;
  for (const MessageSource& src : kSources) {
    std::string why;
    const MessageSource* use = usable_source(src, cfg.has_function, cfg.in_btf, why);
    if (!use)
      logf(LOG_INFO, "kernel messages: no %s source (%s)\n", src.name, why.c_str());
    else
      out.push_back(use);
  }
  return out;
}

// Whether libbpf's log names a program of src as refused.
bool refused_in_log(const std::string& log, const MessageSource& src, rs_messages* skel) {
  for (auto prog : {src.prog, src.ret_prog}) {
    if (prog &&
        log.find(std::string("prog '") + bpf_program__name(prog(skel)) + "'") != std::string::npos)
      return true;
  }
  return false;
}

}  // namespace

std::string message_sources_report(const KernelFunctionCheck& in_kallsyms,
                                   const KernelFunctionCheck& in_btf, bool enabled) {
  if (!enabled) return "Kernel message sources: off (-C messages.enabled=no)\n";
  std::string out = "Kernel message sources:\n";
  for (const MessageSource& src : kSources) {
    std::string why;
    const MessageSource* use = usable_source(src, in_kallsyms, in_btf, why);
    out += std::string("\t") + src.name + ": ";
    if (!use) {
      out += "off (" + why + ")\n";
      continue;
    }
    out += std::string(use->func) + " (" + hook_text(use->hook);
    if (use->fallback) out += std::string(", else ") + hook_text(use->fallback->hook);
    out += ")\n";
  }
  return out;
}

KernelMessages::KernelMessages(const KernelMessagesConfig& cfg) {
  std::vector<const MessageSource*> wanted = present_sources(cfg);
  // A load refused over one program is retried without it, or with its source's fallback: that
  // source only is lost.
  std::string log;
  while (!wanted.empty() && !open_and_load(cfg, wanted, log)) {
    auto refused = std::find_if(wanted.begin(), wanted.end(), [&](const MessageSource* src) {
      return refused_in_log(log, *src, skel_);
    });
    if (refused == wanted.end()) refused = wanted.begin();
    const MessageSource* src = *refused;
    if (src->fallback) {
      logf(LOG_INFO, "kernel messages: %s source by %s (the kernel refused its %s program)\n",
           src->name, hook_text(src->fallback->hook), hook_text(src->hook));
      *refused = src->fallback;
      continue;
    }
    logf(LOG_INFO, "kernel messages: no %s source (the kernel refused its program)\n", src->name);
    wanted.erase(refused);
  }
  if (wanted.empty()) {
    rs_messages__destroy(skel_);
    skel_ = nullptr;
    return;
  }
  attach(wanted);
  std::string names;
  for (const std::string& s : sources_) names += (names.empty() ? "" : ", ") + s;
  logf(LOG_INFO, "kernel messages: sources %s\n", names.empty() ? "none" : names.c_str());
}

KernelMessages::~KernelMessages() {
  links_.clear();
  rs_messages__destroy(skel_);
}

bool KernelMessages::open_and_load(const KernelMessagesConfig& cfg,
                                   const std::vector<const MessageSource*>& wanted,
                                   std::string& log) {
  rs_messages__destroy(skel_);
  skel_ = rs_messages__open();
  if (!skel_) return false;
  for (bpf_program* p = nullptr; (p = bpf_object__next_program(skel_->obj, p));)
    bpf_program__set_autoload(p, false);
  for (const MessageSource* src : wanted) {
    bpf_program__set_autoload(src->prog(skel_), true);
    if (src->ret_prog) bpf_program__set_autoload(src->ret_prog(skel_), true);
  }
  auto* ro = skel_->rodata;
  ro->kmsg_max_count = cfg.max_count;
  ro->bits_kept = cfg.atomic_fetch;
  ro->has_task_btf = cfg.task_btf;
  ro->session_slots = cfg.maps.session_slots;
  ro->cpu_bits = cfg.maps.cpu_bits;
  LibbpfWarnings warnings;  // a refusal costs a source: its log only with -vv
  bool ok = !bpf_map__reuse_fd(skel_->maps.sessions, cfg.maps.sessions_fd) &&
            !bpf_map__reuse_fd(skel_->maps.session_bits, cfg.maps.session_bits_fd) &&
            !bpf_map__reuse_fd(skel_->maps.rb, cfg.maps.ringbuf_fd) &&
            !bpf_map__set_max_entries(skel_->maps.kmsg_counts, cfg.maps.session_slots) &&
            !bpf_map__set_max_entries(skel_->maps.vlog_calls, cfg.maps.session_slots) &&
            !rs_messages__load(skel_);
  log = warnings.text();
  if (!ok) logf(LOG_DEBUG, "kernel messages: load failed:\n%s", log.c_str());
  return ok;
}

// The links of src's program(s); empty with errno set when one fails.
std::vector<LinkPtr> KernelMessages::attach_source(const MessageSource& src) {
  std::vector<LinkPtr> links;
  bpf_program* prog = src.prog(skel_);
  bpf_link* link = src.hook == Hook::Fexit ? bpf_program__attach(prog)
                                           : bpf_program__attach_kprobe(prog, false, src.func);
  if (!link) return {};
  links.emplace_back(link);
  if (src.ret_prog) {
    link = bpf_program__attach_kprobe(src.ret_prog(skel_), true, src.func);
    if (!link) {
      int err = errno;  // the entry link's release must not hide why
      links.clear();
      errno = err;
      return {};
    }
    links.emplace_back(link);
  }
  return links;
}

void KernelMessages::attach(const std::vector<const MessageSource*>& wanted) {
  for (const MessageSource* src : wanted) {
    std::vector<LinkPtr> links = attach_source(*src);
    if (links.empty()) {
      logf(LOG_INFO, "kernel messages: no %s source (cannot attach to %s: %s)\n", src->name,
           src->func, std::strerror(errno));
      continue;
    }
    for (LinkPtr& l : links) links_.push_back(std::move(l));
    sources_.emplace_back(src->name);
  }
}

uint64_t KernelMessages::dropped() const { return skel_ ? skel_->bss->kmsg_dropped : 0; }

}  // namespace retsnoop
