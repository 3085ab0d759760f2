#include "format/frame_filter.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace retsnoop {
namespace {

// Return trampolines differ across kernel versions (kretprobe_trampoline became
// __kretprobe_trampoline in 5.15; the rethook ones came with fprobe in 5.18+); keep every one.
constexpr std::array<std::string_view, 6> kTrampolines = {
    "__kretprobe_trampoline", "kretprobe_trampoline",    "ftrace_trampoline",
    "rethook_trampoline",     "arch_rethook_trampoline", "return_to_handler",
};

constexpr std::string_view kProgPrefix = "bpf_prog_";
constexpr size_t kProgTagDigits = 16;  // BPF_TAG_SIZE bytes in hex
constexpr std::string_view kTrampolinePrefix = "bpf_trampoline_";

// Where a patched fentry site returns to, per architecture: the frame a BPF trampoline leaves
// in the stack. x86-64 patches a 5-byte call at the function start, or right after the 4-byte
// endbr64 in IBT kernels (X86_PATCH_SIZE and ENDBR_INSN_SIZE in arch/x86/net/bpf_jit_comp.c;
// 6.12: __x64_sys_bpf+0x9, __sys_bpf+0x5). arm64 saves the link register and branches, two
// 4-byte instructions, after a 4-byte "bti c" in BTI kernels (arch/arm64/kernel/ftrace.c;
// 6.12: __arm64_sys_bpf+0x8).
#if defined(__aarch64__)
constexpr std::array<uint64_t, 2> kFentryReturnOffsets = {8, 12};
#else
constexpr std::array<uint64_t, 2> kFentryReturnOffsets = {5, 9};
#endif

bool is_hex_digits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c); });
}

bool is_dec_digits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The kernel names programs "bpf_prog_" + tag + optionally "_" + program name.
bool is_bpf_prog_name(std::string_view name) {
  if (!name.starts_with(kProgPrefix)) return false;
  std::string_view rest = name.substr(kProgPrefix.size());
  if (rest.size() < kProgTagDigits || !is_hex_digits(rest.substr(0, kProgTagDigits))) return false;
  return rest.size() == kProgTagDigits || rest[kProgTagDigits] == '_';
}

// BPF trampolines are "bpf_trampoline_" + a decimal key, and before 5.12, which gave a
// trampoline one image at a time, + "_" + the image's decimal index (5.10:
// bpf_trampoline_13628_1); bpf_trampoline_link_prog and friends are ordinary kernel functions.
bool is_bpf_trampoline_name(std::string_view name) {
  if (!name.starts_with(kTrampolinePrefix)) return false;
  std::string_view key = name.substr(kTrampolinePrefix.size());
  size_t sep = key.find('_');
  if (sep == std::string_view::npos) return is_dec_digits(key);
  return is_dec_digits(key.substr(0, sep)) && is_dec_digits(key.substr(sep + 1));
}

bool is_trampoline_name(std::string_view name) {
  return is_bpf_trampoline_name(name) ||
         std::find(kTrampolines.begin(), kTrampolines.end(), name) != kTrampolines.end();
}

}  // namespace

bool is_tracing_frame(const SymbolizedAddr& sym) {
  if (!sym.found) return false;
  return sym.module == "bpf" || is_bpf_prog_name(sym.name) || is_trampoline_name(sym.name);
}

// Only a patched fentry site calls a BPF trampoline (struct_ops and dispatchers have names of
// their own), so the offset check only guards against a misread stack.
bool is_fentry_call_site(const SymbolizedAddr& frame, const SymbolizedAddr& inner) {
  if (!frame.found || !inner.found || !is_bpf_trampoline_name(inner.name)) return false;
  return std::find(kFentryReturnOffsets.begin(), kFentryReturnOffsets.end(), frame.offset) !=
         kFentryReturnOffsets.end();
}

}  // namespace retsnoop
