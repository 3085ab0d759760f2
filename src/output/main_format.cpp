#include "output/main_format.h"

#include "format/json_view.h"
#include "format/repeat_view.h"
#include "format/session_view.h"
#include "format/summary_view.h"

namespace retsnoop {

namespace {

// What a main output format writes, one view each.
struct MainViews {
  void (*session)(std::string& out, const Session& s, const FormatContext& ctx,
                  int64_t mono_to_real_ns);
  std::string (*repeats)(const RepeatGroup& g, const std::string& fingerprint,
                         int64_t mono_to_real_ns);
  std::string (*summary)(const FailureSummary& f, const HostIdentity& host, bool final);
};

constexpr MainViews kTextViews{
    append_session,
    format_repeats,
    [](const FailureSummary& f, const HostIdentity&, bool final) {
      return format_summary_text(f, final);
    },
};

constexpr MainViews kJsonViews{
    [](std::string& out, const Session& s, const FormatContext& ctx, int64_t mono_to_real_ns) {
      out += format_session_json(s, ctx, mono_to_real_ns);
    },
    format_repeats_json,
    format_summary_json,
};

class MainFormat : public ReportFormat {
 public:
  explicit MainFormat(const MainViews& views) : views_(views) {}

  void session(std::string& out, const Session& s, const FormatContext& ctx,
               int64_t mono_to_real_ns) override {
    views_.session(out, s, ctx, mono_to_real_ns);
  }
  void repeats(std::string& out, const RepeatGroup& g, const std::string& fingerprint,
               int64_t mono_to_real_ns) override {
    out += views_.repeats(g, fingerprint, mono_to_real_ns);
  }
  void summary(std::string& out, const FailureSummary& f, const HostIdentity& host,
               bool final) override {
    out += views_.summary(f, host, final);
  }

 private:
  const MainViews& views_;
};

}  // namespace

std::unique_ptr<ReportFormat> main_format(bool json) {
  return std::make_unique<MainFormat>(json ? kJsonViews : kTextViews);
}

}  // namespace retsnoop
