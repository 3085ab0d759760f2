#include "events/ringbuf_reader.h"

#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "util/error.h"

namespace retsnoop {

namespace {

constexpr int kMaxBatch = 4096;
// Returned by on_record to end a poll early. libbpf has consumed the record by then; the rest
// stays in the ring buffer for the next poll.
constexpr int kBatchFull = -ECANCELED;

}  // namespace

RingbufReader::RingbufReader(int map_fd, Handler handler, ProcessHandler on_process)
    : handler_(std::move(handler)), on_process_(std::move(on_process)) {
  rb_ = ring_buffer__new(map_fd, &RingbufReader::on_record, this, nullptr);
  if (!rb_)
    throw UserError(std::string("cannot set up the BPF ring buffer: ") + std::strerror(errno));
}

RingbufReader::~RingbufReader() { ring_buffer__free(rb_); }

// Called from libbpf's C code, which an exception must not cross: it ends the poll and is
// rethrown by poll().
int RingbufReader::on_record(void* ctx, void* data, size_t size) noexcept {
  auto* self = static_cast<RingbufReader*>(ctx);
  try {
    self->consume(data, size);
  } catch (...) {
    self->error_ = std::current_exception();
    return kBatchFull;
  }
  return ++self->batch_ < kMaxBatch ? 0 : kBatchFull;
}

// Process notices carry no session: they bypass the assembler.
void RingbufReader::consume(const void* data, size_t size) {
  rs_proc_rec proc;
  if (size == sizeof(proc)) {
    std::memcpy(&proc, data, sizeof(proc));
    if (proc.type == RS_REC_PROC) {
      if (on_process_) on_process_(proc.pid, proc.session_id);
      return;
    }
  }
  if (auto session = assembler_.consume(data, size)) handler_(std::move(*session));
}

int RingbufReader::poll(int timeout_ms) {
  batch_ = 0;
  int n = ring_buffer__poll(rb_, timeout_ms);
  // Sessions wake the poll up only once a batch has piled up (bpf/report.bpf.h): a timeout must
  // still collect what arrived.
  if (n == 0) n = ring_buffer__consume(rb_);
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return n == kBatchFull ? batch_ : n;
}

}  // namespace retsnoop
