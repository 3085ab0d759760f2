// Drains the BPF ring buffer and hands out complete sessions.
#pragma once

#include <exception>
#include <functional>

#include "events/session_assembler.h"

struct ring_buffer;

namespace retsnoop {

class RingbufReader {
 public:
  using Handler = std::function<void(Session&&)>;
  // -U: a process opened its first session since it started or last exec'd (RS_REC_PROC),
  // session_id; called on the polling thread.
  using ProcessHandler = std::function<void(uint32_t pid, uint64_t session_id)>;

  // Throws UserError if the ring buffer cannot be mapped.
  RingbufReader(int map_fd, Handler handler, ProcessHandler on_process = {});
  ~RingbufReader();
  RingbufReader(const RingbufReader&) = delete;
  RingbufReader& operator=(const RingbufReader&) = delete;

  // Waits up to timeout_ms for a wake-up and consumes what is there (also when the wait timed
  // out: the tracer wakes user space only for batches), but at most a batch of records:
  // a flood must not keep the caller from noticing a stop request. Returns the number of records
  // consumed or a negative errno (-EINTR when a signal arrived).
  int poll(int timeout_ms);
  const AssemblerStats& stats() const { return assembler_.stats(); }

 private:
  static int on_record(void* ctx, void* data, size_t size) noexcept;

  ring_buffer* rb_ = nullptr;
  SessionAssembler assembler_;
  void consume(const void* data, size_t size);

  Handler handler_;
  ProcessHandler on_process_;
  int batch_ = 0;             // records consumed by the current poll()
  std::exception_ptr error_;  // thrown by the handler during the current poll()
};

}  // namespace retsnoop
