#include "events/session_assembler.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace retsnoop {
namespace {

// Builds ring buffer records the way the BPF side lays them out.
template <typename T>
std::vector<char> part(uint32_t type, uint64_t sid, const std::vector<T>& items) {
  rs_part_hdr hdr{type, static_cast<uint32_t>(items.size()), sid};
  std::vector<char> buf(sizeof(hdr) + items.size() * sizeof(T));
  std::memcpy(buf.data(), &hdr, sizeof(hdr));
  if (!items.empty()) std::memcpy(buf.data() + sizeof(hdr), items.data(), items.size() * sizeof(T));
  return buf;
}

rs_session_rec header(uint64_t sid, uint32_t depth, uint32_t kstack,
                      uint32_t flags = RS_SESS_ERROR) {
  rs_session_rec r{};
  r.type = RS_REC_SESSION;
  r.flags = flags;
  r.session_id = sid;
  r.pid = 100;
  r.tid = 101;
  std::strcpy(r.task_comm, "simfail");
  std::strcpy(r.proc_comm, "simfail");
  r.start_ns = 1000;
  r.end_ns = 76000;
  r.depth = depth;
  r.kstack_cnt = kstack;
  return r;
}

// The -T counts of a header: records of session trace_id sent and lost.
rs_session_rec traced(rs_session_rec h, uint64_t trace_id, uint32_t cnt, uint32_t lost = 0) {
  h.trace_id = trace_id;
  h.trace_cnt = cnt;
  h.trace_lost = lost;
  return h;
}

rs_frame frame(uint32_t id, uint32_t seq, int64_t res) { return rs_frame{id, seq, 0, 1000, res}; }

std::optional<Session> feed(SessionAssembler& a, const std::vector<char>& rec) {
  return a.consume(rec.data(), rec.size());
}

std::optional<Session> feed(SessionAssembler& a, rs_session_rec rec) {
  return a.consume(&rec, sizeof(rec));
}

TEST(SessionAssembler, HeaderCompletesSessionFromItsParts) {
  SessionAssembler a;
  EXPECT_FALSE(feed(a, part(RS_REC_FRAMES, 7, std::vector{frame(0, 0, -22), frame(1, 1, -22)})));
  EXPECT_FALSE(feed(a, part(RS_REC_KSTACK, 7, std::vector<uint64_t>{0x30, 0x20, 0x10})));
  auto s = feed(a, header(7, 2, 3));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->id, 7u);
  EXPECT_EQ(s->task_comm, "simfail");
  EXPECT_TRUE(s->is_error);
  EXPECT_FALSE(s->incomplete);
  ASSERT_EQ(s->calls.size(), 2u);
  EXPECT_EQ(s->calls[1].res, -22);
  // BPF sends the innermost kernel frame first; sessions keep the outermost first.
  EXPECT_EQ(s->kstack, (std::vector<uint64_t>{0x10, 0x20, 0x30}));
  EXPECT_EQ(a.pending(), 0u);
}

// --line-trace: the ring of 4 hits held hits 0..5 in slots 4, 5, 2, 3 (hit n at n % 4): the
// session gets them oldest first, and the two overwritten counted.
TEST(SessionAssembler, LineRingComesOldestFirst) {
  SessionAssembler a;
  feed(a, part(RS_REC_FRAMES, 7, std::vector{frame(0, 0, -22)}));
  feed(a,
       part(RS_REC_LINES, 7, std::vector<rs_line_hit>{{4, 0, 0}, {5, 0, 0}, {2, 0, 0}, {3, 0, 0}}));
  rs_session_rec h = header(7, 1, 0);
  h.line_total = 6;
  auto s = feed(a, h);
  ASSERT_TRUE(s);
  std::vector<uint32_t> ids;
  for (const LineHit& hit : s->lines) ids.push_back(hit.line_id);
  EXPECT_EQ(ids, (std::vector<uint32_t>{2, 3, 4, 5}));
  EXPECT_EQ(s->lines_dropped, 2u);
  EXPECT_FALSE(s->incomplete);
}

TEST(SessionAssembler, LineRingNotFullKeepsItsOrder) {
  SessionAssembler a;
  feed(a, part(RS_REC_FRAMES, 7, std::vector{frame(0, 0, -22)}));
  feed(a, part(RS_REC_LINES, 7, std::vector<rs_line_hit>{{0, 0, 0}, {1, 0, 0}}));
  rs_session_rec h = header(7, 1, 0);
  h.line_total = 2;
  auto s = feed(a, h);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->lines.size(), 2u);
  EXPECT_EQ(s->lines[0].line_id, 0u);
  EXPECT_EQ(s->lines_dropped, 0u);
}

