#include "format/repeat_view.h"

#include <nlohmann/json.hpp>

#include "format/json_dump.h"
#include "format/session_header.h"

namespace retsnoop {

namespace {

std::string task_list(const RepeatGroup& g) {
  std::string out;
  for (const RepeatTask& t : g.tasks) {
    if (!out.empty()) out += ' ';
    out += std::to_string(t.tid) + "/" + std::to_string(t.pid);
  }
  return g.more_tasks ? out + " ..." : out;
}

}  // namespace

std::string format_repeats(const RepeatGroup& g, const std::string& fingerprint,
                           int64_t mono_to_real_ns) {
  return "... and " + std::to_string(g.count) + " more identical session" +
         (g.count == 1 ? "" : "s") + " (fingerprint " + fingerprint + ", TID/PID " + task_list(g) +
         ", first " + wall_clock(g.first_ns, mono_to_real_ns) + ", last " +
         wall_clock(g.last_ns, mono_to_real_ns) + ")\n\n";
}

std::string format_repeats_json(const RepeatGroup& g, const std::string& fingerprint,
                                int64_t mono_to_real_ns) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const RepeatTask& t : g.tasks) tasks.push_back({{"tid", t.tid}, {"pid", t.pid}});
  nlohmann::json j = {
      {"type", "repeats"},
      {"count", g.count},
      {"fingerprint", fingerprint},
      {"tasks", tasks},
      {"more_tasks", g.more_tasks},
      {"first", wall_clock(g.first_ns, mono_to_real_ns)},
      {"last", wall_clock(g.last_ns, mono_to_real_ns)},
      {"first_ns", g.first_ns},
      {"last_ns", g.last_ns},
  };
  return dump_json(j) + "\n";
}

}  // namespace retsnoop
