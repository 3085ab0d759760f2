#include "output/session_report.h"

#include "format/folded_view.h"
#include "format/json_view.h"
#include "format/repeat_view.h"
#include "format/session_view.h"
#include "format/stack_fingerprint.h"
#include "format/summary_view.h"

namespace retsnoop {

SessionReport::SessionReport(const ReportOptions& opts)
    : json_(opts.json),
      summary_(opts.summary),
      aggregate_(opts.summary || !opts.export_folded.empty()),
      interval_(opts.summary ? opts.summary_interval : std::chrono::seconds(0)),
      next_summary_(Clock::now() + interval_),
      host_(read_host_identity()) {
  if (!opts.export_trace.empty()) trace_file_.emplace(opts.export_trace);
  if (!opts.export_folded.empty()) folded_file_.emplace(opts.export_folded);
}

std::string SessionReport::format(const Session& s, const FormatContext& ctx,
                                  int64_t mono_to_real_ns) {
  std::string text;
  append(text, s, ctx, mono_to_real_ns);
  return text;
}

void SessionReport::append(std::string& text, const Session& s, const FormatContext& ctx,
                           int64_t mono_to_real_ns) {
  if (json_)
    text += format_session_json(s, ctx, mono_to_real_ns);
  else
    append_session(text, s, ctx, mono_to_real_ns);
  if (trace_file_ && !s.trace.empty()) trace_file_->add(s, ctx.funcs);
  bool summarized = aggregate_ && s.is_error;  // with -S successes are printed, not summarized
  if (summarized || s.repeats_counted) {
    StackSignature sig = stack_signature(s, ctx);
    if (summarized) failures_.add(sig, int64_t(s.end_ns) + mono_to_real_ns);
    if (s.repeats_counted) repeated_.emplace(s.id, std::move(sig));
  }
  text += periodic_summary();
}

// BPF counts a repeat only once the session it repeats was sent, and user space queues that
// session before collecting the repeats: it has always been formatted by now.
std::string SessionReport::repeats_text(const RepeatGroup& g, int64_t mono_to_real_ns) {
  auto it = repeated_.find(g.first_id);
  if (it == repeated_.end()) return "";
  StackSignature sig = std::move(it->second);
  repeated_.erase(it);
  if (!g.count) return "";
  std::string fp = stack_fingerprint(sig);
  if (aggregate_)
    failures_.add(sig, int64_t(g.first_ns) + mono_to_real_ns, int64_t(g.last_ns) + mono_to_real_ns,
                  g.count);
  std::string text = json_ ? retsnoop::format_repeats_json(g, fp, mono_to_real_ns)
                           : retsnoop::format_repeats(g, fp, mono_to_real_ns);
  return text + periodic_summary();
}

std::string SessionReport::periodic_summary() {
  if (interval_.count() == 0 || Clock::now() < next_summary_) return "";
  next_summary_ = Clock::now() + interval_;
  return summary(false);
}

std::string SessionReport::summary(bool final) const {
  return json_ ? format_summary_json(failures_, host_, final)
               : format_summary_text(failures_, final);
}

std::string SessionReport::finish() {
  if (trace_file_) trace_file_->close();
  if (folded_file_) {
    folded_file_->write(format_folded(failures_));
    folded_file_->close();
  }
  return summary_ ? summary(true) : "";
}

}  // namespace retsnoop
