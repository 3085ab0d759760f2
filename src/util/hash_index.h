// Ids by hash in one flat open-addressing table. Discovery indexes tens of thousands of names per
// run before it can attach (BTF functions, traceable functions): one pass over a flat array
// instead of a sort or a node allocation per name, on the path every run waits for.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace retsnoop {

// The hash names are indexed by.
inline uint64_t hash_name(std::string_view name) { return std::hash<std::string_view>{}(name); }

class HashIndex {
 public:
  HashIndex() = default;
  // Room for max_entries ids; the table never grows, so callers size it up front.
  explicit HashIndex(size_t max_entries);

  void insert(uint64_t hash, uint32_t id);

  // Calls f(id) for each id inserted with this hash, in insertion order, until f returns true;
  // returns whether f did. Ids of a few other hashes may come too: the table keeps part of each
  // hash only, so f must tell equal keys from collisions anyway.
  template <typename F>
  bool find(uint64_t hash, F&& f) const {
    if (slots_.empty()) return false;
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.id_plus_one == 0) return false;
      if (s.tag == tag_of(hash) && f(s.id_plus_one - 1)) return true;
    }
  }

 private:
  struct Slot {
    uint32_t tag = 0;          // high bits of the hash: most collisions never reach f
    uint32_t id_plus_one = 0;  // 0: empty
  };
  static uint32_t tag_of(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace retsnoop
