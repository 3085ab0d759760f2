#include "format/json_view.h"

#include <nlohmann/json.hpp>

#include "discovery/func_lookup.h"
#include "format/call_args.h"
#include "format/json_dump.h"
#include "format/kernel_message_text.h"
#include "format/kernel_messages_view.h"
#include "format/line_trace_view.h"
#include "format/probe_lookup.h"
#include "format/result_format.h"
#include "format/session_header.h"
#include "format/stack_fingerprint.h"
#include "format/stack_merge.h"

namespace retsnoop {
namespace {

using nlohmann::json;

json source_json(const SourceLoc& loc) {
  if (!loc.known()) return nullptr;
  return {{"file", loc.file}, {"line", loc.line}, {"col", loc.col}};
}

// Source lines and inlines follow the symbolization level, exactly as in the text views.
json symbol_json(uint64_t addr, const SymbolizedAddr& sym, const FormatOptions& opts) {
  json j = {{"addr", addr}};
  if (!sym.found) return j;
  j["symbol"] = sym.name;
  j["offset"] = sym.offset;
  if (!sym.module.empty()) j["module"] = sym.module;
  if (opts.symb == SymbLevel::None) return j;
  if (!sym.dwarf_name.empty()) j["dwarf_name"] = sym.dwarf_name;
  j["source"] = source_json(sym.loc);
  if (opts.symb == SymbLevel::Inlines) {
    json inlines = json::array();
    for (const InlineFrame& f : sym.inlines)
      inlines.push_back({{"name", f.name}, {"source", source_json(f.loc)}});
    j["inlines"] = std::move(inlines);
  }
  return j;
}

json result_json(int64_t res, RetKind kind) {
  return {{"result", format_result(res, kind)},
          {"result_raw", res},
          {"failed", result_is_error(res, kind)}};
}

// A user-space function names its binary.
void add_user(json& j, const FuncInfo& fn) {
  if (!fn.is_user()) return;
  j["user"] = true;
  j["binary"] = fn.binary;
}

json call_json(const StackCall& call, const FuncInfo& fn) {
  json j = {{"function", fn.name},
            {"seq", call.seq},
            {"stitched", call.stitched},
            {"running", call.running}};
  add_user(j, fn);
  if (!call.running) {
    j["duration_ns"] = call.dur_ns;
    j.update(result_json(call.res, fn.ret));
  }
  return j;
}

// -A: the call's arguments, when captured, as an "args" object.
void add_args(json& j, const Session& s, uint32_t call_seq, const FormatContext& ctx) {
  if (std::optional<json> args = call_args_json(s, call_seq, ctx.args))
    j["args"] = std::move(*args);
}

json stack_json(const Session& s, const FormatContext& ctx) {
  json stack = json::array();
  for (const MergedFrame& level : merge_stack(s, ctx)) {
    json j = level.has_frame ? symbol_json(level.addr, level.frame->sym, ctx.opts) : json::object();
    j["kernel_frame"] = level.has_frame;
    if (level.call) {
      j["traced"] = call_json(*level.call, lookup_func(ctx.funcs, level.call->func_id));
      add_args(j["traced"], s, level.call->seq, ctx);
    }
    stack.push_back(std::move(j));
  }
  return stack;
}

json call_record_json(const Session& s, const TraceRecord& r, const FormatContext& ctx) {
  const FuncInfo& fn = lookup_func(ctx.funcs, r.func_id);
  json j = {{"seq", r.seq}, {"depth", r.depth}, {"function", fn.name}};
  add_user(j, fn);
  if (r.kind == TraceRecordKind::Entry) {
    j["event"] = "entry";
    j["ts_ns"] = r.ts_ns;
    add_args(j, s, r.call_seq, ctx);
  } else {
    j["event"] = "exit";
    j["duration_ns"] = r.dur_ns;
    j.update(result_json(r.res, fn.ret));
  }
  return j;
}

// kind and name as the spec writes them: "tp" and "sched:sched_process_exec".
json probe_record_json(const Session& s, const TraceRecord& r, const FormatContext& ctx) {
  const ProbeSpec* p = lookup_probe(ctx.probes, r.probe_id);
  json j = {{"seq", r.seq},
            {"depth", r.depth},
            {"event", "probe"},
            {"kind", p ? json(inject_kind_name(p->kind)) : json(nullptr)},
            {"name", p ? json(probe_target(*p)) : json("[unknown probe]")},
            {"ts_ns", r.ts_ns}};
  if (std::optional<json> args = probe_args_json(s, r.seq, ctx.args)) j["args"] = std::move(*args);
  return j;
}

// -U: innermost frame first, like the text view.
json user_stack_json(const Session& s, const FormatContext& ctx) {
  json stack = json::array();
  for (size_t i = 0; i < s.ustack.size(); ++i) {
    UserFrame frame = ctx.user_symbols->symbolize(s.pid, s.id, s.ustack[i], i > 0);
    json j = {{"addr", s.ustack[i]}};
    if (frame.sym.found) {
      j["symbol"] = frame.sym.name;
      j["offset"] = frame.sym.offset;
    }
    if (ctx.opts.user_lines) j["source"] = source_json(frame.sym.loc);
    if (frame.mapped) {
      j["binary"] = frame.binary;
      j["file_offset"] = frame.file_offset;
    }
    stack.push_back(std::move(j));
  }
  return stack;
}

json trace_json(const Session& s, const FormatContext& ctx) {
  json trace = json::array();
  for (const TraceRecord& r : s.trace) {
    trace.push_back(r.kind == TraceRecordKind::Probe ? probe_record_json(s, r, ctx)
                                                     : call_record_json(s, r, ctx));
  }
  return trace;
}

json lbr_json(const Session& s, const FormatContext& ctx) {
  json lbr = json::array();
  for (const LbrRecord& r : s.lbr) {
    lbr.push_back({{"from", symbol_json(r.from, ctx.symbolizer.symbolize(r.from, false), ctx.opts)},
                   {"to", symbol_json(r.to, ctx.symbolizer.symbolize(r.to, false), ctx.opts)}});
  }
  return lbr;
}

// --line-trace: the hits in order, an array per run of hits inside one call (its "seq" in the
// stack); the line a traced call of the stack returned from carries its result.
json line_trace_json(const Session& s, const FormatContext& ctx) {
  std::map<size_t, std::string> returned = returning_hits(s, ctx);
  json calls = json::array();
  for (size_t i = 0; i < s.lines.size(); ++i) {
    const LineHit& hit = s.lines[i];
    if (calls.empty() || calls.back()["call_seq"] != hit.call_seq)
      calls.push_back({{"call_seq", hit.call_seq}, {"lines", json::array()}});
    uint64_t addr = hit.line_id < ctx.line_probes.size() ? ctx.line_probes[hit.line_id].addr : 0;
    json j = symbol_json(addr, ctx.symbolizer.symbolize(addr, false), ctx.opts);
    if (auto it = returned.find(i); it != returned.end()) j["returned"] = it->second;
    calls.back()["lines"].push_back(std::move(j));
  }
  return calls;
}

// The kernel's messages inside the session, in the order it emitted them.
json messages_json(const Session& s, const FormatContext& ctx, int64_t mono_to_real_ns) {
  json out = json::array();
  for (const KernelMessage& m : s.messages)
    out.push_back({{"source", kernel_message_kind_name(m.kind)},
                   {"text", kernel_message_text(m, ctx.opts.messages_max_len)},
                   {"function", kernel_message_function(m, ctx)},
                   {"timestamp", wall_clock(m.time_ns, mono_to_real_ns)},
                   {"ts_ns", m.time_ns}});
  return out;
}

// What a log store gathering sessions from many hosts groups and filters them by.
void add_fleet_fields(json& j, const Session& s, const FormatContext& ctx) {
  if (ctx.host) {
    j["host"] = ctx.host->host;
    j["kernel_release"] = ctx.host->kernel_release;
    j["boot_id"] = ctx.host->boot_id;
  }
  j["fingerprint"] = stack_fingerprint(stack_signature(s, ctx));
}

}  // namespace

std::string format_session_json(const Session& s, const FormatContext& ctx,
                                int64_t mono_to_real_ns) {
  json j = {
      {"start", wall_clock(s.start_ns, mono_to_real_ns)},
      {"end", wall_clock(s.end_ns, mono_to_real_ns)},
      {"start_ns", s.start_ns},
      {"end_ns", s.end_ns},
      {"tid", s.tid},
      {"pid", s.pid},
      {"task_comm", s.task_comm},
      {"proc_comm", s.proc_comm},
      {"error", s.is_error},
      {"interim", s.interim},
      {"incomplete", s.incomplete},
      {"kstack_failed", s.kstack_failed},
      {"stack", stack_json(s, ctx)},
  };
  if (ctx.opts.calltrace) {
    j["trace"] = trace_json(s, ctx);
    j["trace_lost"] = s.trace_lost;
  }
  if (ctx.opts.lbr) j["lbr"] = lbr_json(s, ctx);
  if (!ctx.line_probes.empty()) {
    j["line_trace"] = line_trace_json(s, ctx);
    j["line_hits_dropped"] = s.lines_dropped;
  }
  if (!s.messages.empty()) j["messages"] = messages_json(s, ctx, mono_to_real_ns);
  if (ctx.user_symbols) {
    j["user_stack"] = user_stack_json(s, ctx);
    j["user_stack_failed"] = s.ustack_failed;
  }
  add_fleet_fields(j, s, ctx);
  return dump_json(j) + "\n";
}

}  // namespace retsnoop
