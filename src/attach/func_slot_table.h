// The table behind the BPF programs' address -> function id lookup (bpf/func_slots.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "bpf/func_slots.h"

namespace retsnoop {

// Places addrs[id] for every id, each within RS_FUNC_SLOT_PROBES slots of its home slot; the
// size is a power of two, at least twice the addresses, doubled until every one fits. A repeated
// address keeps its first id.
std::vector<rs_func_slot> build_func_slots(std::span<const uint64_t> addrs);

// The slot holding addr, found as the programs search for it.
std::optional<size_t> find_func_slot(std::span<const rs_func_slot> table, uint64_t addr);

}  // namespace retsnoop
