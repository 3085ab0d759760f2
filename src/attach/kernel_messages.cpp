#include "attach/kernel_messages.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "attach/load_diagnosis.h"
#include "rs_messages.skel.h"
#include "util/log.h"

namespace retsnoop {

static_assert(sizeof(rs_kmsg_rec) == 768, "rs_kmsg_rec layout must match BPF");

// One message source: the kernel function its program hooks, and the program.
struct MessageSource {
  const char* name;  // as the output's kind column shows it
  const char* func;
  bool fexit;  // needs the function in BTF besides kallsyms
  bpf_program* (*prog)(rs_messages*);
};

namespace {

const MessageSource kSources[] = {
    {"fs", "logfc", false, [](rs_messages* s) { return s->progs.kmsg_logfc; }},
    {"extack", "do_trace_netlink_extack", false,
     [](rs_messages* s) { return s->progs.kmsg_extack; }},
    {"verifier", "bpf_verifier_vlog", true, [](rs_messages* s) { return s->progs.kmsg_verifier; }},
    {"printk", "vprintk_store", false, [](rs_messages* s) { return s->progs.kmsg_printk; }},
};

// Why this kernel cannot have src, or nothing when it can.
std::string missing_reason(const MessageSource& src, const KernelFunctionCheck& in_kallsyms,
                           const KernelFunctionCheck& in_btf) {
  if (!in_kallsyms(src.func)) return std::string("this kernel has no ") + src.func;
  if (src.fexit && !in_btf(src.func)) return std::string(src.func) + " is not in the kernel's BTF";
  return {};
}

// The sources whose function this kernel has; -v says which are missing.
std::vector<const MessageSource*> present_sources(const KernelMessagesConfig& cfg) {
  std::vector<const MessageSource*> out;
  for (const MessageSource& src : kSources) {
    std::string why = missing_reason(src, cfg.has_function, in_vmlinux_btf);
    if (!why.empty())
      logf(LOG_INFO, "kernel messages: no %s source (%s)\n", src.name, why.c_str());
    else
      out.push_back(&src);
  }
  return out;
}

}  // namespace

bool in_vmlinux_btf(std::string_view func) {
  btf* vmlinux = btf__load_vmlinux_btf();
  if (!vmlinux) return false;
  bool found = btf__find_by_name_kind(vmlinux, std::string(func).c_str(), BTF_KIND_FUNC) > 0;
  btf__free(vmlinux);
  return found;
}

std::string message_sources_report(const KernelFunctionCheck& in_kallsyms,
                                   const KernelFunctionCheck& in_btf, bool enabled) {
  if (!enabled) return "Kernel message sources: off (-C messages.enabled=no)\n";
  std::string out = "Kernel message sources:\n";
  for (const MessageSource& src : kSources) {
    std::string why = missing_reason(src, in_kallsyms, in_btf);
    out += std::string("\t") + src.name + ": " +
           (why.empty() ? std::string(src.func) + (src.fexit ? " (fexit)" : " (kprobe)")
                        : "off (" + why + ")") +
           "\n";
  }
  return out;
}

KernelMessages::KernelMessages(const KernelMessagesConfig& cfg) {
  std::vector<const MessageSource*> wanted = present_sources(cfg);
  // A load refused over one program is retried without it: that source only is lost.
  std::string log;
  while (!wanted.empty() && !open_and_load(cfg, wanted, log)) {
    auto refused = std::find_if(wanted.begin(), wanted.end(), [&](const MessageSource* src) {
      return log.find(std::string("prog '") + bpf_program__name(src->prog(skel_)) + "'") !=
             std::string::npos;
    });
    if (refused == wanted.end()) refused = wanted.begin();
    logf(LOG_INFO, "kernel messages: no %s source (the kernel refused its program)\n",
         (*refused)->name);
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
  for (const MessageSource* src : wanted) bpf_program__set_autoload(src->prog(skel_), true);
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
            !rs_messages__load(skel_);
  log = warnings.text();
  if (!ok) logf(LOG_DEBUG, "kernel messages: load failed:\n%s", log.c_str());
  return ok;
}

void KernelMessages::attach(const std::vector<const MessageSource*>& wanted) {
  for (const MessageSource* src : wanted) {
    bpf_program* prog = src->prog(skel_);
    bpf_link* link =
        src->fexit ? bpf_program__attach(prog) : bpf_program__attach_kprobe(prog, false, src->func);
    if (!link) {
      logf(LOG_INFO, "kernel messages: no %s source (cannot attach to %s: %s)\n", src->name,
           src->func, std::strerror(errno));
      continue;
    }
    links_.emplace_back(link);
    sources_.emplace_back(src->name);
  }
}

uint64_t KernelMessages::dropped() const { return skel_ ? skel_->bss->kmsg_dropped : 0; }

}  // namespace retsnoop