// Hits were recorded but their part never came (ring buffer full): the session says so.
TEST(SessionAssembler, LostLinePartMarksSessionIncomplete) {
  SessionAssembler a;
  feed(a, part(RS_REC_FRAMES, 7, std::vector{frame(0, 0, -22)}));
  rs_session_rec h = header(7, 1, 0);
  h.line_total = 3;
  auto s = feed(a, h);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->incomplete);
  EXPECT_EQ(s->lines_dropped, 3u);
}

TEST(SessionAssembler, InterleavedSessionsStayApart) {
  SessionAssembler a;
  feed(a, part(RS_REC_FRAMES, 1, std::vector{frame(5, 0, -1)}));
  feed(a, part(RS_REC_FRAMES, 2, std::vector{frame(6, 0, -2), frame(7, 1, -2)}));
  auto s2 = feed(a, header(2, 2, 0));
  auto s1 = feed(a, header(1, 1, 0));
  ASSERT_TRUE(s1 && s2);
  EXPECT_EQ(s1->calls.size(), 1u);
  EXPECT_EQ(s1->calls[0].func_id, 5u);
  EXPECT_EQ(s2->calls.size(), 2u);
}

// A running -T session's records, interleaved with sessions that start and end meanwhile (on
// other CPUs), all reach it; none of theirs do.
TEST(SessionAssembler, TraceOfARunningSessionOutlivesShorterSessions) {
  SessionAssembler a;
  rs_call_rec entry{RS_REC_CALL, 0, 1, 0, 4, 2, 0, 100, {0}};
  rs_call_rec exit{RS_REC_CALL, 0, 0, 0, 4, 2, 1, 200, {5}};
  a.consume(&entry, sizeof(entry));
  for (uint64_t sid = 5; sid <= 7; ++sid) {
    feed(a, part(RS_REC_FRAMES, sid, std::vector{frame(1, 0, -1)}));
    auto s = feed(a, header(sid, 1, 0));
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->trace.empty());
    EXPECT_FALSE(s->incomplete);
  }
  a.consume(&exit, sizeof(exit));
  feed(a, part(RS_REC_FRAMES, 4, std::vector{frame(2, 0, 5)}));
  auto s = feed(a, traced(header(4, 1, 0, 0), 4, 2));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->calls.size(), 1u);
  EXPECT_EQ(s->calls[0].func_id, 2u);
  ASSERT_EQ(s->trace.size(), 2u);
  EXPECT_EQ(s->trace_lost, 0u);
  EXPECT_EQ(a.pending(), 0u);
}

// Parts whose header was lost do not hold up the sessions after them.
TEST(SessionAssembler, LostHeaderLeavesLaterSessionsWhole) {
  SessionAssembler a;
  feed(a, part(RS_REC_FRAMES, 1, std::vector{frame(0, 0, -12)}));
  for (uint64_t sid = 2; sid <= 4; ++sid) {
    feed(a, part(RS_REC_FRAMES, sid, std::vector{frame(3, 0, -1), frame(4, 1, -1)}));
    feed(a, part(RS_REC_KSTACK, sid, std::vector<uint64_t>{0x10}));
    auto s = feed(a, header(sid, 2, 1));
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->incomplete);
    EXPECT_EQ(s->calls.size(), 2u);
  }
  EXPECT_EQ(a.pending(), 1u);  // session 1's parts, until evicted
}

TEST(SessionAssembler, MissingPartMarksSessionIncomplete) {
  SessionAssembler a;
  feed(a, part(RS_REC_FRAMES, 3, std::vector{frame(0, 0, -12)}));
  auto s = feed(a, header(3, 1, 4));  // kstack part never arrived
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->incomplete);
  EXPECT_EQ(a.stats().incomplete, 1u);
}

TEST(SessionAssembler, DiscardedSessionFreesTraceRecords) {
  SessionAssembler a;
  rs_call_rec c{RS_REC_CALL, 0, 1, 0, 9, 4, 0, 50, {0}};
  EXPECT_FALSE(a.consume(&c, sizeof(c)));
  EXPECT_EQ(a.pending(), 1u);
  EXPECT_FALSE(feed(a, header(9, 0, 0, RS_SESS_DISCARD)));
  EXPECT_EQ(a.pending(), 0u);
  EXPECT_EQ(a.stats().discarded, 1u);
}

