#include "output/trace_event_file.h"

#include "format/json_dump.h"
#include "format/trace_event_view.h"

namespace retsnoop {

TraceEventFile::TraceEventFile(const std::string& path) : file_(path) {
  file_.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
}

// One event per line keeps the file readable and greppable.
void TraceEventFile::session(std::string&, const Session& s, const FormatContext& ctx, int64_t) {
  if (s.trace.empty()) return;
  for (const auto& event : session_trace_events(s, ctx.funcs)) {
    file_.write(first_ ? "\n" : ",\n");
    file_.write(dump_json(event));
    first_ = false;
  }
}

void TraceEventFile::finish(const FailureSummary&) {
  file_.write("\n]}\n");
  file_.close();
}

}  // namespace retsnoop
