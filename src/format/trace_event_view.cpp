#include "format/trace_event_view.h"

#include <algorithm>
#include <vector>

#include "discovery/func_lookup.h"
#include "format/result_format.h"

namespace retsnoop {
namespace {

using nlohmann::json;

double micros(uint64_t ns) { return double(ns) / 1000.0; }

json event(const Session& s, const char* phase, const std::string& name, uint64_t ts_ns) {
  return {{"name", name},        {"cat", "retsnoop"}, {"ph", phase},
          {"ts", micros(ts_ns)}, {"pid", s.pid},      {"tid", s.tid}};
}

json thread_name(const Session& s) {
  return {{"name", "thread_name"},
          {"ph", "M"},
          {"pid", s.pid},
          {"tid", s.tid},
          {"args", {{"name", s.task_comm + " " + std::to_string(s.tid)}}}};
}

struct OpenCall {
  const TraceRecord* entry;
  uint64_t latest_child_end;  // a child measured a little late must not outlast its parent
};

class SliceBuilder {
 public:
  SliceBuilder(const Session& s, const FuncTable& funcs) : s_(s), funcs_(funcs) {}

  void entry(const TraceRecord& r) {
    events_.push_back(event(s_, "B", lookup_func(funcs_, r.func_id).name, r.ts_ns));
    open_.push_back({&r, r.ts_ns});
  }

  // An exit whose entry was lost has no begin to close: it is left out. Calls still open inside
  // the one that returned lost their exit records: they end with it.
  void exit(const TraceRecord& r) {
    auto it = std::find_if(open_.rbegin(), open_.rend(), [&](const OpenCall& c) {
      return c.entry->func_id == r.func_id && c.entry->depth == r.depth;
    });
    if (it == open_.rend()) return;
    uint64_t end_ns = it->entry->ts_ns + r.dur_ns;
    for (size_t inner = it - open_.rbegin(); inner > 0; --inner) events_.push_back(close(end_ns));
    const FuncInfo& fn = lookup_func(funcs_, r.func_id);
    json end = close(end_ns);
    end["args"] = {{"result", format_result(r.res, fn.ret)},
                   {"failed", result_is_error(r.res, fn.ret)}};
    events_.push_back(std::move(end));
  }

  json finish() {
    while (!open_.empty()) events_.push_back(close(s_.end_ns));
    return std::move(events_);
  }

 private:
  json close(uint64_t end_ns) {
    OpenCall call = open_.back();
    open_.pop_back();
    end_ns = std::max(end_ns, call.latest_child_end);
    if (!open_.empty())
      open_.back().latest_child_end = std::max(open_.back().latest_child_end, end_ns);
    return event(s_, "E", lookup_func(funcs_, call.entry->func_id).name, end_ns);
  }

  const Session& s_;
  const FuncTable& funcs_;
  std::vector<OpenCall> open_;
  json events_ = json::array();
};

}  // namespace

json session_trace_events(const Session& s, const FuncTable& funcs) {
  SliceBuilder slices(s, funcs);
  // Slices are calls: injected probe hits (-J) have no duration and are left out.
  for (const TraceRecord& r : s.trace) {
    if (r.kind == TraceRecordKind::Entry)
      slices.entry(r);
    else if (r.kind == TraceRecordKind::Exit)
      slices.exit(r);
  }
  json events = slices.finish();
  events.insert(events.begin(), thread_name(s));
  return events;
}

}  // namespace retsnoop
