// --export-trace: the -T sessions of a run as one Chrome trace-event JSON file
// ({"traceEvents":[...]}), written as sessions come so that a long run holds none in memory.
#pragma once

#include <string>

#include "output/report_format.h"
#include "util/output_file.h"

namespace retsnoop {

class TraceEventFile : public ReportFormat {
 public:
  // Opens path now (throws UserError when it can't be written): before anything is attached.
  explicit TraceEventFile(const std::string& path);
  // Sessions without a call trace (-T) have no slices and add nothing.
  void session(std::string& out, const Session& s, const FormatContext& ctx,
               int64_t mono_to_real_ns) override;
  // Closes the event array: the file is valid JSON only after this.
  void finish(const FailureSummary& f) override;

 private:
  OutputFile file_;
  bool first_ = true;
};

}  // namespace retsnoop
