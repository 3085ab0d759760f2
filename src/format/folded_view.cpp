#include "format/folded_view.h"

namespace retsnoop {
namespace {

// ';' and ' ' separate frames and the count: kernel symbols never hold them, and a name that
// does must not shift the columns of the whole line.
std::string folded_frame(std::string name) {
  for (char& c : name) {
    if (c == ';' || c == ' ') c = '_';
  }
  return name;
}

}  // namespace

std::string format_folded(const FailureSummary& summary) {
  std::string out;
  for (const SummaryEntry& e : summary.by_count()) {
    std::string line;
    for (const std::string& frame : e.signature.frames) {
      if (!line.empty()) line += ';';
      line += folded_frame(frame);
    }
    if (line.empty()) continue;
    out += line + " " + std::to_string(e.count) + "\n";
  }
  return out;
}

}  // namespace retsnoop
