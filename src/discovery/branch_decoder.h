// Direct calls and jumps out of one function's machine code, decoded with Capstone.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

struct cs_insn;

namespace retsnoop {

enum class CodeArch { X86_64, Arm64 };

// The architecture retsnoop runs on, which is the running kernel's.
CodeArch host_code_arch();

enum class BranchKind {
  Call,      // x86-64 call rel32, arm64 bl
  TailJump,  // a jump, conditional or not, that leaves the function
  Indirect,  // a call or jump through a register, its target seen at run time
};

// "call", "tail jump", "indirect, seen at run time".
std::string_view branch_kind_word(BranchKind kind);

struct Branch {
  uint64_t target = 0;
  BranchKind kind = BranchKind::Call;

  bool operator==(const Branch&) const = default;
};

class BranchDecoder {
 public:
  // Throws std::runtime_error when Capstone cannot be set up for arch.
  explicit BranchDecoder(CodeArch arch);
  ~BranchDecoder();
  BranchDecoder(const BranchDecoder&) = delete;
  BranchDecoder& operator=(const BranchDecoder&) = delete;

  // The direct branches of code, a function that starts at addr, whose target lies outside it:
  // one per target, in target order, a call when any branch to it is one. Indirect branches
  // have no target to read and are left out; bytes that do not decode (padding, data) are
  // stepped over.
  std::vector<Branch> decode(std::span<const uint8_t> code, uint64_t addr) const;

  // Calls fn with each instruction of code, with Capstone's detail, stepping over bytes that do
  // not decode as decode() does.
  void each_insn(std::span<const uint8_t> code, uint64_t addr,
                 const std::function<void(const cs_insn&)>& fn) const;
  CodeArch arch() const { return arch_; }

 private:
  CodeArch arch_;
  size_t handle_ = 0;  // csh
};

}  // namespace retsnoop
