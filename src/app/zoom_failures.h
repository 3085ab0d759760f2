// --zoom: the failing chains a round saw, and which one the next round chases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "discovery/func_info.h"
#include "events/session.h"

namespace retsnoop {

// One failing session's chain of traced calls, entry first, by qualified name.
struct FailingChain {
  std::vector<std::string> funcs;
  int64_t res = 0;            // what the entry call returned
  uint64_t deepest_addr = 0;  // where the deepest function starts
  std::string deepest_loc;    // "file:line" there; empty if unknown
  std::string message;        // the first kernel message of the session; empty without one
};

// The chain of a failing session whose entry call failed, down to the deepest call that failed
// with the entry's error: a call below that failed otherwise (an -ENOPARAM its caller handles)
// is not where the error came from. nullopt for any other session.
std::optional<FailingChain> failing_chain(const Session& s, const FuncTable& funcs);

// How often an entry function failed with one result.
struct EntryFailures {
  std::string func;
  int64_t res = 0;
  size_t count = 0;
};

class FailureLog {
 public:
  void add(FailingChain chain) { chains_.push_back(std::move(chain)); }
  bool empty() const { return chains_.empty(); }
  // Each entry function and result that failed, in the order of their first failure.
  std::vector<EntryFailures> by_entry() const;
  // The failure to chase: the last one whose errno allow_errors (-x: positive errno values, 0
  // for NULL) lists, or the last one when allow_errors is empty. nullopt when none fits.
  std::optional<FailingChain> choose(std::span<const int> allow_errors) const;
  // The last failure of entry with result res.
  std::optional<FailingChain> last_of(const std::string& entry, int64_t res) const;

 private:
  std::vector<FailingChain> chains_;  // in the order the sessions were reported
};

// The failure a round of live mode (--zoom without a command) waits for, and ends at: in round
// 1 any entry function's failure that -x allows, in the rounds after the chased entry function
// failing with the same result again.
struct RoundGoal {
  std::string entry;              // empty: any traced entry function
  int64_t res = 0;                // with entry: the result it returns
  std::vector<int> allow_errors;  // without entry: -x's errno values (0 for NULL); empty: any

  bool met_by(const FailingChain& c) const;
  // "__x64_sys_bpf to fail with -EINVAL again", for the line that says what the round waits for.
  std::string text() const;
};

// Round 1's goal, with the user's -x.
RoundGoal first_round_goal(std::span<const int> allow_errors);
// The goal of the round after one that chased chain.
RoundGoal next_round_goal(const FailingChain& chain);

// "__x64_sys_bpf -EINVAL x2, __x64_sys_openat -ENOENT x1"
std::string render_entry_failures(std::span<const EntryFailures> failures);

// "-EINVAL", or the number when it is no errno.
std::string result_text(int64_t res);

}  // namespace retsnoop
