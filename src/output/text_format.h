// The main output as text: the session views of src/format/, as the README shows them.
#pragma once

#include "output/report_format.h"

namespace retsnoop {

class TextFormat : public ReportFormat {
 public:
  void session(std::string& out, const Session& s, const FormatContext& ctx,
               int64_t mono_to_real_ns) override;
  void repeats(std::string& out, const RepeatGroup& g, const std::string& fingerprint,
               int64_t mono_to_real_ns) override;
  void summary(std::string& out, const FailureSummary& f, const HostIdentity& host,
               bool final) override;
};

}  // namespace retsnoop
