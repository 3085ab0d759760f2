// -x/-X: which failed sessions are reported, judged on the results of every
// call of the reported stack, stitched levels included, as the user reads that stack.
#pragma once

#include <vector>

#include "discovery/func_info.h"
#include "events/session.h"

namespace retsnoop {

class ErrorFilter {
 public:
  // Positive errnos, 0 for NULL, as Options holds them; empty lists filter nothing.
  ErrorFilter(std::vector<int> allow, std::vector<int> deny);

  // Sessions that did not fail pass (-S asked for them). A failed one passes unless one of its
  // calls failed with a denied errno, and, when -x was given, only if one failed with an
  // allowed errno: -X wins over -x.
  bool reports(const Session& s, const FuncTable& funcs) const;

 private:
  std::vector<int> allow_;
  std::vector<int> deny_;
};

}  // namespace retsnoop
