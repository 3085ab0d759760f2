// --export-trace: the -T sessions of a run as one Chrome trace-event JSON file
// ({"traceEvents":[...]}), written as sessions come so that a long run holds none in memory.
#pragma once

#include <string>

#include "discovery/func_info.h"
#include "events/session.h"
#include "util/output_file.h"

namespace retsnoop {

class TraceEventFile {
 public:
  explicit TraceEventFile(const std::string& path);
  void add(const Session& s, const FuncTable& funcs);
  // Closes the event array: the file is valid JSON only after this.
  void close();

 private:
  OutputFile file_;
  bool first_ = true;
};

}  // namespace retsnoop
