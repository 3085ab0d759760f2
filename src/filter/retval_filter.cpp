#include "filter/retval_filter.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "discovery/func_lookup.h"
#include "discovery/ret_kind.h"

namespace retsnoop {
namespace {

std::optional<int64_t> entry_result(const Session& s, const FuncTable& funcs) {
  if (s.calls.empty() || s.calls.front().running) return std::nullopt;
  const StackCall& entry = s.calls.front();
  RetKind kind = lookup_func(funcs, entry.func_id).ret;
  if (kind == RetKind::Void) return std::nullopt;
  return result_value(entry.res, kind);
}

bool in_some_range(const std::vector<RetvalRange>& ranges, std::optional<int64_t> value) {
  return value && std::any_of(ranges.begin(), ranges.end(), [&](const RetvalRange& r) {
           return r.lo <= *value && *value <= r.hi;
         });
}

}  // namespace

RetvalFilter::RetvalFilter(std::vector<RetvalRange> allow, std::vector<RetvalRange> deny)
    : allow_(std::move(allow)), deny_(std::move(deny)) {}

bool RetvalFilter::reports(const Session& s, const FuncTable& funcs) const {
  std::optional<int64_t> value = entry_result(s, funcs);
  if (in_some_range(deny_, value)) return false;
  return allow_.empty() || in_some_range(allow_, value);
}

}  // namespace retsnoop
