#include "symbolize/worker_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "symbolize/symbolizer_worker.h"
#include "util/fault_injection.h"
#include "util/log.h"

namespace retsnoop {

namespace {

using Clock = std::chrono::steady_clock;

// The worker's first message says whether it entered its sandbox; it has this long to.
constexpr auto kStartTimeout = std::chrono::seconds(5);

// The op a test build sends instead of a load, when RETSNOOP_TEST_FAULT asks for it.
WorkerOp load_op() {
  try {
    inject_fault(FaultPoint::SymbolizerCrash);
    inject_fault(FaultPoint::SymbolizerHang);
  } catch (const std::exception& e) {
    return std::strstr(e.what(), "hang") ? WorkerOp::Hang : WorkerOp::Crash;
  }
  return WorkerOp::Load;
}

// The worker starts with an empty environment, default signal dispositions, nothing blocked,
// and in a process group of its own, which a Ctrl-C meant for retsnoop does not reach.
int spawn(const std::string& exe, int child_sock, pid_t& pid) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_adddup2(&fa, child_sock, kWorkerSocketFd);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  std::string parent = std::to_string(getpid());
  char* argv[] = {const_cast<char*>(exe.c_str()), const_cast<char*>(kWorkerFlag), parent.data(),
                  nullptr};
  char* envp[] = {nullptr};
  int err = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv, envp);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  return -err;
}

// Once per client: the isolation the kernel or the service manager refused the worker.
void report_gaps(ReplyReader& r) {
  int namespaces = r.i32(), bounding_set = r.i32();
  if (!r.ok()) return;
  if (namespaces)
    logf(LOG_INFO, "symbolizer worker: no network and IPC namespaces of its own: %s\n",
         std::strerror(-namespaces));
  if (bounding_set)
    logf(LOG_INFO, "symbolizer worker: capability bounding set kept: %s\n",
         std::strerror(-bounding_set));
}

const char* loss_reason(int err) {
  switch (err) {
    case -ETIMEDOUT: return "did not answer in time";
    case -EPIPE: return "died";
    case -EPROTO: return "answered out of protocol";
    default: return std::strerror(-err);
  }
}

}  // namespace

WorkerClient::WorkerClient(WorkerOptions opts) : opts_(std::move(opts)) {}

WorkerClient::~WorkerClient() { stop_worker(); }

void WorkerClient::stop_worker() {
  {
    std::lock_guard lock(pid_mu_);
    if (pid_t pid = pid_.load()) {
      kill(pid, SIGKILL);
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      pid_ = 0;
    }
  }
  if (sock_ >= 0) ::close(std::exchange(sock_, -1));
}

void WorkerClient::shutdown() {
  shut_down_ = true;
  // Kills only: the thread waiting for an answer sees the socket close and reaps.
  std::lock_guard lock(pid_mu_);
  if (pid_t pid = pid_.load()) kill(pid, SIGKILL);
}

// With mu_ held: the worker and every handle into it are gone.
void WorkerClient::lose(int err) {
  stop_worker();
  ++generation_;
  unsigned n = ++failures_;
  if (shut_down_) return;
  logf(LOG_DEBUG, "symbolizer worker %s (%u lost)\n", loss_reason(err), n);
  if (n == opts_.max_failures)
    logf(LOG_WARN,
         "the -U symbolizer worker was lost %u times; user stacks show files and offsets from "
         "now on\n",
         n);
}

// With mu_ held. The socket's far end becomes the worker's kWorkerSocketFd.
int WorkerClient::start() {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) return -errno;
  OwnedFd mine(sv[0]), theirs(sv[1]);
  // dup2() onto itself would leave close-on-exec set.
  if (theirs.get() == kWorkerSocketFd) theirs = OwnedFd(fcntl(sv[1], F_DUPFD_CLOEXEC, 10));
  pid_t pid = 0;
  int err = spawn(opts_.exe, theirs.get(), pid);
  if (err) {
    if (!failures_)
      logf(LOG_WARN, "cannot start the -U symbolizer worker: %s\n", std::strerror(-err));
    lose(err);
    return err;
  }
  pid_ = pid;
  sock_ = mine.release();
  ++generation_;
  std::string hello;
  err = await(hello, Clock::now() + kStartTimeout);
  ReplyReader r(hello);
  r.u64();
  int32_t status = r.i32();
  if (!err && (!r.ok() || status)) err = r.ok() ? status : -EPROTO;
  if (!err && !gaps_reported_) {
    report_gaps(r);
    gaps_reported_ = true;
  }
  if (err) {
    if (!failures_)
      logf(LOG_WARN, "cannot start the -U symbolizer worker: %s\n",
           err == -EPIPE ? "it exited" : std::strerror(-err));
    lose(err);
  }
  return err;
}

// With mu_ held: the next packet, by the deadline.
int WorkerClient::await(std::string& buf, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return -ETIMEDOUT;
    pollfd p{sock_, POLLIN, 0};
    int n = poll(&p, 1, int(left));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -errno;
    if (n == 0) continue;  // the deadline is checked above
    return recv_packet(sock_, buf);
  }
}

