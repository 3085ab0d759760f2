#include "format/summary_view.h"

#include <cinttypes>
#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "format/json_dump.h"
#include "util/text_escape.h"

namespace retsnoop {

std::string utc_timestamp(int64_t realtime_ns) {
  time_t secs = realtime_ns / 1000000000;
  tm utc{};
  gmtime_r(&secs, &utc);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%06" PRId64 "Z",
                utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min,
                utc.tm_sec, realtime_ns % 1000000000 / 1000);
  return buf;
}

namespace {

std::string entry_text(const SummaryEntry& e) {
  char head[256];
  std::snprintf(head, sizeof(head), "%8" PRIu64 "x  %s %s  first %s  last %s\n", e.count,
                e.fingerprint.c_str(), e.signature.result.c_str(),
                utc_timestamp(e.first_seen_ns).c_str(), utc_timestamp(e.last_seen_ns).c_str());
  std::string out = head;
  for (const std::string& frame : e.signature.frames) {
    out.append(12, ' ');
    append_escaped(out, frame);
    out += '\n';
  }
  if (!e.message.empty()) out += std::string(12, ' ') + "» " + e.message + "\n";
  return out;
}

nlohmann::json entry_json(const SummaryEntry& e) {
  nlohmann::json j = {{"fingerprint", e.fingerprint},
                      {"count", e.count},
                      {"result", e.signature.result},
                      {"stack", e.signature.frames},
                      {"first_seen", utc_timestamp(e.first_seen_ns)},
                      {"last_seen", utc_timestamp(e.last_seen_ns)}};
  if (!e.message.empty()) j["message"] = e.message;
  return j;
}

}  // namespace

std::string format_summary_text(const FailureSummary& summary, bool final) {
  auto entries = summary.by_count();
  char head[128];
  std::snprintf(head, sizeof(head), "%s: %" PRIu64 " sessions, %zu unique stacks\n",
                final ? "Summary" : "Summary so far", summary.sessions(), entries.size());
  std::string out = head;
  for (const SummaryEntry& e : entries) out += entry_text(e);
  return out + "\n";
}

std::string format_summary_json(const FailureSummary& summary, const HostIdentity& host,
                                bool final) {
  nlohmann::json stacks = nlohmann::json::array();
  for (const SummaryEntry& e : summary.by_count()) stacks.push_back(entry_json(e));
  nlohmann::json j = {{"summary",
                       {{"final", final},
                        {"host", host.host},
                        {"kernel_release", host.kernel_release},
                        {"boot_id", host.boot_id},
                        {"sessions", summary.sessions()},
                        {"stacks", std::move(stacks)}}}};
  return dump_json(j) + "\n";
}

}  // namespace retsnoop