TEST(SessionAssembler, TraceRecordsAndLossesReachTheSession) {
  SessionAssembler a;
  rs_call_rec entry{RS_REC_CALL, 0, 1, 0, 4, 2, 0, 100, {0}};
  rs_call_rec exit{RS_REC_CALL, 0, 0, 0, 4, 2, 2, 200, {5}};  // seq 1 was lost; took 200 ns
  a.consume(&entry, sizeof(entry));
  a.consume(&exit, sizeof(exit));
  feed(a, part(RS_REC_FRAMES, 4, std::vector{frame(2, 0, 5)}));
  auto s = feed(a, traced(header(4, 1, 0, 0), 4, 2, 1));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->trace.size(), 2u);
  EXPECT_EQ(s->trace[0].kind, TraceRecordKind::Entry);
  EXPECT_EQ(s->trace[0].ts_ns, 100u);
  EXPECT_EQ(s->trace[1].dur_ns, 200u);
  EXPECT_EQ(s->trace[1].res, 5);
  EXPECT_EQ(s->trace_lost, 1u);
}

// Session 4: one call of function 2, during which probe 7 hit.
const rs_call_rec kProbedEntry{RS_REC_CALL, 1, 1, 0, 4, 2, 0, 100, {0}};
const rs_probe_rec kProbeHit{RS_REC_PROBE, 2, 0, 4, 7, 1, 150};
const rs_call_rec kProbedExit{RS_REC_CALL, 1, 0, 0, 4, 2, 2, 200, {0}};

TEST(SessionAssembler, ProbeHitsKeepTheirPlaceAmongCalls) {
  SessionAssembler a;
  a.consume(&kProbedEntry, sizeof(kProbedEntry));
  a.consume(&kProbeHit, sizeof(kProbeHit));
  a.consume(&kProbedExit, sizeof(kProbedExit));
  auto s = feed(a, traced(header(4, 0, 0, 0), 4, 3));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->trace.size(), 3u);
  const TraceRecord& r = s->trace[1];
  EXPECT_EQ(r.kind, TraceRecordKind::Probe);
  EXPECT_EQ(r.probe_id, 7u);
  EXPECT_EQ(r.seq, 1u);
  EXPECT_EQ(r.depth, 2u);
  EXPECT_EQ(r.ts_ns, 150u);
  EXPECT_EQ(s->trace_lost, 0u);
}

// -T records travel once, under the final report's id: an interim report shows those received so
// far, and the final report still gets them all.
TEST(SessionAssembler, InterimReportShowsTheTraceSoFar) {
  SessionAssembler a;
  a.consume(&kProbedEntry, sizeof(kProbedEntry));
  a.consume(&kProbeHit, sizeof(kProbeHit));
  auto first = feed(a, traced(header(9, 0, 0, RS_SESS_ERROR | RS_SESS_INTERIM), 4, 2));
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->interim);
  ASSERT_EQ(first->trace.size(), 2u);
  EXPECT_EQ(first->trace[1].kind, TraceRecordKind::Probe);
  EXPECT_EQ(first->trace_lost, 0u);
  a.consume(&kProbedExit, sizeof(kProbedExit));
  auto last = feed(a, traced(header(4, 0, 0, 0), 4, 3));
  ASSERT_TRUE(last);
  EXPECT_EQ(last->trace.size(), 3u);
  EXPECT_EQ(a.pending(), 0u);
}

// -A: one call's arguments, with "abc" read at its first argument.
std::vector<char> args_record(uint64_t sid, uint32_t call_seq) {
  rs_args_rec r{};
  r.type = RS_REC_ARGS;
  r.func_id = 2;
  r.session_id = sid;
  r.call_seq = call_seq;
  r.data_len = 3;
  r.lens[0] = 3;
  std::vector<char> buf(sizeof(r) + 3);
  std::memcpy(buf.data(), &r, sizeof(r));
  std::memcpy(buf.data() + sizeof(r), "abc", 3);
  return buf;
}

TEST(SessionAssembler, ArgumentsReachTheSessionByCallSeq) {
  SessionAssembler a;
  feed(a, args_record(4, 7));
  rs_call_rec entry{RS_REC_CALL, 0, 1, 0, 4, 2, 0, 100, {0}};
  entry.call_seq = 7;
  a.consume(&entry, sizeof(entry));
  feed(a, part(RS_REC_FRAMES, 4, std::vector{frame(2, 7, -22)}));
  auto s = feed(a, traced(header(4, 1, 0), 4, 1));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->args.count(7), 1u);
  EXPECT_EQ(s->args.at(7).func_id, 2u);
  EXPECT_EQ(std::string(s->args.at(7).data[0].begin(), s->args.at(7).data[0].end()), "abc");
  ASSERT_EQ(s->trace.size(), 1u);
  EXPECT_EQ(s->trace[0].call_seq, 7u);
  EXPECT_EQ(a.stats().malformed, 0u);
}

