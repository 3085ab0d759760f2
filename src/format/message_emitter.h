// The function that emitted a kernel message, found in the kernel stack captured at the probe:
// the first frame that is neither the tracing machinery nor the kernel's message plumbing.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "symbolize/symbolizer.h"

namespace retsnoop {

// The kernel's functions that carry a message to the log or to a buffer on behalf of their
// caller (vprintk_store(), _dev_err(), logfc(), the verifier's verbose(), ...): never the emitter.
bool is_message_plumbing(std::string_view name);

// The emitter's frame in stack (innermost first, as bpf_get_stack() fills it), or nothing when
// every frame is plumbing, tracing or unknown.
std::optional<SymbolizedAddr> message_emitter(const std::vector<uint64_t>& stack,
                                              Symbolizer& symbolizer);

}  // namespace retsnoop
