// --allow-retval/--deny-retval: which sessions are reported, judged on the result of the entry
// call alone (the outermost call of the stack, the one that opened the session), whatever
// happened deeper down.
#pragma once

#include <vector>

#include "discovery/func_info.h"
#include "events/session.h"
#include "filter/retval_range.h"

namespace retsnoop {

class RetvalFilter {
 public:
  // Ranges as Options holds them; empty lists filter nothing.
  RetvalFilter(std::vector<RetvalRange> allow, std::vector<RetvalRange> deny);

  // A session passes unless its entry result lies in a denied range, and, when allowed ranges
  // were given, only if it lies in one of them: deny wins. Results are read in the width of
  // the entry function's type (result_value()); a void entry, or one that has not returned yet
  // (-I), has no result and lies in no range.
  bool reports(const Session& s, const FuncTable& funcs) const;

 private:
  std::vector<RetvalRange> allow_;
  std::vector<RetvalRange> deny_;
};

}  // namespace retsnoop
