#include "format/stack_fingerprint.h"

#include <cinttypes>
#include <cstdio>
#include <string_view>

#include "discovery/func_lookup.h"
#include "format/result_format.h"
#include "format/stack_merge.h"

namespace retsnoop {
namespace {

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr uint64_t kFnvPrime = 0x100000001b3ull;

uint64_t fnv1a(uint64_t h, std::string_view text) {
  for (unsigned char c : text) h = (h ^ c) * kFnvPrime;
  return h;
}

std::string frame_name(const MergedFrame& level, const FuncTable& funcs) {
  if (!level.has_frame) return lookup_func(funcs, level.call->func_id).name;
  return level.frame->sym.found ? level.frame->sym.name : "[unknown]";
}

std::string entry_result(const Session& s, const FuncTable& funcs) {
  if (s.calls.empty() || s.calls.front().running) return "";
  const StackCall& entry = s.calls.front();
  return format_result(entry.res, lookup_func(funcs, entry.func_id).ret);
}

}  // namespace

StackSignature stack_signature(const Session& s, const FormatContext& ctx) {
  StackSignature sig;
  for (const MergedFrame& level : merge_stack(s, ctx))
    sig.frames.push_back(frame_name(level, ctx.funcs));
  sig.result = entry_result(s, ctx.funcs);
  return sig;
}

// Names never hold a NUL, so it separates them unambiguously ("a" + "bc" differs from "ab" + "c").
std::string stack_fingerprint(const StackSignature& sig) {
  uint64_t h = kFnvOffset;
  for (const std::string& frame : sig.frames) h = fnv1a(fnv1a(h, frame), std::string_view("\0", 1));
  h = fnv1a(fnv1a(h, std::string_view("\0", 1)), sig.result);
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016" PRIx64, h);
  return hex;
}

}  // namespace retsnoop
