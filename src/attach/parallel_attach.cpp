#include "attach/parallel_attach.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>
#include <cstdlib>

#include "attach/parallel.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

std::string failure_message(const FuncInfo& fn, const AttachError& e) {
  std::string msg = "function '" + fn.name + "'";
  if (!fn.module.empty()) msg += " [" + fn.module + "]";
  return msg + ": " + e.what + ": " + std::strerror(-e.err);
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

// EXPERIMENT
size_t threads_env(const char* name) {
  const char* v = getenv(name);
  return v ? strtoul(v, nullptr, 10) : kAttachThreads;
}

}  // namespace

bool is_system_error(int err) {
  switch (-err) {
    case EMFILE:
    case ENFILE:
    case ENOMEM:
    case EPERM:
      return true;
    default:
      return false;
  }
}

AttachResult attach_each(const FuncTable& funcs, const AttachOpts& opts,
                         const std::function<AttachError(size_t id)>& attach_one) {
  std::atomic<size_t> attached{0}, skipped{0};
  FirstFatal fatal;
  parallel_for(funcs.size(), threads_env("RS_ATTACH_THREADS"), [&](size_t id) {
    if (fatal.seen() || opts.should_stop()) return;
    AttachError e = attach_one(id);
    if (e.err == 0) {
      ++attached;
      if (opts.progress) opts.progress->advance(2);
    } else if (is_system_error(e.err)) {
      fatal.set(failure_message(funcs[id], e));
    } else {
      logf(LOG_INFO, "skipping %s\n", failure_message(funcs[id], e).c_str());
      ++skipped;
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
  parallel_for(n, threads_env("RS_DETACH_THREADS"), [&](size_t i) {
    detach_one(i);
    if (progress) progress->advance(2);
  });
}

}  // namespace retsnoop
