// The main output's formats: text, as the README shows sessions, and JSON (--json, one object
// per line for each session, repeat count and summary; docs/usage.md, "JSON"). Both are the
// views of src/format/ behind one ReportFormat; the exports are ReportFormats of their own.
#pragma once

#include <memory>

#include "output/report_format.h"

namespace retsnoop {

std::unique_ptr<ReportFormat> main_format(bool json);

}  // namespace retsnoop
