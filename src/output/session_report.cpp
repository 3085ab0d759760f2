#include "output/session_report.h"

#include "format/kernel_messages_view.h"
#include "format/stack_fingerprint.h"
#include "output/folded_file.h"
#include "output/main_format.h"
#include "output/trace_event_file.h"

namespace retsnoop {

SessionReport::SessionReport(const ReportOptions& opts)
    : summary_(opts.summary),
      aggregate_(opts.summary || !opts.export_folded.empty()),
      interval_(opts.summary ? opts.summary_interval : std::chrono::seconds(0)),
      next_summary_(Clock::now() + interval_),
      host_(read_host_identity()) {
  formats_.push_back(main_format(opts.json));
  if (!opts.export_trace.empty())
    formats_.push_back(std::make_unique<TraceEventFile>(opts.export_trace));
  if (!opts.export_folded.empty())
    formats_.push_back(std::make_unique<FoldedFile>(opts.export_folded));
}

void SessionReport::append(std::string& text, const Session& s, const FormatContext& ctx,
                           int64_t mono_to_real_ns) {
  for (auto& f : formats_) f->session(text, s, ctx, mono_to_real_ns);
  bool summarized = aggregate_ && s.is_error;  // with -S successes are printed, not summarized
  if (summarized || s.repeats_counted) {
    StackSignature sig = stack_signature(s, ctx);
    if (summarized)
      failures_.add(sig, int64_t(s.end_ns) + mono_to_real_ns,
                    s.messages.empty() ? std::string() : kernel_message_line(s.messages[0], ctx));
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
  std::string text;
  for (auto& f : formats_) f->repeats(text, g, fp, mono_to_real_ns);
  return text + periodic_summary();
}

std::string SessionReport::periodic_summary() {
  if (interval_.count() == 0 || Clock::now() < next_summary_) return "";
  next_summary_ = Clock::now() + interval_;
  return summary(false);
}

std::string SessionReport::summary(bool final) const {
  std::string text;
  for (const auto& f : formats_) f->summary(text, failures_, host_, final);
  return text;
}

std::string SessionReport::finish() {
  for (auto& f : formats_) f->finish(failures_);
  return summary_ ? summary(true) : "";
}

}  // namespace retsnoop
