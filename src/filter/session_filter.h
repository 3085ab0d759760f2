// Every user-space filter a received session must pass to be printed. They judge the assembled
// session, so they never change which chain BPF reports; a session must pass all of them.
#pragma once

#include "filter/error_filter.h"
#include "filter/retval_filter.h"

namespace retsnoop {

struct SessionFilter {
  ErrorFilter errors;    // -x/-X: the failures anywhere in the reported stack
  RetvalFilter retvals;  // --allow-retval/--deny-retval: the entry call's own result

  bool reports(const Session& s, const FuncTable& funcs) const {
    return errors.reports(s, funcs) && retvals.reports(s, funcs);
  }
};

}  // namespace retsnoop
