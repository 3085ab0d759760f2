// Reassembles sessions from the ring buffer's part and header records (see src/bpf/abi.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "bpf/abi.h"
#include "events/session.h"

namespace retsnoop {

struct AssemblerStats {
  uint64_t sessions = 0;    // complete sessions handed out
  uint64_t incomplete = 0;  // sessions with a lost part, handed out marked as such
  uint64_t discarded = 0;   // -T sessions that BPF decided not to report
  uint64_t malformed = 0;   // records that did not decode
  uint64_t orphaned = 0;    // parts whose header never came, evicted
};

class SessionAssembler {
 public:
  // Consumes one ring buffer record; returns the session its header completes, if any.
  std::optional<Session> consume(const void* data, size_t size);
  const AssemblerStats& stats() const { return stats_; }
  size_t pending() const { return pending_.size() + open_used_; }

 private:
  struct Parts {
    std::vector<rs_frame> frames;
    std::vector<rs_frame> saved;
    std::vector<uint64_t> kstack;
    std::vector<uint64_t> ustack;
    std::vector<rs_lbr_entry> lbr;
    std::vector<rs_line_hit> lines;  // in the order of the session's ring
    std::vector<TraceRecord> trace;
    std::map<uint32_t, CapturedArgs> args;
    std::map<uint32_t, CapturedArgs> probe_args;
    std::vector<KernelMessage> messages;

    void clear();  // keeps the vectors' capacity
  };

  Parts& parts_for(uint64_t id);   // where id's records go
  Parts& take_parts(uint64_t id);  // id's records, for its header: valid until the next one
  bool add_part(const rs_part_hdr& hdr, const void* payload, size_t payload_size);
  void add_call(const rs_call_rec& rec);
  void add_probe(const rs_probe_rec& rec);
  bool add_args(const void* data, size_t size);
  void add_message(const rs_kmsg_rec& rec);
  std::optional<Session> finish(const rs_session_rec& rec);
  const Parts* pending_parts(uint64_t id) const;
  void evict_orphans();

  // BPF emits a session's parts back to back, right before its header: they wait here, and
  // only records interleaved with them (other CPUs, -T records of running sessions) wait in
  // pending_. A flood is spared a hash map node per session.
  Parts open_;
  uint64_t open_id_ = 0;
  bool open_used_ = false;
  // The parts of the session being finished. Swapped with open_ rather than moved out of it, so
  // that the buffers not handed on to the Session are reused by the next one.
  Parts taken_;
  std::unordered_map<uint64_t, Parts> pending_;
  uint64_t newest_id_ = 0;
  uint64_t next_scan_id_ = 0;  // no orphan scan before this id: see evict_orphans()
  AssemblerStats stats_;
};

}  // namespace retsnoop
