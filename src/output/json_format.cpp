#include "output/json_format.h"

#include "format/json_view.h"
#include "format/repeat_view.h"
#include "format/summary_view.h"

namespace retsnoop {

void JsonFormat::session(std::string& out, const Session& s, const FormatContext& ctx,
                         int64_t mono_to_real_ns) {
  out += format_session_json(s, ctx, mono_to_real_ns);
}

void JsonFormat::repeats(std::string& out, const RepeatGroup& g, const std::string& fingerprint,
                         int64_t mono_to_real_ns) {
  out += format_repeats_json(g, fingerprint, mono_to_real_ns);
}

void JsonFormat::summary(std::string& out, const FailureSummary& f, const HostIdentity& host,
                         bool final) {
  out += format_summary_json(f, host, final);
}

}  // namespace retsnoop
