#include "output/text_format.h"

#include "format/repeat_view.h"
#include "format/session_view.h"
#include "format/summary_view.h"

namespace retsnoop {

void TextFormat::session(std::string& out, const Session& s, const FormatContext& ctx,
                         int64_t mono_to_real_ns) {
  append_session(out, s, ctx, mono_to_real_ns);
}

void TextFormat::repeats(std::string& out, const RepeatGroup& g, const std::string& fingerprint,
                         int64_t mono_to_real_ns) {
  out += format_repeats(g, fingerprint, mono_to_real_ns);
}

void TextFormat::summary(std::string& out, const FailureSummary& f, const HostIdentity&,
                         bool final) {
  out += format_summary_text(f, final);
}

}  // namespace retsnoop
