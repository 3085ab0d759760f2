// A finished session as user space sees it after decoding and stitching.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "events/captured_args.h"
#include "events/kernel_message.h"

namespace retsnoop {

// One traced call level of the reported stack, outermost first.
struct StackCall {
  uint32_t func_id = 0;
  uint32_t seq = 0;
  uint64_t start_ns = 0;
  uint64_t dur_ns = 0;
  int64_t res = 0;
  bool stitched = false;  // taken from an earlier failing sub-chain ('*' marker)
  bool running = false;   // interim session: the call had not returned, no duration or result
};

// What a -T record stands for: a traced function's entry or exit, or an injected probe's hit.
enum class TraceRecordKind : uint8_t { Entry, Exit, Probe };

// One -T record.
struct TraceRecord {
  uint32_t func_id = 0;   // Entry and Exit
  uint32_t probe_id = 0;  // Probe: index into the table of injected probes
  uint32_t seq = 0;
  uint32_t call_seq = 0;  // Entry: StackCall::seq of the call, which keys its -A arguments
  uint16_t depth = 0;     // Probe: calls running when it hit, like a nested call's entry
  TraceRecordKind kind = TraceRecordKind::Exit;
  uint64_t ts_ns = 0;   // entries and probes: CLOCK_MONOTONIC
  uint64_t dur_ns = 0;  // exits: measured in BPF, right even when the entry record was lost
  int64_t res = 0;      // exits
};

// --line-trace: one hit of a line probe inside the session.
struct LineHit {
  uint32_t line_id = 0;    // index into the table of line probes
  uint32_t call_seq = 0;   // StackCall::seq of the innermost traced call running then
  uint32_t trace_seq = 0;  // -T: the hit came right before the call trace record of this seq
};

struct LbrRecord {
  uint64_t from = 0;
  uint64_t to = 0;
};

struct Session {
  uint64_t id = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::string task_comm;
  std::string proc_comm;
  uint64_t start_ns = 0;  // CLOCK_MONOTONIC
  uint64_t end_ns = 0;
  bool is_error = false;
  bool interim = false;          // -I: a failing chain reported before the session ended
  bool repeats_counted = false;  // -C stacks.repeats=count: its repeats follow as a RepeatGroup
  bool kstack_failed = false;
  std::vector<StackCall> calls;  // reported chain plus stitched levels
  std::vector<uint64_t> kstack;  // outermost frame first
  std::vector<uint64_t> ustack;  // -U: user stack, innermost frame first
  bool ustack_failed = false;
  std::vector<LbrRecord> lbr;                   // oldest first
  std::vector<TraceRecord> trace;               // in seq order
  std::vector<LineHit> lines;                   // --line-trace: the hits kept, oldest first
  uint32_t lines_dropped = 0;                   // older hits the session no longer held
  std::map<uint32_t, CapturedArgs> args;        // -A: by StackCall::seq of the call
  std::map<uint32_t, CapturedArgs> probe_args;  // -A: injected probe hits, by TraceRecord::seq
  std::vector<KernelMessage> messages;          // the kernel's messages, in emission order
  uint32_t trace_lost = 0;
  bool incomplete = false;  // some records of this session were lost
};

}  // namespace retsnoop
