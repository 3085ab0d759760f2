// -A: turns one call's captured argument bytes into text (compact, multiline, verbose) or JSON,
// guided by the BTF types of the function's plan. Pure: no kernel, no BPF.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "discovery/func_args.h"
#include "events/captured_args.h"
#include "format/arg_fmt_mode.h"

namespace retsnoop {

// Names a kernel address for function pointers (&do_something); nullopt when unknown.
using AddrNamer = std::function<std::optional<std::string>(uint64_t)>;

struct ArgRenderOptions {
  ArgFmtMode mode = ArgFmtMode::Compact;
  uint32_t max_arg_width = 120;  // 0: no cut; Compact and Multiline cut each value at it
  ArgLimits limits;              // what BPF was allowed to capture: marks truncation
  AddrNamer name_addr;           // may be empty
};

// One rendered argument: name and value text. Verbose values span several lines (joined by
// '\n', already indented relative to the value start).
struct RenderedArg {
  std::string name;
  std::string value;
};

std::vector<RenderedArg> render_args(const FuncArgs& plan, const CapturedArgs& cap,
                                     const ArgRenderOptions& opts);

// The lines to print under a stack frame or -T row, without the caller's indentation:
// Compact: one line "› name=value name=value ..."; Multiline: "› name = value" per argument;
// Verbose: like Multiline with struct fields one per line (continuation lines start with two
// spaces, under the "› "). A trailing note line says when variadic or stack-passed arguments
// were not captured. No lines for a function without parameters.
std::vector<std::string> arg_lines(const FuncArgs& plan, const CapturedArgs& cap,
                                   const ArgRenderOptions& opts);

// The arguments as a JSON object {"name": value, ...}: numbers as numbers, strings as strings,
// structs and unions as objects, pointers as {"addr": N, "value": pointee}.
// A value that is cut short is {"value": ..., "truncated": true}; see docs/usage.md "Argument
// capture".
std::string args_json(const FuncArgs& plan, const CapturedArgs& cap, const ArgRenderOptions& opts);
// The same object, to embed in a larger JSON document.
nlohmann::json args_json_value(const FuncArgs& plan, const CapturedArgs& cap,
                               const ArgRenderOptions& opts);

}  // namespace retsnoop
