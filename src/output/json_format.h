// The main output as JSON (--json): one object per line for each session, repeat count and
// summary (docs/usage.md, "JSON").
#pragma once

#include "output/report_format.h"

namespace retsnoop {

class JsonFormat : public ReportFormat {
 public:
  void session(std::string& out, const Session& s, const FormatContext& ctx,
               int64_t mono_to_real_ns) override;
  void repeats(std::string& out, const RepeatGroup& g, const std::string& fingerprint,
               int64_t mono_to_real_ns) override;
  void summary(std::string& out, const FailureSummary& f, const HostIdentity& host,
               bool final) override;
};

}  // namespace retsnoop
