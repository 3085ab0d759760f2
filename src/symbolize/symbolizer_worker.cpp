#include "symbolize/symbolizer_worker.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "symbolize/elf_file.h"
#include "symbolize/worker_protocol.h"
#include "symbolize/worker_sandbox.h"

namespace retsnoop {

namespace {

class Worker {
 public:
  explicit Worker(int sock) : sock_(sock) {}
  // False when the parent is gone or sent what no parent sends.
  bool serve_one();

 private:
  void load(const WorkerRequest& req, OwnedFd fd);
  void debug_file(const WorkerRequest& req, OwnedFd fd);
  void lookup(const WorkerRequest& req);
  void ret_kind(const WorkerRequest& req);
  void func_btf(const WorkerRequest& req);
  bool reply(const ReplyWriter& w) {
    return send_packet(sock_, w.bytes().data(), w.bytes().size()) == 0;
  }
  ElfFile* file(uint32_t handle);

  int sock_;
  uint32_t next_handle_ = 1;
  std::map<uint32_t, std::unique_ptr<ElfFile>> files_;
  bool replied_ = true;
};

ElfFile* Worker::file(uint32_t handle) {
  auto it = files_.find(handle);
  return it == files_.end() ? nullptr : it->second.get();
}

// The whole first read happens here, under the parent's load deadline.
void Worker::load(const WorkerRequest& req, OwnedFd fd) {
  ReplyWriter w(req.seq, 0);
  if (!fd) {
    replied_ = reply(ReplyWriter(req.seq, -EBADF));
    return;
  }
  auto f = std::make_unique<ElfFile>(std::move(fd), std::vector<ElfFile::Dir>{});
  LoadReply r{f->build_id(), f->wants_debug_file()};
  uint32_t handle = next_handle_++;
  files_.emplace(handle, std::move(f));
  w.u64(handle);
  w.str(r.build_id);
  w.u8(r.wants_debug_file);
  replied_ = reply(w);
}

void Worker::debug_file(const WorkerRequest& req, OwnedFd fd) {
  ElfFile* f = file(req.handle);
  bool taken = f && fd && f->use_debug_file(std::move(fd));
  replied_ = reply(ReplyWriter(req.seq, taken ? 1 : 0));
}

void Worker::lookup(const WorkerRequest& req) {
  ElfFile* f = file(req.handle);
  ReplyWriter w(req.seq, f ? 0 : -ENOENT);
  if (f) w.sym(f->lookup(req.offset, req.is_return_addr != 0));
  replied_ = reply(w);
}

void Worker::ret_kind(const WorkerRequest& req) {
  ElfFile* f = file(req.handle);
  ReplyWriter w(req.seq, f ? 0 : -ENOENT);
  if (f) {
    std::optional<RetKind> kind = f->ret_kind(req.offset);
    w.u8(kind ? static_cast<uint8_t>(*kind) : kNoRetKind);
  }
  replied_ = reply(w);
}

void Worker::func_btf(const WorkerRequest& req) {
  ElfFile* f = file(req.handle);
  std::optional<FuncBtfBlob> b = f ? f->func_btf(req.offset) : std::nullopt;
  ReplyWriter w(req.seq, !f ? -ENOENT : b ? 0 : -ENODATA);
  if (b) {
    w.blob(b->raw);
    w.i32(b->func_id);
  }
  replied_ = reply(w);
}

bool Worker::serve_one() {
  std::string buf;
  OwnedFd fd;
  if (recv_packet(sock_, buf, &fd) || buf.size() != sizeof(WorkerRequest)) return false;
  WorkerRequest req;
  std::memcpy(&req, buf.data(), sizeof(req));
  switch (WorkerOp(req.op)) {
    case WorkerOp::Load: load(req, std::move(fd)); break;
    case WorkerOp::DebugFile: debug_file(req, std::move(fd)); break;
    case WorkerOp::Lookup: lookup(req); break;
    case WorkerOp::RetKind: ret_kind(req); break;
    case WorkerOp::FuncBtf: func_btf(req); break;
    case WorkerOp::Close: files_.erase(req.handle); break;
    case WorkerOp::Crash: std::abort();
    case WorkerOp::Hang:
      for (;;) pause();
    default: return false;
  }
  return replied_;
}

}  // namespace

bool is_worker_invocation(int argc, char** argv) {
  return argc >= 2 && std::strcmp(argv[1], kWorkerFlag) == 0;
}

int symbolizer_worker_main(int argc, char** argv) {
  if (argc != 3) return 2;
  pid_t parent = pid_t(std::strtol(argv[2], nullptr, 10));
  // The parent waits for this: a worker that could not give up its privileges reads nothing.
  SandboxGaps gaps;
  int err = enter_worker_sandbox(kWorkerSocketFd, parent, gaps);
  ReplyWriter hello(0, err);
  hello.i32(gaps.namespaces);
  hello.i32(gaps.bounding_set);
  if (send_packet(kWorkerSocketFd, hello.bytes().data(), hello.bytes().size()) || err) return 1;
  Worker worker(kWorkerSocketFd);
  while (worker.serve_one()) {
  }
  return 0;
}

}  // namespace retsnoop
