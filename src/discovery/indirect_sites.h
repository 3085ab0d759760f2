// Indirect calls and jumps out of a function's machine code, decoded with Capstone: where each
// instruction reads its target, so that a probe on it sees which function it goes to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "discovery/callee_finder.h"

namespace retsnoop {

struct IndirectSite {
  uint64_t addr = 0;  // of the call or jump instruction
  uint8_t reg = 0;    // the register holding the target: its 8-byte slot in struct pt_regs
  bool mem = false;   // the target is the pointer at reg + disp
  int32_t disp = 0;

  bool operator==(const IndirectSite&) const = default;
};

struct SiteDecode {
  std::vector<IndirectSite> sites;  // in address order
  size_t unsupported = 0;           // indirect branches through other operands (rip-relative,
                                    // indexed memory), not probed
};

// The name of the symbol that starts at addr, empty for none.
using SymbolAt = std::function<std::string_view(uint64_t addr)>;

// The indirect call and jump sites of code, a function at addr: x86-64 call/jmp through a
// register or register + displacement, or to a retpoline or call-depth thunk (whose name names
// the register); arm64 blr/br.
SiteDecode decode_indirect_sites(const BranchDecoder& dec, std::span<const uint8_t> code,
                                 uint64_t addr, const SymbolAt& symbol_at);

struct CallerSite {
  std::string caller;  // qualified name
  uint64_t caller_addr = 0;
  IndirectSite site;
};

// The sites --callees probes, and which of their targets it may name.
struct IndirectSitePlan {
  std::vector<CallerSite> sites;  // in the walk's order, at most callees.max-sites
  size_t unsupported = 0;         // sites whose operand is not probed
  size_t left_out = 0;            // sites past callees.max-sites
  // Qualified names of the traceable, not denied functions: the targets worth naming.
  std::unordered_set<std::string> eligible;
};

// The sites of fns, the functions --callees walked, at most max_sites of them.
IndirectSitePlan find_indirect_sites(std::span<const KSym* const> fns, const CalleeFinder& finder,
                                     size_t max_sites);

}  // namespace retsnoop
