#include "filter/error_filter.h"

#include <algorithm>
#include <utility>

#include "discovery/func_lookup.h"
#include "discovery/ret_kind.h"

namespace retsnoop {
namespace {

bool some_call_failed_with(const std::vector<int>& errs, const Session& s, const FuncTable& funcs) {
  return std::any_of(s.calls.begin(), s.calls.end(), [&](const StackCall& c) {
    if (c.running) return false;  // -I: no result yet
    auto err = failure_errno(c.res, lookup_func(funcs, c.func_id).ret);
    return err && std::find(errs.begin(), errs.end(), *err) != errs.end();
  });
}

}  // namespace

ErrorFilter::ErrorFilter(std::vector<int> allow, std::vector<int> deny)
    : allow_(std::move(allow)), deny_(std::move(deny)) {}

bool ErrorFilter::reports(const Session& s, const FuncTable& funcs) const {
  if (!s.is_error) return true;
  if (some_call_failed_with(deny_, s, funcs)) return false;
  return allow_.empty() || some_call_failed_with(allow_, s, funcs);
}

}  // namespace retsnoop
