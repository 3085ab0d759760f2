#include "kernel/attach_choice.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "attach/kprobe_events.h"
#include "attach/uprobe_links.h"
#include "discovery/traceable.h"
#include "kernel/lockdown.h"
#include "util/errno_names.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

struct Mechanism {
  AttachKind kind;
  const char* name;  // in diagnoses
  const char* hint;  // how to ask for it
};

// The default takes the first that works here.
constexpr Mechanism kFastestFirst[] = {
    {AttachKind::MultiKprobe, "multi-kprobe", "use -M (multi-kprobe)"},
    {AttachKind::Kprobe, "kprobes", "use -K (single kprobes)"},
    {AttachKind::Fentry, "fentry", "use -F (fentry/fexit)"},
};

constexpr bool mechanisms_follow_enum() {
  for (size_t i = 0; i < std::size(kFastestFirst); ++i)
    if (static_cast<size_t>(kFastestFirst[i].kind) != i) return false;
  return true;
}
static_assert(mechanisms_follow_enum(), "one mechanism per attach kind, in enum order");

const Mechanism& mechanism(AttachKind kind) { return kFastestFirst[static_cast<size_t>(kind)]; }

UserError nothing_attaches(const std::string& why) {
  return UserError("this kernel cannot trace functions: " + why,
                   "retsnoop -V -v shows what it can do");
}

// The kernel's answer and, unless known to be off, the lockdown mode: it explains an EPERM
// answered to root.
std::string fentry_refusal(const Features& f) {
  int attach = f.value(Feature::FentryAttach);
  std::string why = attach < 0 ? errno_text(-attach) : "no answer";
  if (int lockdown = f.value(Feature::Lockdown))
    why += "; kernel lockdown: " + lockdown_text(lockdown);
  return "attach refused (" + why + ")";
}

// fentry is asked last: its row attaches a probe program. Link cookies are not needed: without
// them each function's programs carry its id (TracerObject::fentry_by_mark()).
std::string fentry_blocker(const Features& f) {
  return f.has(Feature::FentryAttach) ? "" : fentry_refusal(f);
}

// A mechanism other than kind that works here, to suggest instead; null when none does.
const Mechanism* alternative_to(AttachKind kind, const Features& f) {
  for (const Mechanism& m : kFastestFirst)
    if (m.kind != kind && attach_blocker(m.kind, f).empty()) return &m;
  return nullptr;
}

// kind, or a UserError that says why not and suggests what works instead.
AttachKind require(AttachKind kind, const Features& f) {
  std::string why = attach_blocker(kind, f);
  if (why.empty()) return kind;
  const Mechanism* other = alternative_to(kind, f);
  throw UserError(std::string("cannot attach with ") + mechanism(kind).name + ": " + why,
                  other ? other->hint : "");
}

// The cost of fentry without link cookies, told where it is chosen.
AttachKind fentry_chosen(const Features& f) {
  if (!f.has(Feature::FentryCookie))
    logf(LOG_INFO,
         "fentry: no link cookies before Linux 5.19: each function's programs hold its id\n");
  return AttachKind::Fentry;
}

}  // namespace

std::string attach_blocker(AttachKind kind, const Features& f) {
  switch (kind) {
    case AttachKind::MultiKprobe:
      return f.has(Feature::MultiKprobe)
                 ? ""
                 : "not supported by this kernel (Linux 5.18+ with CONFIG_FPROBE)";
    case AttachKind::Kprobe:
      return f.has(Feature::Kprobes) ? "" : "not built into this kernel (CONFIG_KPROBES)";
    case AttachKind::Fentry: return fentry_blocker(f);
  }
  return "unknown attach kind";
}

std::string why_nothing_attaches(const Features& f) {
  std::string out;
  for (const Mechanism& m : kFastestFirst) {
    std::string why = attach_blocker(m.kind, f);
    if (why.empty()) return {};
    out.append(out.empty() ? "" : "; ").append(m.name).append(": ").append(why);
  }
  return out;
}

void check_kernel_support(const Features& f, const char* btf_path) {
  if (access(btf_path, R_OK) != 0)
    throw UserError(
        std::string("this kernel has no BTF (") + btf_path + ": " + std::strerror(errno) + ")",
        "retsnoop needs a kernel built with CONFIG_DEBUG_INFO_BTF=y (Linux 5.5+)");
  if (!f.has(Feature::Ringbuf))
    throw UserError("this kernel has no BPF ring buffer (needs Linux 5.8+)");
  std::string why = why_nothing_attaches(f);
  if (!why.empty()) throw nothing_attaches(why);
}

AttachKind choose_attach_kind(AttachMode mode, const Features& f) {
  switch (mode) {
    case AttachMode::Fentry: require(AttachKind::Fentry, f); return fentry_chosen(f);
    case AttachMode::Kprobe: return require(AttachKind::Kprobe, f);
    case AttachMode::MultiKprobe:
      if (f.has(Feature::MultiKprobe)) return AttachKind::MultiKprobe;
      logf(LOG_INFO,
           "multi-kprobe is not supported by this kernel, falling back to single kprobes\n");
      return require(AttachKind::Kprobe, f);
    case AttachMode::Default: break;
  }
  for (const Mechanism& m : kFastestFirst) {
    if (!attach_blocker(m.kind, f).empty()) continue;
    if (m.kind != AttachKind::Fentry) return m.kind;
    logf(LOG_INFO, "kprobes: %s: attaching with fentry/fexit\n",
         attach_blocker(AttachKind::Kprobe, f).c_str());
    return fentry_chosen(f);
  }
  throw nothing_attaches(why_nothing_attaches(f));
}

bool kprobe_events_pay_off(const Features& f) {
  bool pay = f.has(Feature::PerfDetachWait);
  if (!pay) logf(LOG_INFO, "kprobes: one perf event per probe, faster to attach on this kernel\n");
  return pay;
}

bool kprobe_events_usable() {
  bool writable = KprobeEventsFile::open(kDefaultTracefsDirs).has_value();
  if (!writable)
    logf(LOG_INFO, "kprobe_events is not writable, attaching one perf event per kprobe\n");
  return writable;
}

namespace {

// Why user-space functions cannot be traced here; empty when they can.
std::string uprobe_blocker(const Features& f) {
  return f.has(Feature::Uprobes) ? "" : "this kernel has no uprobes (CONFIG_UPROBE_EVENTS)";
}

// The fastest way the kernel has, once it has uprobes.
UprobeMode uprobe_mode_here(const Features& f) {
  if (f.has(Feature::MultiUprobe)) return UprobeMode::Multi;
  return f.has(Feature::BpfCookie) ? UprobeMode::Single : UprobeMode::ByMark;
}

}  // namespace

UprobeMode choose_uprobe_mode(const Features& f) {
  std::string why = uprobe_blocker(f);
  if (!why.empty()) throw UserError("cannot trace user-space functions: " + why);
  UprobeMode mode = uprobe_mode_here(f);
  if (mode == UprobeMode::ByMark)
    logf(LOG_INFO,
         "uprobes: no BPF cookies before Linux 5.15: each function's programs hold its id\n");
  return mode;
}

std::string uprobe_support(const Features& f) {
  std::string why = uprobe_blocker(f);
  if (!why.empty()) return "User-space functions: not traceable: " + why + "\n";
  return std::string("User-space functions attach with: ") + uprobe_mode_name(uprobe_mode_here(f)) +
         "\n";
}

void plan_for_attach(PlanOptions& p, AttachKind kind) { p.fentry = kind == AttachKind::Fentry; }

}  // namespace retsnoop
