// Stitching of an earlier failing sub-chain below the reported chain (SPEC section 4).
#pragma once

#include <vector>

#include "bpf/abi.h"
#include "events/session.h"

namespace retsnoop {

// frames: the reported chain, outermost first. saved: an earlier failing chain of the same
// session. When saved continues exactly below the reported chain (the same call at the reported
// chain's deepest level, identified by its sequence number), its deeper levels are appended and
// marked stitched.
std::vector<StackCall> stitch_chains(const std::vector<rs_frame>& frames,
                                     const std::vector<rs_frame>& saved);

}  // namespace retsnoop
