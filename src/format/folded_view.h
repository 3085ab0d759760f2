// Folded stacks ("outer;inner;innermost count" per line), the input of flamegraph.pl, inferno,
// speedscope and most flame graph tools: one line per unique failing stack of the summary.
#pragma once

#include <string>

#include "format/failure_summary.h"

namespace retsnoop {

std::string format_folded(const FailureSummary& summary);

}  // namespace retsnoop
