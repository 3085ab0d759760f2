#include "app/attach_choice.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "attach/kprobe_events.h"
#include "discovery/traceable.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

AttachKind check_fentry(const Features& f) {
  if (!f.has(Feature::FentryCookie))
    throw UserError("fentry/fexit attach needs BPF cookies for trampoline programs (Linux 5.19+)",
                    "use -K (single kprobes)");
  return AttachKind::Fentry;
}

}  // namespace

void check_kernel_support(const Features& f, const char* btf_path) {
  if (access(btf_path, R_OK) != 0)
    throw UserError(std::string("this kernel has no BTF (") + btf_path + ": " + std::strerror(errno) + ")",
                    "retsnoop needs a kernel built with CONFIG_DEBUG_INFO_BTF=y (Linux 5.5+)");
  if (!f.has(Feature::Ringbuf))
    throw UserError("this kernel has no BPF ring buffer (needs Linux 5.8+)");
  if (!f.has(Feature::BpfCookie))
    throw UserError("this kernel has no BPF cookies (needs Linux 5.15+)");
}

AttachKind choose_attach_kind(AttachMode mode, const Features& f) {
  switch (mode) {
    case AttachMode::Fentry:
      return check_fentry(f);
    case AttachMode::Kprobe:
      return AttachKind::Kprobe;
    case AttachMode::MultiKprobe:
      if (!f.has(Feature::MultiKprobe))
        logf(LOG_INFO, "multi-kprobe is not supported by this kernel, falling back to single kprobes\n");
      break;
    case AttachMode::Default:
      break;
  }
  return f.has(Feature::MultiKprobe) ? AttachKind::MultiKprobe : AttachKind::Kprobe;
}

bool kprobe_events_usable(const Features& f) {
  if (!f.has(Feature::FuncIp)) return false;
  bool writable = KprobeEventsFile::open(kDefaultTracefsDirs).has_value();
  if (!writable) logf(LOG_INFO, "kprobe_events is not writable, attaching one perf event per kprobe\n");
  return writable;
}

void plan_for_attach(PlanOptions& p, AttachKind kind) { p.fentry = kind == AttachKind::Fentry; }

}  // namespace retsnoop
