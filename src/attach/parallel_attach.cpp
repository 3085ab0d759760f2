#include "attach/parallel_attach.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>

#include "attach/parallel.h"
#include "util/errno_names.h"
#include "util/error.h"
#include "util/fault_injection.h"
#include "util/log.h"

namespace retsnoop {

namespace {

// strerror() knows only user-space errnos; kernel-internal ones (512 and up, e.g. ENOTSUPP from a
// trampoline that cannot pass the function's arguments) get their kernel name.
std::string describe_errno(int err) {
  const char* name = err >= 512 ? errno_name(err) : nullptr;
  if (!name) return std::strerror(err);
  return std::string(name) + " (kernel-internal error " + std::to_string(err) + ")";
}

// The first system error wins; later ones are the same condition seen by other threads.
class FirstFatal {
 public:
  void set(std::string msg) {
    std::lock_guard lock(mu_);
    if (!msg_) msg_ = std::move(msg);
    seen_ = true;
  }
  bool seen() const { return seen_.load(); }
  const std::optional<std::string>& message() const { return msg_; }

 private:
  std::mutex mu_;
  std::atomic<bool> seen_{false};
  std::optional<std::string> msg_;
};

}  // namespace

std::string failure_message(const FuncInfo& fn, const AttachError& e) {
  std::string msg = "function '" + fn.name + "'";
  if (!fn.module.empty()) msg += " [" + fn.module + "]";
  return msg + ": " + e.what + ": " + describe_errno(-e.err);
}

bool is_system_error(int err) {
  switch (-err) {
    case EMFILE:
    case ENFILE:
    case ENOMEM:
    case EPERM: return true;
    default: return false;
  }
}

bool skip_function(const FuncInfo& fn, const AttachError& e) {
  if (is_system_error(e.err)) return false;
  logf(LOG_INFO, "skipping %s\n", failure_message(fn, e).c_str());
  return true;
}

AttachResult attach_each(const FuncTable& funcs, const AttachOpts& opts,
                         const std::function<AttachError(size_t id)>& attach_one) {
  std::atomic<size_t> attached{0}, skipped{0};
  FirstFatal fatal;
  parallel_for(funcs.size(), kAttachThreads, [&](size_t id) {
    if (fatal.seen() || opts.should_stop()) return;
    AttachError e = attach_one(id);
    if (e.err == 0) {
      inject_fault(FaultPoint::Attach);
      ++attached;
      if (opts.progress) opts.progress->advance(2);
    } else if (skip_function(funcs[id], e)) {
      ++skipped;
    } else {
      fatal.set(failure_message(funcs[id], e));
    }
  });
  if (fatal.seen()) throw UserError(*fatal.message());
  AttachResult res;
  res.attached = attached;
  res.skipped = skipped;
  res.interrupted = opts.should_stop();
  return res;
}

void detach_each(size_t n, ProgressMeter* progress, const std::function<void(size_t)>& detach_one) {
  parallel_for(n, kAttachThreads, [&](size_t i) {
    detach_one(i);
    if (progress) progress->advance(2);
    inject_fault(FaultPoint::Detach);
  });
}

void detach_or_log(Attacher& attacher) noexcept {
  try {
    attacher.detach(nullptr);
  } catch (const std::exception& e) {
    logf(LOG_WARN, "detaching %s probes: %s\n", attacher.name(), e.what());
  } catch (...) {
    logf(LOG_WARN, "cannot detach %s probes\n", attacher.name());
  }
}

}  // namespace retsnoop
