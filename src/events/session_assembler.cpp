#include "events/session_assembler.h"

#include <algorithm>
#include <cstring>

#include "events/stitch.h"

namespace retsnoop {

namespace {

// Parts of sessions whose header was lost would otherwise pile up forever. Session ids grow with
// session start, so anything this far behind the newest id is long finished in the kernel. The
// scan runs only once many sessions are pending, keeping the common path O(1).
constexpr uint64_t kOrphanDistance = 1u << 16;
constexpr size_t kEvictionThreshold = 4096;

template <typename T>
bool copy_array(std::vector<T>& out, const void* payload, size_t payload_size, uint32_t cnt) {
  if (payload_size < size_t(cnt) * sizeof(T)) return false;
  out.resize(cnt);
  std::memcpy(out.data(), payload, size_t(cnt) * sizeof(T));
  return true;
}

std::string comm_string(const char (&comm)[RS_COMM_LEN]) {
  return std::string(comm, strnlen(comm, RS_COMM_LEN));
}

}  // namespace

std::optional<Session> SessionAssembler::consume(const void* data, size_t size) {
  uint32_t type = 0;
  if (size < sizeof(type)) {
    ++stats_.malformed;
    return std::nullopt;
  }
  std::memcpy(&type, data, sizeof(type));
  if (type == RS_REC_SESSION && size >= sizeof(rs_session_rec)) {
    rs_session_rec rec;
    std::memcpy(&rec, data, sizeof(rec));
    return finish(rec);
  }
  if (type == RS_REC_CALL && size >= sizeof(rs_call_rec)) {
    rs_call_rec rec;
    std::memcpy(&rec, data, sizeof(rec));
    add_call(rec);
    return std::nullopt;
  }
  if (size >= sizeof(rs_part_hdr)) {
    rs_part_hdr hdr;
    std::memcpy(&hdr, data, sizeof(hdr));
    auto payload = static_cast<const char*>(data) + sizeof(hdr);
    if (add_part(hdr, payload, size - sizeof(hdr))) return std::nullopt;
  }
  ++stats_.malformed;
  return std::nullopt;
}

bool SessionAssembler::add_part(const rs_part_hdr& hdr, const void* payload, size_t size) {
  Parts& parts = pending_[hdr.session_id];
  newest_id_ = std::max(newest_id_, hdr.session_id);
  switch (hdr.type) {
    case RS_REC_FRAMES:
      return copy_array(parts.frames, payload, size, hdr.cnt);
    case RS_REC_SAVED:
      return copy_array(parts.saved, payload, size, hdr.cnt);
    case RS_REC_KSTACK:
      return copy_array(parts.kstack, payload, size, hdr.cnt);
    case RS_REC_LBR:
      return copy_array(parts.lbr, payload, size, hdr.cnt);
    default:
      return false;
  }
}

void SessionAssembler::add_call(const rs_call_rec& rec) {
  newest_id_ = std::max(newest_id_, rec.session_id);
  pending_[rec.session_id].trace.push_back(
      TraceRecord{rec.func_id, rec.seq, rec.depth, rec.is_entry != 0, rec.ts_ns, rec.res});
}

std::optional<Session> SessionAssembler::finish(const rs_session_rec& rec) {
  Parts parts;
  if (auto it = pending_.find(rec.session_id); it != pending_.end()) {
    parts = std::move(it->second);
    pending_.erase(it);
  }
  evict_orphans();
  if (rec.flags & RS_SESS_DISCARD) {
    ++stats_.discarded;
    return std::nullopt;
  }

  Session s;
  s.id = rec.session_id;
  s.pid = rec.pid;
  s.tid = rec.tid;
  s.task_comm = comm_string(rec.task_comm);
  s.proc_comm = comm_string(rec.proc_comm);
  s.start_ns = rec.start_ns;
  s.end_ns = rec.end_ns;
  s.is_error = rec.flags & RS_SESS_ERROR;
  s.kstack_failed = rec.flags & RS_SESS_KSTACK_ERR;
  s.calls = stitch_chains(parts.frames, parts.saved);
  s.kstack.assign(parts.kstack.rbegin(), parts.kstack.rend());
  for (auto it = parts.lbr.rbegin(); it != parts.lbr.rend(); ++it) s.lbr.push_back({it->from, it->to});
  s.trace = std::move(parts.trace);
  s.trace_lost = rec.trace_lost + (rec.trace_cnt > s.trace.size() ? rec.trace_cnt - s.trace.size() : 0);
  s.incomplete = (rec.flags & RS_SESS_PART_LOST) || parts.frames.size() != rec.depth ||
                 parts.kstack.size() != rec.kstack_cnt;
  ++stats_.sessions;
  if (s.incomplete) ++stats_.incomplete;
  return s;
}

void SessionAssembler::evict_orphans() {
  if (pending_.size() < kEvictionThreshold || newest_id_ < kOrphanDistance) return;
  uint64_t limit = newest_id_ - kOrphanDistance;
  std::erase_if(pending_, [&](const auto& kv) {
    bool old = kv.first < limit;
    if (old) ++stats_.orphaned;
    return old;
  });
}

}  // namespace retsnoop
