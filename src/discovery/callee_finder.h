// The functions a kernel function calls or tail-jumps to, from its machine code.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "discovery/branch_decoder.h"
#include "discovery/kallsyms.h"
#include "discovery/kernel_text.h"

namespace retsnoop {

struct FoundCallee {
  const KSym* sym = nullptr;  // a function of the Kallsyms the finder reads
  BranchKind kind = BranchKind::Call;
};

// Whether name is code the kernel reaches through a patched or generated site: the ftrace hook,
// retpoline and return thunks, static call trampolines. A branch to it says nothing about which
// function runs.
bool is_patched_site_target(std::string_view name);

class CalleeFinder {
 public:
  // Reads through ksyms and text, which must outlive it and not change.
  CalleeFinder(const Kallsyms& ksyms, const KernelText& text, CodeArch arch);

  // The functions fn's direct branches land on, at their first byte, without patched-site
  // targets: a branch into the middle of a symbol is not guessed at. fn's size is the distance
  // to the next symbol, capped. nullopt when its text cannot be read.
  std::optional<std::vector<FoundCallee>> callees(const KSym& fn) const;
  // fn's machine code, sized as callees() reads it; nullopt when it cannot be read.
  std::optional<std::vector<uint8_t>> code(const KSym& fn) const;
  const BranchDecoder& decoder() const { return decoder_; }
  const Kallsyms& ksyms() const { return ksyms_; }

 private:
  const Kallsyms& ksyms_;
  const KernelText& text_;
  BranchDecoder decoder_;
};

}  // namespace retsnoop
