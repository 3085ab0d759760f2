// What the -A targets share: bytes as a hit of a plan would have captured them, and every way
// the renderers print them. Captured bytes are whatever the traced kernel memory held, so each
// target feeds them from its own input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>

#include "bpf/abi.h"
#include "discovery/func_args.h"
#include "events/captured_args.h"
#include "format/arg_render.h"

namespace retsnoop::fuzz {

// Bytes BPF may send for an argument captured as spec says, out of available: none for a
// register alone, up to its type's size for a pointee, any number for a string or a located
// field (BPF only bounds them).
inline size_t captured_size(const rs_arg_spec& spec, size_t available) {
  if (spec.kind == RS_ARG_REG) return 0;
  if (spec.kind == RS_ARG_PTR) return std::min<size_t>(spec.size, available);
  return available;
}

// Every slot and every argument's data cut from bytes.
inline CapturedArgs capture_of(const FuncArgs& plan, std::span<const uint8_t> bytes) {
  CapturedArgs cap;
  cap.slots.resize(RS_MAX_ARG_SLOTS);
  std::memcpy(cap.slots.data(), bytes.data(),
              std::min(bytes.size(), cap.slots.size() * sizeof(uint64_t)));
  for (const ArgInfo& a : plan.args) {
    size_t n = captured_size(a.spec, bytes.size());
    cap.lens.push_back(static_cast<int32_t>(n));
    cap.data.emplace_back(bytes.begin(), bytes.begin() + n);
  }
  return cap;
}

// Each text mode and JSON, with and without a width cut.
inline void render_every_way(const FuncArgs& plan, const CapturedArgs& cap) {
  for (ArgFmtMode mode : {ArgFmtMode::Compact, ArgFmtMode::Multiline, ArgFmtMode::Verbose}) {
    for (uint32_t width : {0u, 40u}) {
      ArgRenderOptions opts;
      opts.mode = mode;
      opts.max_arg_width = width;
      arg_lines(plan, cap, opts);
    }
  }
  args_json(plan, cap, ArgRenderOptions{});
}

}  // namespace retsnoop::fuzz