void WorkerClient::close(const Handle& h) {
  if (!h.generation) return;
  std::lock_guard lock(closes_mu_);
  closes_.push_back(h);
}

// With mu_ held. Sent without waiting: a worker that reads no more is caught by the request.
void WorkerClient::flush_closes() {
  std::vector<Handle> closes;
  {
    std::lock_guard lock(closes_mu_);
    closes.swap(closes_);
  }
  for (const Handle& h : closes) {
    if (h.generation != generation_ || sock_ < 0) continue;
    WorkerRequest req{uint32_t(WorkerOp::Close), h.id, ++seq_};
    send_packet(sock_, &req, sizeof(req));
  }
}

// With mu_ held: one request and its answer; a failure loses the worker.
int WorkerClient::request(WorkerRequest req, int fd, std::chrono::milliseconds timeout,
                          std::string& reply) {
  if (shut_down_ || failures_ >= opts_.max_failures) return -ECANCELED;
  if (sock_ < 0) {
    if (int err = start()) return shut_down_ ? -ECANCELED : err;
  }
  flush_closes();
  req.seq = ++seq_;
  int err = send_packet(sock_, &req, sizeof(req), fd);
  if (!err) err = await(reply, Clock::now() + timeout);
  if (!err) {
    ReplyReader r(reply);
    if (r.u64() != req.seq || !r.ok()) err = -EPROTO;
  }
  if (err) {
    lose(err);
    return shut_down_ ? -ECANCELED : err;
  }
  return 0;
}

int WorkerClient::load(int fd, Handle& h, LoadReply& out) {
  std::lock_guard lock(mu_);
  std::string buf;
  WorkerRequest req{uint32_t(load_op())};
  if (int err = request(req, fd, opts_.load_timeout, buf)) return err;
  ReplyReader r(buf);
  r.u64();
  int32_t status = r.i32();
  uint64_t id = r.u64();
  out.build_id = r.str();
  out.wants_debug_file = r.u8() != 0;
  if (status) return status < 0 ? status : -EPROTO;
  if (!r.ok() || id > UINT32_MAX) {
    lose(-EPROTO);
    return -EPROTO;
  }
  h = Handle{generation_, uint32_t(id)};
  return 0;
}

int WorkerClient::add_debug_file(const Handle& h, int fd, bool& taken) {
  std::lock_guard lock(mu_);
  if (h.generation != generation_) return -ESTALE;
  std::string buf;
  WorkerRequest req{uint32_t(WorkerOp::DebugFile), h.id};
  if (int err = request(req, fd, opts_.load_timeout, buf)) return err;
  ReplyReader r(buf);
  r.u64();
  taken = r.i32() == 1;
  return 0;
}

int WorkerClient::query(const Handle& h, WorkerRequest req, std::string& reply, int32_t* status) {
  if (h.generation != generation_) return -ESTALE;
  if (int err = request(req, -1, opts_.lookup_timeout, reply)) return err;
  ReplyReader r(reply);
  r.u64();
  int32_t st = r.i32();
  if (!r.ok()) return protocol_error();
  if (st == -ENODATA && status) {
    *status = st;
  } else if (st) {
    return -ESTALE;  // the worker has no such handle: load again
  }
  reply.erase(0, sizeof(uint64_t) + sizeof(int32_t));
  return 0;
}

int WorkerClient::protocol_error() {
  lose(-EPROTO);
  return -EPROTO;
}

int WorkerClient::lookup(const Handle& h, uint64_t offset, bool is_return_addr,
                         SymbolizedAddr& out) {
  std::lock_guard lock(mu_);
  std::string buf;
  WorkerRequest req{uint32_t(WorkerOp::Lookup), h.id, 0, offset, is_return_addr};
  if (int err = query(h, req, buf)) return err;
  ReplyReader r(buf);
  out = r.sym();
  return r.ok() ? 0 : protocol_error();
}

int WorkerClient::ret_kind(const Handle& h, uint64_t offset, std::optional<RetKind>& out) {
  std::lock_guard lock(mu_);
  std::string buf;
  WorkerRequest req{uint32_t(WorkerOp::RetKind), h.id, 0, offset, 0};
  if (int err = query(h, req, buf)) return err;
  ReplyReader r(buf);
  uint8_t kind = r.u8();
  if (!r.ok() || (kind != kNoRetKind && kind >= RS_RET_KIND_CNT)) return protocol_error();
  out = kind == kNoRetKind ? std::nullopt : std::optional(static_cast<RetKind>(kind));
  return 0;
}

int WorkerClient::func_btf(const Handle& h, uint64_t offset, std::optional<FuncBtfBlob>& out) {
  std::lock_guard lock(mu_);
  std::string buf;
  int32_t status = 0;
  WorkerRequest req{uint32_t(WorkerOp::FuncBtf), h.id, 0, offset, 0};
  if (int err = query(h, req, buf, &status)) return err;
  out.reset();
  if (status) return 0;
  ReplyReader r(buf);
  FuncBtfBlob b;
  b.raw = r.blob();
  b.func_id = r.i32();
  if (!r.ok()) return protocol_error();
  out = std::move(b);
  return 0;
}

}  // namespace retsnoop
