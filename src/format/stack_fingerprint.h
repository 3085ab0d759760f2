// The identity of a failure, independent of where the kernel was loaded: the symbol names of its
// merged stack and the result of the entry call, hashed. Addresses and offsets stay out, so the
// same failure on two hosts with different KASLR offsets (or different builds of one kernel
// version) gets the same fingerprint, and a log store can group it across a fleet.
#pragma once

#include <string>
#include <vector>

#include "events/session.h"
#include "format/format_options.h"

namespace retsnoop {

struct StackSignature {
  std::vector<std::string> frames;  // outermost first, as the stack view prints them
  std::string result;               // the entry call's, "[-EINVAL]"; empty while running
  bool operator==(const StackSignature&) const = default;
};

// Kernel frames by symbol name ("[unknown]" when unnamed), traced calls without a kernel frame
// by function name.
StackSignature stack_signature(const Session& s, const FormatContext& ctx);

// 16 lowercase hex digits (64-bit FNV-1a): stable across runs, builds and hosts.
std::string stack_fingerprint(const StackSignature& sig);

}  // namespace retsnoop
