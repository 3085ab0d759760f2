// The release binary's fault hook: no failure on demand, and no environment variable read.
#include "util/fault_injection.h"

namespace retsnoop {

void inject_fault(FaultPoint) {}

bool fault_wanted(FaultPoint) { return false; }

}  // namespace retsnoop