// Like -T records: an interim report shows them, the final report still gets them.
TEST(SessionAssembler, InterimReportShowsTheArgumentsSoFar) {
  SessionAssembler a;
  feed(a, args_record(4, 0));
  auto first = feed(a, traced(header(9, 0, 0, RS_SESS_ERROR | RS_SESS_INTERIM), 4, 0));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->args.size(), 1u);
  feed(a, args_record(4, 1));
  auto last = feed(a, header(4, 0, 0, 0));
  ASSERT_TRUE(last);
  EXPECT_EQ(last->args.size(), 2u);
  EXPECT_EQ(a.pending(), 0u);
}

TEST(SessionAssembler, DiscardedSessionFreesArguments) {
  SessionAssembler a;
  feed(a, args_record(9, 0));
  EXPECT_EQ(a.pending(), 1u);
  EXPECT_FALSE(feed(a, header(9, 0, 0, RS_SESS_DISCARD)));
  EXPECT_EQ(a.pending(), 0u);
}

// A kernel message as messages.bpf.c sends it: logfc()'s format, one string argument.
std::vector<char> message(uint64_t sid) {
  rs_kmsg_rec r{};
  r.type = RS_REC_KMSG;
  r.kind = RS_KMSG_FS;
  r.nargs = 2;
  r.str_ok = 1;
  r.session_id = sid;
  r.time_ns = 5000;
  r.caller = 0xffffffff81000010;
  r.args[0] = 0xffff888000001000;
  r.args[1] = 7;
  std::strcpy(r.prefix, "tmpfs");
  std::strcpy(r.fmt, "Bad value for '%s'");
  std::strcpy(r.strs[0], "size");
  std::vector<char> buf(sizeof(r));
  std::memcpy(buf.data(), &r, sizeof(r));
  return buf;
}

TEST(SessionAssembler, KernelMessagesReachTheirSession) {
  SessionAssembler a;
  EXPECT_FALSE(feed(a, message(9)));
  EXPECT_FALSE(feed(a, part(RS_REC_FRAMES, 9, std::vector{frame(0, 0, -22)})));
  auto s = feed(a, header(9, 1, 0));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->messages.size(), 1u);
  const KernelMessage& m = s->messages[0];
  EXPECT_EQ(m.kind, KernelMessageKind::Fs);
  EXPECT_EQ(m.prefix, "tmpfs");
  EXPECT_EQ(m.fmt, "Bad value for '%s'");
  EXPECT_EQ(m.caller, 0xffffffff81000010u);
  ASSERT_EQ(m.args.size(), 2u);
  EXPECT_EQ(m.args[0].str, "size");
  EXPECT_FALSE(m.args[1].str);
  EXPECT_TRUE(m.stack.empty());
}

TEST(SessionAssembler, KernelMessageStackEndsAtItsFirstZero) {
  SessionAssembler a;
  std::vector<char> rec = message(9);
  rs_kmsg_rec r;
  std::memcpy(&r, rec.data(), sizeof(r));
  r.stack[0] = 0xffffffff81500000;
  r.stack[1] = 0xffffffff81600044;
  std::memcpy(rec.data(), &r, sizeof(r));
  feed(a, rec);
  feed(a, part(RS_REC_FRAMES, 9, std::vector{frame(0, 0, -22)}));
  auto s = feed(a, header(9, 1, 0));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->messages.size(), 1u);
  EXPECT_EQ(s->messages[0].stack, (std::vector<uint64_t>{0xffffffff81500000, 0xffffffff81600044}));
}

std::vector<char> verifier_piece(uint64_t sid, const char* text) {
  rs_kmsg_rec r{};
  r.type = RS_REC_KMSG;
  r.kind = RS_KMSG_VERIFIER;
  r.literal = 1;
  r.session_id = sid;
  std::strcpy(r.fmt, text);
  std::vector<char> buf(sizeof(r));
  std::memcpy(buf.data(), &r, sizeof(r));
  return buf;
}

