// retsnoop's side of the symbolizer worker (symbolizer_worker.h): starts it when first needed,
// sends it requests and waits for each answer until a deadline. A worker that crashes, hangs
// or answers nonsense is killed and reaped; the request fails, and the next one starts a new
// worker. Thread-safe; shutdown() may run while another thread waits for an answer. The worker
// dies with the thread that started it (PR_SET_PDEATHSIG follows the thread): requests belong
// on one long-lived thread, the printer's.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "discovery/ret_kind.h"
#include "symbolize/elf_file.h"
#include "symbolize/symbolizer.h"
#include "symbolize/worker_protocol.h"

namespace retsnoop {

struct WorkerOptions {
  // The binary run as the worker, with kWorkerFlag: retsnoop itself. Unit tests name a small
  // program that runs symbolizer_worker_main().
  std::string exe = "/proc/self/exe";
  // A file's first read: its symbol table read and demangled, its DWARF sections read (up to
  // 512 MiB): about a second for the largest libraries from a cold disk. Beyond, the file is
  // taken for one crafted to hang the reader.
  std::chrono::milliseconds load_timeout{8000};
  // One address: its compile unit found, perhaps by walking every unit, and its line table
  // read. The printer waits this long at most per file, which a stop also waits for.
  std::chrono::milliseconds lookup_timeout{3000};
  // Workers lost (crashed, hung, or not started) before user-space symbolization stops for the
  // run: files crafted to hang it would otherwise cost a deadline each, stack after stack.
  unsigned max_failures = 8;
};

class WorkerClient {
 public:
  // A file loaded into one worker; worthless once that worker is gone.
  struct Handle {
    uint64_t generation = 0;  // 0: not loaded
    uint32_t id = 0;
  };

  explicit WorkerClient(WorkerOptions opts = {});
  ~WorkerClient();  // kills the worker
  WorkerClient(const WorkerClient&) = delete;
  WorkerClient& operator=(const WorkerClient&) = delete;

  // Each returns 0 or -errno: -ESTALE when h is of a worker gone since (load the file again),
  // -ECANCELED after shutdown() or too many failures; any other error lost the worker
  // (-ETIMEDOUT: it hung; -EPIPE: it died; -EPROTO: its answer made no sense), and counts.
  int load(int fd, Handle& h, LoadReply& reply);
  int add_debug_file(const Handle& h, int fd, bool& taken);
  int lookup(const Handle& h, uint64_t offset, bool is_return_addr, SymbolizedAddr& out);
  // out: the failure rule of the function at offset by its DWARF return type, nullopt when the
  // file has no DWARF for it.
  int ret_kind(const Handle& h, uint64_t offset, std::optional<RetKind>& out);
  // out: the prototype of the function at offset as raw BTF (unchecked: parse it as untrusted),
  // nullopt when the file has no DWARF for it that BTF can express.
  int func_btf(const Handle& h, uint64_t offset, std::optional<FuncBtfBlob>& out);
  // Forgets the file at the next request; never blocks.
  void close(const Handle& h);

  // Kills the worker and fails every request from now on, at once, even one being waited for.
  void shutdown();

  unsigned failures() const { return failures_.load(); }
  pid_t pid() const { return pid_.load(); }  // the running worker's, 0 when none (tests)

 private:
  int request(WorkerRequest req, int fd, std::chrono::milliseconds timeout, std::string& reply);
  // A request about one offset of a loaded file; reply: its payload, after seq and status.
  // status: the worker's (-ENODATA: nothing to say); a missing handle is -ESTALE.
  int query(const Handle& h, WorkerRequest req, std::string& reply, int32_t* status = nullptr);
  // A reply the worker should not have sent: the worker is lost.
  int protocol_error();
  int start();
  int await(std::string& buf, std::chrono::steady_clock::time_point deadline);
  void lose(int err);
  void stop_worker();
  void flush_closes();

  WorkerOptions opts_;
  std::mutex mu_;  // one request at a time
  int sock_ = -1;
  uint64_t generation_ = 0;
  uint64_t seq_ = 0;
  bool gaps_reported_ = false;  // the sandbox's gaps, under -v, for the first worker only
  std::atomic<pid_t> pid_{0};
  std::mutex pid_mu_;  // kill() and waitpid() of pid_, so that a reaped pid is never signalled
  std::atomic<bool> shut_down_{false};
  std::atomic<unsigned> failures_{0};
  std::mutex closes_mu_;
  std::vector<Handle> closes_;
};

}  // namespace retsnoop
