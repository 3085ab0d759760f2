#include "events/session_assembler.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "events/args_decoder.h"
#include "util/log.h"

namespace retsnoop {

namespace {

// Parts of sessions whose header was lost would otherwise pile up forever. Session ids grow with
// session start, so anything this far behind the newest id is long finished in the kernel. The
// scan runs only once many sessions are pending, and then at most once per kScanInterval new
// ids: a flood that loses headers keeps the common path O(1).
constexpr uint64_t kOrphanDistance = 1u << 16;
constexpr size_t kEvictionThreshold = 4096;
constexpr uint64_t kScanInterval = 4096;

template <typename T>
bool copy_array(std::vector<T>& out, const void* payload, size_t payload_size, uint32_t cnt) {
  if (payload_size < size_t(cnt) * sizeof(T)) return false;
  auto items = static_cast<const T*>(payload);
  out.assign(items, items + cnt);
  return true;
}

std::string comm_string(const char (&comm)[RS_COMM_LEN]) {
  return std::string(comm, strnlen(comm, RS_COMM_LEN));
}

StackCall to_call(const rs_frame& f, bool stitched, bool running) {
  return StackCall{f.func_id, f.seq, f.start_ns, f.dur_ns, f.res, stitched, running};
}

// BPF sends a saved chain only when it hangs right below the reported one (src/bpf/chain.h):
// its levels deeper than the reported chain are the stitched ones. The outermost `running`
// levels of an interim report had not returned yet.
std::vector<StackCall> stack_calls(const std::vector<rs_frame>& frames,
                                   const std::vector<rs_frame>& saved, uint32_t running) {
  std::vector<StackCall> calls;
  calls.reserve(std::max(frames.size(), saved.size()));
  for (size_t i = 0; i < frames.size(); ++i)
    calls.push_back(to_call(frames[i], false, i < running));
  for (size_t i = frames.size(); i < saved.size(); ++i)
    calls.push_back(to_call(saved[i], true, false));
  return calls;
}

std::string flag_words(const Session& s) {
  std::string out = s.is_error ? "error" : "success";
  if (s.interim) out += ",interim";
  if (s.incomplete) out += ",incomplete";
  if (s.kstack_failed) out += ",kstack-failed";
  if (s.ustack_failed) out += ",ustack-failed";
  return out;
}

// -vv: one line per session, to tell what BPF sent from what the views make of it.
void log_session(const Session& s, const rs_session_rec& rec) {
  if (!log_enabled(LOG_DEBUG)) return;
  size_t stitched = s.calls.size() - std::min<size_t>(s.calls.size(), rec.depth);
  logf(LOG_DEBUG,
       "session %llu: %s, depth %u (+%zu stitched, %u running), kstack %zu, ustack %zu, lbr %zu, "
       "trace %zu (%u lost)\n",
       (unsigned long long)s.id, flag_words(s).c_str(), rec.depth, stitched, rec.running,
       s.kstack.size(), s.ustack.size(), s.lbr.size(), s.trace.size(), s.trace_lost);
}

bool parts_missing(const rs_session_rec& rec, const Session& s, size_t frames, size_t saved) {
  return (rec.flags & RS_SESS_PART_LOST) || frames != rec.depth || saved != rec.saved_depth ||
         s.kstack.size() != rec.kstack_cnt || s.ustack.size() != rec.ustack_cnt ||
         s.lbr.size() != rec.lbr_cnt || (rec.line_total && s.lines.empty());
}

// The ring holds hit n at n % its size: with more hits than it holds, the oldest kept one sits
// where the next would go.
std::vector<LineHit> hits_in_order(const std::vector<rs_line_hit>& ring, uint32_t total) {
  std::vector<LineHit> out;
  out.reserve(ring.size());
  size_t start = total > ring.size() && !ring.empty() ? total % ring.size() : 0;
  for (size_t i = 0; i < ring.size(); ++i) {
    const rs_line_hit& h = ring[(start + i) % ring.size()];
    out.push_back({h.line_id, h.call_seq, h.trace_seq});
  }
  return out;
}

// Fixed-size text fields: the kernel may fill one to its end without a terminator.
template <size_t N>
std::string field_text(const char (&field)[N]) {
  return std::string(field, strnlen(field, N));
}

KernelMessageKind message_kind(uint8_t kind) {
  switch (kind) {
    case RS_KMSG_FS: return KernelMessageKind::Fs;
    case RS_KMSG_EXTACK: return KernelMessageKind::Extack;
    case RS_KMSG_VERIFIER: return KernelMessageKind::Verifier;
    case RS_KMSG_PRINTK: return KernelMessageKind::Printk;
    default: return KernelMessageKind::Unknown;
  }
}

KernelMessage decode_message(const rs_kmsg_rec& rec) {
  KernelMessage m{.kind = message_kind(rec.kind),
                  .literal = rec.literal != 0,
                  .time_ns = rec.time_ns,
                  .caller = rec.caller,
                  .prefix = field_text(rec.prefix),
                  .fmt = field_text(rec.fmt)};
  for (uint32_t i = 0; i < rec.nargs && i < RS_KMSG_ARGS; ++i) {
    KernelMessageArg a{.value = rec.args[i]};
    if (rec.str_ok & (1u << i)) a.str = field_text(rec.strs[i]);
    m.args.push_back(std::move(a));
  }
  for (uint64_t ip : rec.stack) {
    if (!ip) break;
    m.stack.push_back(ip);
  }
  return m;
}

// The verifier writes a line in pieces (bpf/messages.bpf.c): a piece continues the one before
// until a newline, or a piece cut at the record's size, ends it. A line has a bound too.
bool continues_line(const KernelMessage& before, const KernelMessage& piece) {
  constexpr size_t kMaxLine = 4096;
  return before.kind == KernelMessageKind::Verifier && piece.kind == KernelMessageKind::Verifier &&
         !before.fmt.empty() && before.fmt.back() != '\n' &&
         before.fmt.size() + piece.fmt.size() <= kMaxLine;
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
  if (type == RS_REC_PROBE && size >= sizeof(rs_probe_rec)) {
    rs_probe_rec rec;
    std::memcpy(&rec, data, sizeof(rec));
    add_probe(rec);
    return std::nullopt;
  }
  if (type == RS_REC_KMSG && size >= sizeof(rs_kmsg_rec)) {
    auto rec = std::make_unique<rs_kmsg_rec>();
    std::memcpy(rec.get(), data, sizeof(*rec));
    add_message(*rec);
    return std::nullopt;
  }
  if (type == RS_REC_ARGS) {
    if (!add_args(data, size)) ++stats_.malformed;
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

SessionAssembler::Parts& SessionAssembler::parts_for(uint64_t id) {
  newest_id_ = std::max(newest_id_, id);
  if (open_used_ && open_id_ == id) return open_;
  if (!pending_.empty())
    if (auto it = pending_.find(id); it != pending_.end()) return it->second;
  if (open_used_) return pending_[id];
  open_used_ = true;
  open_id_ = id;
  return open_;
}

void SessionAssembler::Parts::clear() {
  frames.clear();
  saved.clear();
  kstack.clear();
  ustack.clear();
  lbr.clear();
  lines.clear();
  trace.clear();
  args.clear();
  probe_args.clear();
  messages.clear();
}

SessionAssembler::Parts& SessionAssembler::take_parts(uint64_t id) {
  taken_.clear();
  if (open_used_ && open_id_ == id) {
    open_used_ = false;
    std::swap(open_, taken_);
  } else if (auto it = pending_.find(id); it != pending_.end()) {
    std::swap(taken_, it->second);
    pending_.erase(it);
  }
  // Parts of an earlier session still open (its header lost, or -T records of a session still
  // running) move to pending_, where eviction sees them, and leave the slot to the next session.
  if (open_used_ && open_id_ < id) {
    open_used_ = false;
    pending_[open_id_] = std::exchange(open_, Parts{});
  }
  return taken_;
}

bool SessionAssembler::add_part(const rs_part_hdr& hdr, const void* payload, size_t size) {
  Parts& parts = parts_for(hdr.session_id);
  switch (hdr.type) {
    case RS_REC_FRAMES: return copy_array(parts.frames, payload, size, hdr.cnt);
    case RS_REC_SAVED: return copy_array(parts.saved, payload, size, hdr.cnt);
    case RS_REC_KSTACK: return copy_array(parts.kstack, payload, size, hdr.cnt);
    case RS_REC_USTACK: return copy_array(parts.ustack, payload, size, hdr.cnt);
    case RS_REC_LBR: return copy_array(parts.lbr, payload, size, hdr.cnt);
    case RS_REC_LINES: return copy_array(parts.lines, payload, size, hdr.cnt);
    default: return false;
  }
}

void SessionAssembler::add_call(const rs_call_rec& rec) {
  bool entry = rec.is_entry != 0;
  TraceRecordKind kind = entry ? TraceRecordKind::Entry : TraceRecordKind::Exit;
  parts_for(rec.session_id)
      .trace.push_back(TraceRecord{.func_id = rec.func_id,
                                   .seq = rec.seq,
                                   .call_seq = entry ? rec.call_seq : 0,
                                   .depth = rec.depth,
                                   .kind = kind,
                                   .ts_ns = entry ? rec.time_ns : 0,
                                   .dur_ns = entry ? 0 : rec.time_ns,
                                   .res = rec.res});
}

void SessionAssembler::add_probe(const rs_probe_rec& rec) {
  parts_for(rec.session_id)
      .trace.push_back(TraceRecord{.probe_id = rec.probe_id,
                                   .seq = rec.seq,
                                   .depth = rec.depth,
                                   .kind = TraceRecordKind::Probe,
                                   .ts_ns = rec.time_ns});
}

bool SessionAssembler::add_args(const void* data, size_t size) {
  rs_args_rec rec;
  if (size < sizeof(rec)) return false;
  std::memcpy(&rec, data, sizeof(rec));
  std::optional<CapturedArgs> args =
      decode_args(rec, static_cast<const uint8_t*>(data) + sizeof(rec), size - sizeof(rec));
  if (!args) return false;
  Parts& parts = parts_for(rec.session_id);
  if (rec.func_id & RS_ARGS_PROBE) {
    args->func_id = rec.func_id & ~RS_ARGS_PROBE;
    parts.probe_args[rec.call_seq] = std::move(*args);
  } else {
    parts.args[rec.call_seq] = std::move(*args);
  }
  return true;
}

void SessionAssembler::add_message(const rs_kmsg_rec& rec) {
  std::vector<KernelMessage>& messages = parts_for(rec.session_id).messages;
  KernelMessage m = decode_message(rec);
  // A piece cut at the record's size ends its line: the rest of the line was not captured.
  if (m.kind == KernelMessageKind::Verifier && m.fmt.size() == RS_KMSG_FMT - 1) m.fmt += '\n';
  if (!messages.empty() && continues_line(messages.back(), m))
    messages.back().fmt += m.fmt;
  else
    messages.push_back(std::move(m));
}

std::optional<Session> SessionAssembler::finish(const rs_session_rec& rec) {
  Parts& parts = take_parts(rec.session_id);
  newest_id_ = std::max(newest_id_, rec.session_id);
  evict_orphans();
  if (rec.flags & RS_SESS_DISCARD) {
    ++stats_.discarded;
    logf(LOG_DEBUG, "session %llu: discarded, %zu -T and %zu -A records freed\n",
         (unsigned long long)rec.session_id, parts.trace.size(),
         parts.args.size() + parts.probe_args.size());
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
  s.interim = rec.flags & RS_SESS_INTERIM;
  s.repeats_counted = rec.flags & RS_SESS_REPEAT_FIRST;
  s.kstack_failed = rec.flags & RS_SESS_KSTACK_ERR;
  s.ustack_failed = rec.flags & RS_SESS_USTACK_ERR;
  s.calls = stack_calls(parts.frames, parts.saved, rec.running);
  s.kstack = std::move(parts.kstack);
  std::reverse(s.kstack.begin(), s.kstack.end());
  s.ustack = std::move(parts.ustack);
  for (auto it = parts.lbr.rbegin(); it != parts.lbr.rend(); ++it)
    s.lbr.push_back({it->from, it->to});
  s.lines = hits_in_order(parts.lines, rec.line_total);
  s.lines_dropped = rec.line_total > s.lines.size() ? rec.line_total - uint32_t(s.lines.size()) : 0;
  if (s.interim) {
    // An interim report shows the -T and -A records of its session received so far; they stay
    // pending for the final report.
    if (const Parts* so_far = pending_parts(rec.trace_id)) {
      s.trace = so_far->trace;
      s.args = so_far->args;
      s.probe_args = so_far->probe_args;
      s.messages = so_far->messages;
    }
  } else {
    s.trace = std::move(parts.trace);
    s.args = std::move(parts.args);
    s.probe_args = std::move(parts.probe_args);
    s.messages = std::move(parts.messages);
  }
  s.trace_lost =
      rec.trace_lost + (rec.trace_cnt > s.trace.size() ? rec.trace_cnt - s.trace.size() : 0);
  s.incomplete = parts_missing(rec, s, parts.frames.size(), parts.saved.size());
  ++stats_.sessions;
  if (s.incomplete) ++stats_.incomplete;
  log_session(s, rec);
  return s;
}

const SessionAssembler::Parts* SessionAssembler::pending_parts(uint64_t id) const {
  if (open_used_ && open_id_ == id) return &open_;
  auto it = pending_.find(id);
  return it == pending_.end() ? nullptr : &it->second;
}

void SessionAssembler::evict_orphans() {
  if (pending_.size() < kEvictionThreshold || newest_id_ < kOrphanDistance) return;
  if (newest_id_ < next_scan_id_) return;
  next_scan_id_ = newest_id_ + kScanInterval;
  uint64_t limit = newest_id_ - kOrphanDistance;
  std::erase_if(pending_, [&](const auto& kv) {
    bool old = kv.first < limit;
    if (old) ++stats_.orphaned;
    return old;
  });
}

}  // namespace retsnoop
