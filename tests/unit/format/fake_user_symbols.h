// A user-stack symbolizer answering from a fixed table: a PIE loader whose frames have symbols
// and lines, one from a library without DWARF, one without a symbol, one outside every mapping.
#pragma once

#include <map>

#include "symbolize/user_symbolizer.h"

namespace retsnoop::test {

class FakeUserSymbols : public UserSymbols {
 public:
  UserFrame symbolize(uint32_t, uint64_t, uint64_t addr, bool is_return_addr) override {
    returns_[addr] = is_return_addr;
    auto it = frames().find(addr);
    return it == frames().end() ? UserFrame{} : it->second;
  }
  // What the renderer said about addr: a return address or the innermost frame.
  bool asked_as_return(uint64_t addr) const { return returns_.at(addr); }

  static constexpr uint64_t kSyscall = 0x7f0c2a91e88d;
  static constexpr uint64_t kCreateMap = 0x55d0c6a0129f;
  static constexpr uint64_t kMain = 0x55d0c6a01432;
  static constexpr uint64_t kNoSymbol = 0x7f0c2a8291ca;
  static constexpr uint64_t kUnmapped = 0xdeadbeef;
  // Names and paths a hostile user put in a binary and its debug info.
  static constexpr uint64_t kHostile = 0x55d0c6a01500;
  static constexpr uint64_t kHostileNoSymbol = 0x55d0c6a01600;

 private:
  static UserFrame frame(std::string name, uint64_t off, std::string binary, SourceLoc loc = {}) {
    UserFrame f;
    f.sym.found = true;
    f.sym.name = std::move(name);
    f.sym.offset = off;
    f.sym.loc = std::move(loc);
    f.mapped = true;
    f.binary = std::move(binary);
    return f;
  }
  static const std::map<uint64_t, UserFrame>& frames() {
    static const std::map<uint64_t, UserFrame> table = [] {
      std::map<uint64_t, UserFrame> t;
      t[kSyscall] = frame("syscall", 0x1d, "/usr/lib/x86_64-linux-gnu/libc.so.6");
      t[kCreateMap] = frame("create_map", 0x2f, "/home/u/loader", {"/home/u/src/loader.c", 27, 12});
      t[kMain] = frame("main", 0x62, "/home/u/loader", {"/home/u/src/loader.c", 58, 3});
      UserFrame bare;
      bare.mapped = true;
      bare.binary = "/usr/lib/x86_64-linux-gnu/libc.so.6";
      bare.file_offset = 0x271ca;
      t[kNoSymbol] = bare;
      t[kHostile] = frame("ev\x1b[1mil\n", 0x4, "/tmp/b\x1b]0;t\a", {"/tmp/s\r.c", 3, 1});
      UserFrame hostile_bare = bare;
      hostile_bare.binary =
          "/tmp/\x9b"
          "2J\nx";
      t[kHostileNoSymbol] = hostile_bare;
      return t;
    }();
    return table;
  }

  std::map<uint64_t, bool> returns_;
};

}  // namespace retsnoop::test
