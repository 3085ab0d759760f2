#include "discovery/callee_finder.h"

#include <algorithm>
#include <array>

namespace retsnoop {

namespace {

// Larger than any kernel function; the distance to the next symbol can be far larger at the end
// of a section, and reading it would decode padding and data.
constexpr uint64_t kMaxFunctionBytes = 64 * 1024;

constexpr std::array<std::string_view, 14> kPatchedTargetPrefixes = {
    "__fentry__",                  // ftrace's hook: a nop until traced
    "_mcount",                     // arm64 ftrace without patchable entries
    "__x86_indirect_thunk_",       // retpolines: an indirect call in disguise
    "__x86_indirect_call_thunk_",  // call depth tracking
    "__x86_indirect_jump_thunk_",
    "__x86_return_thunk",  // the return of a function, not a call
    "__x86_return_skl",
    "__SCT__",  // static call trampolines: the target is patched in
    "__static_call_return0",
    "__cfi_",  // CFI preambles
    "srso_",   // speculative return overflow mitigation thunks
    "retbleed_",
    "entry_untrain_ret",
    "zen_untrain_ret",
};

}  // namespace

bool is_patched_site_target(std::string_view name) {
  return std::any_of(kPatchedTargetPrefixes.begin(), kPatchedTargetPrefixes.end(),
                     [&](std::string_view p) { return name.starts_with(p); });
}

CalleeFinder::CalleeFinder(const Kallsyms& ksyms, const KernelText& text, CodeArch arch)
    : ksyms_(ksyms), text_(text), decoder_(arch) {}

std::optional<std::vector<uint8_t>> CalleeFinder::code(const KSym& fn) const {
  uint64_t size = std::min(ksyms_.extent(fn), kMaxFunctionBytes);
  if (size == 0) return std::nullopt;
  return text_.read(fn.addr, size);
}

std::optional<std::vector<FoundCallee>> CalleeFinder::callees(const KSym& fn) const {
  std::optional<std::vector<uint8_t>> code = this->code(fn);
  if (!code) return std::nullopt;
  std::vector<FoundCallee> out;
  for (const Branch& b : decoder_.decode(*code, fn.addr)) {
    const KSym* target = ksyms_.find_by_addr(b.target);
    if (!target || target->addr != b.target || is_patched_site_target(target->name())) continue;
    out.push_back({target, b.kind});
  }
  return out;
}

}  // namespace retsnoop
