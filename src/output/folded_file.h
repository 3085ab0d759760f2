// --export-folded: the run's failing stacks as folded stacks with counts, one per line, for
// flame graph tools; written at exit from the same counts --summary reports.
#pragma once

#include "output/report_format.h"
#include "util/output_file.h"

namespace retsnoop {

class FoldedFile : public ReportFormat {
 public:
  // Opens path now (throws UserError when it can't be written): before anything is attached.
  explicit FoldedFile(const std::string& path) : file_(path) {}

  void session(std::string&, const Session&, const FormatContext&, int64_t) override {}
  void finish(const FailureSummary& f) override;

 private:
  OutputFile file_;
};

}  // namespace retsnoop
