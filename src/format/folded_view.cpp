#include "format/folded_view.h"

#include "util/text_escape.h"

namespace retsnoop {
namespace {

// ';' and ' ' separate frames and the count: kernel symbols never hold them, and a name that
// does must not shift the columns of the whole line, nor a control byte start another one.
std::string folded_frame(const std::string& frame) {
  std::string name = escaped(frame);
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
