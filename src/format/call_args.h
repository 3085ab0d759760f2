// -A in the views: finds a call's captured arguments in its session and renders them with the
// function's plan. The stack view, the -T table and --json share it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/func_args.h"
#include "events/session.h"
#include "format/arg_render.h"

namespace retsnoop {

// Borrowed, like FormatContext.
struct ArgsContext {
  const std::vector<FuncArgs>& plans;        // indexed by function id
  const std::vector<FuncArgs>& probe_plans;  // indexed by probe id
  const ArgRenderOptions& opts;
};

// The lines to print under (or, compact, next to) call call_seq; empty when its arguments were
// not captured.
std::vector<std::string> call_arg_lines(const Session& s, uint32_t call_seq,
                                        const ArgsContext* ctx);
// The arguments of call call_seq as a JSON object; nullopt when not captured.
std::optional<nlohmann::json> call_args_json(const Session& s, uint32_t call_seq,
                                             const ArgsContext* ctx);
// The same for the probe hit whose -T record is seq.
std::vector<std::string> probe_arg_lines(const Session& s, uint32_t seq, const ArgsContext* ctx);
std::optional<nlohmann::json> probe_args_json(const Session& s, uint32_t seq,
                                              const ArgsContext* ctx);

}  // namespace retsnoop
