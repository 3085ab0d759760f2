#include "format/failure_summary.h"

#include <algorithm>
#include <tuple>

namespace retsnoop {

void FailureSummary::add(const StackSignature& sig, int64_t first_ns, int64_t last_ns,
                         uint64_t count, const std::string& message) {
  std::string fp = stack_fingerprint(sig);
  auto [it, inserted] = entries_.try_emplace(fp);
  SummaryEntry& e = it->second;
  if (inserted) {
    e.fingerprint = fp;
    e.signature = sig;
    e.first_seen_ns = first_ns;
    e.last_seen_ns = last_ns;
  }
  // Sessions reach the printer in ring buffer order, not strictly in time order.
  e.first_seen_ns = std::min(e.first_seen_ns, first_ns);
  e.last_seen_ns = std::max(e.last_seen_ns, last_ns);
  e.count += count;
  sessions_ += count;
  if (e.message.empty()) e.message = message;
}

std::vector<SummaryEntry> FailureSummary::by_count() const {
  std::vector<SummaryEntry> out;
  out.reserve(entries_.size());
  for (const auto& [fp, e] : entries_) out.push_back(e);
  std::sort(out.begin(), out.end(), [](const SummaryEntry& a, const SummaryEntry& b) {
    return std::tie(b.count, a.first_seen_ns, a.fingerprint) <
           std::tie(a.count, b.first_seen_ns, b.fingerprint);
  });
  return out;
}

}  // namespace retsnoop
