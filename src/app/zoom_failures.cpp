#include "app/zoom_failures.h"

#include <algorithm>

#include "discovery/symbol_name.h"
#include "format/kernel_message_text.h"
#include "util/errno_names.h"

namespace retsnoop {

std::optional<FailingChain> failing_chain(const Session& s, const FuncTable& funcs) {
  if (!s.is_error || s.interim || s.calls.empty()) return std::nullopt;
  FailingChain chain{.res = s.calls.front().res};
  std::optional<int> err;
  for (const StackCall& c : s.calls) {
    if (c.func_id >= funcs.size()) return std::nullopt;
    const FuncInfo& f = funcs[c.func_id];
    std::optional<int> e = failure_errno(c.res, f.ret);
    if (chain.funcs.empty())
      err = e;
    else if (e != err)
      break;
    chain.funcs.push_back(qualified_name(f.module, f.name));
    chain.deepest_addr = f.addr;
  }
  if (!s.messages.empty()) chain.message = kernel_message_text(s.messages.front(), 200);
  return chain;
}

std::vector<EntryFailures> FailureLog::by_entry() const {
  std::vector<EntryFailures> out;
  for (const FailingChain& c : chains_) {
    auto same = [&](const EntryFailures& e) { return e.func == c.funcs.front() && e.res == c.res; };
    auto it = std::find_if(out.begin(), out.end(), same);
    if (it == out.end()) it = out.insert(out.end(), {c.funcs.front(), c.res, 0});
    ++it->count;
  }
  return out;
}

namespace {

bool allowed(const FailingChain& c, std::span<const int> allow_errors) {
  if (allow_errors.empty()) return true;
  return c.res <= 0 &&
         std::find(allow_errors.begin(), allow_errors.end(), int(-c.res)) != allow_errors.end();
}

bool same_failure(const FailingChain& c, const std::string& entry, int64_t res) {
  return c.funcs.front() == entry && c.res == res;
}

}  // namespace

std::optional<FailingChain> FailureLog::choose(std::span<const int> allow_errors) const {
  auto it = std::find_if(chains_.rbegin(), chains_.rend(),
                         [&](const FailingChain& c) { return allowed(c, allow_errors); });
  if (it == chains_.rend()) return std::nullopt;
  return *it;
}

std::optional<FailingChain> FailureLog::last_of(const std::string& entry, int64_t res) const {
  auto it = std::find_if(chains_.rbegin(), chains_.rend(),
                         [&](const FailingChain& c) { return same_failure(c, entry, res); });
  if (it == chains_.rend()) return std::nullopt;
  return *it;
}

bool RoundGoal::met_by(const FailingChain& c) const {
  return entry.empty() ? allowed(c, allow_errors) : same_failure(c, entry, res);
}

std::string RoundGoal::text() const {
  if (!entry.empty()) return entry + " to fail with " + result_text(res) + " again";
  std::string errors;
  for (size_t i = 0; i < allow_errors.size(); ++i)
    errors += (i == 0                         ? " with "
               : i + 1 == allow_errors.size() ? " or "
                                              : ", ") +
              result_text(-int64_t(allow_errors[i]));
  return "a traced entry function to fail" + errors;
}

RoundGoal first_round_goal(std::span<const int> allow_errors) {
  return {.allow_errors = {allow_errors.begin(), allow_errors.end()}};
}

RoundGoal next_round_goal(const FailingChain& chain) {
  return {.entry = chain.funcs.front(), .res = chain.res};
}

std::string result_text(int64_t res) {
  const char* name = res < 0 && res >= -4095 ? errno_name(int(-res)) : nullptr;
  if (res == 0) return "NULL";
  return name ? std::string("-") + name : std::to_string(res);
}

std::string render_entry_failures(std::span<const EntryFailures> failures) {
  std::string out;
  for (const EntryFailures& f : failures) {
    if (!out.empty()) out += ", ";
    out += f.func + " " + result_text(f.res) + " x" + std::to_string(f.count);
  }
  return out;
}

}  // namespace retsnoop
