// The whole pipeline: discover, load, attach, receive and print, detach.
#pragma once

#include "cli/options.h"

namespace retsnoop {

// Returns the process exit code; throws UserError on fatal user-facing errors (after every
// kernel object it created has been released).
int run(const Options& opts);

}  // namespace retsnoop