TEST(SessionAssembler, VerifierPiecesJoinIntoLines) {
  SessionAssembler a;
  for (const char* piece : {"0: R1", "=ctx", "()\n", "R0 !read_ok\n"})
    feed(a, verifier_piece(9, piece));
  feed(a, part(RS_REC_FRAMES, 9, std::vector{frame(0, 0, -13)}));
  auto s = feed(a, header(9, 1, 0));
  ASSERT_TRUE(s);
  ASSERT_EQ(s->messages.size(), 2u);
  EXPECT_EQ(s->messages[0].fmt, "0: R1=ctx()\n");
  EXPECT_EQ(s->messages[1].fmt, "R0 !read_ok\n");
}

TEST(SessionAssembler, DiscardedSessionFreesKernelMessages) {
  SessionAssembler a;
  EXPECT_FALSE(feed(a, message(9)));
  EXPECT_FALSE(feed(a, header(9, 0, 0, RS_SESS_DISCARD)));
  EXPECT_EQ(a.pending(), 0u);
}

TEST(SessionAssembler, ArgumentRecordsThatDoNotDecodeAreCounted) {
  SessionAssembler a;
  std::vector<char> rec = args_record(9, 0);
  rec.resize(rec.size() - 1);  // data_len says 3 bytes, 2 came
  feed(a, rec);
  rec.resize(sizeof(rs_args_rec) - 1);
  feed(a, rec);
  EXPECT_EQ(a.stats().malformed, 2u);
  EXPECT_EQ(a.pending(), 0u);
}

// BPF sends a saved chain only when it stitches (src/bpf/chain.h): its deeper levels follow.
TEST(SessionAssembler, SavedChainLevelsBelowTheReportedOnesAreStitched) {
  SessionAssembler a;
  feed(a,
       part(RS_REC_FRAMES, 8, std::vector{frame(0, 0, -12), frame(1, 1, -12), frame(2, 2, -12)}));
  feed(a, part(RS_REC_SAVED, 8,
               std::vector{frame(0, 0, 0), frame(1, 1, 0), frame(2, 2, 0), frame(3, 3, 0)}));
  auto h = header(8, 3, 0);
  h.saved_depth = 4;
  auto s = feed(a, h);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->calls.size(), 4u);
  EXPECT_FALSE(s->calls[2].stitched);
  EXPECT_EQ(s->calls[2].res, -12);
  EXPECT_TRUE(s->calls[3].stitched);
  EXPECT_EQ(s->calls[3].func_id, 3u);
  EXPECT_FALSE(s->incomplete);
}

TEST(SessionAssembler, InterimSessionMarksItsRunningCalls) {
  SessionAssembler a;
  feed(a, part(RS_REC_FRAMES, 9, std::vector{frame(0, 0, 0), frame(1, 1, 0), frame(2, 2, -22)}));
  auto h = header(9, 3, 0, RS_SESS_ERROR | RS_SESS_INTERIM);
  h.running = 2;
  auto s = feed(a, h);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->interim);
  EXPECT_TRUE(s->calls[0].running && s->calls[1].running);
  EXPECT_FALSE(s->calls[2].running);
}

TEST(SessionAssembler, LostSavedChainMarksSessionIncomplete) {
  SessionAssembler a;
  feed(a, part(RS_REC_FRAMES, 10, std::vector{frame(0, 0, -12)}));
  auto h = header(10, 1, 0);
  h.saved_depth = 2;
  auto s = feed(a, h);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->incomplete);
  EXPECT_EQ(s->calls.size(), 1u);
}

// Parts whose header was dropped: evicted once far behind the newest session, and the scan
// does not repeat for every header that follows.
TEST(SessionAssembler, OrphanedPartsAreEvicted) {
  SessionAssembler a;
  for (uint64_t sid = 1; sid <= 5000; ++sid)
    feed(a, part(RS_REC_FRAMES, sid, std::vector{frame(0, 0, -12)}));
  EXPECT_EQ(a.pending(), 5000u);
  uint64_t late = 5000 + (1u << 16);
  ASSERT_TRUE(feed(a, header(late, 0, 0)));
  EXPECT_EQ(a.stats().orphaned, 4999u);  // session 5000 is not far enough behind yet
  EXPECT_EQ(a.pending(), 1u);
}

TEST(SessionAssembler, TruncatedRecordsAreCountedNotTrusted) {
  SessionAssembler a;
  auto rec = part(RS_REC_FRAMES, 5, std::vector{frame(0, 0, 0), frame(1, 1, 0)});
  rec.resize(rec.size() - 8);
  EXPECT_FALSE(feed(a, rec));
  uint16_t tiny = 1;
  EXPECT_FALSE(a.consume(&tiny, sizeof(tiny)));
  EXPECT_EQ(a.stats().malformed, 2u);
}

}  // namespace
}  // namespace retsnoop
