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

// BPF trampolines are "bpf_trampoline_" + a decimal key; bpf_trampoline_link_prog and friends
// are ordinary kernel functions.
bool is_trampoline_name(std::string_view name) {
  if (name.starts_with(kTrampolinePrefix))
    return is_dec_digits(name.substr(kTrampolinePrefix.size()));
  return std::find(kTrampolines.begin(), kTrampolines.end(), name) != kTrampolines.end();
}

}  // namespace

bool is_tracing_frame(const SymbolizedAddr& sym) {
  if (!sym.found) return false;
  return sym.module == "bpf" || is_bpf_prog_name(sym.name) || is_trampoline_name(sym.name);
}

}  // namespace retsnoop
