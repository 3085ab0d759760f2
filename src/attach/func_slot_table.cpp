#include "attach/func_slot_table.h"

#include <bit>

namespace retsnoop {
namespace {

// False when addr finds no free slot within its probes.
bool place(std::vector<rs_func_slot>& table, uint64_t addr, uint32_t id) {
  uint32_t mask = uint32_t(table.size() - 1), home = rs_func_slot_home(addr, mask);
  for (uint32_t i = 0; i < RS_FUNC_SLOT_PROBES; ++i) {
    rs_func_slot& slot = table[(home + i) & mask];
    if (slot.addr == addr) return true;
    if (slot.addr == 0) {
      slot = {.addr = addr, .id = id, .pad = 0};
      return true;
    }
  }
  return false;
}

bool place_all(std::vector<rs_func_slot>& table, std::span<const uint64_t> addrs) {
  for (size_t id = 0; id < addrs.size(); ++id)
    if (!place(table, addrs[id], uint32_t(id))) return false;
  return true;
}

}  // namespace

std::vector<rs_func_slot> build_func_slots(std::span<const uint64_t> addrs) {
  for (size_t size = std::bit_ceil(std::max<size_t>(2 * addrs.size(), 2));; size *= 2) {
    std::vector<rs_func_slot> table(size);
    if (place_all(table, addrs)) return table;
  }
}

std::optional<size_t> find_func_slot(std::span<const rs_func_slot> table, uint64_t addr) {
  uint32_t mask = uint32_t(table.size() - 1), home = rs_func_slot_home(addr, mask);
  for (uint32_t i = 0; i < RS_FUNC_SLOT_PROBES; ++i) {
    size_t k = (home + i) & mask;
    if (table[k].addr == 0) return std::nullopt;
    if (table[k].addr == addr) return k;
  }
  return std::nullopt;
}

}  // namespace retsnoop
