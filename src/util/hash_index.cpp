#include "util/hash_index.h"

#include <bit>
#include <stdexcept>

namespace retsnoop {

// At most half full: probe runs stay a slot or two long.
HashIndex::HashIndex(size_t max_entries)
    : slots_(std::bit_ceil(2 * max_entries + 1)),
      mask_(slots_.size() - 1),
      capacity_(max_entries) {}

void HashIndex::insert(uint64_t hash, uint32_t id) {
  // A full table would make probes loop forever.
  if (++size_ > capacity_) throw std::logic_error("HashIndex: more ids than it was sized for");
  size_t i = hash & mask_;
  while (slots_[i].id_plus_one != 0) i = (i + 1) & mask_;
  slots_[i] = {tag_of(hash), id + 1};
}

}  // namespace retsnoop
