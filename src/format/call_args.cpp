#include "format/call_args.h"

namespace retsnoop {

namespace {

struct Found {
  const FuncArgs& plan;
  const CapturedArgs& cap;
};

// Ids come from BPF records: one outside the plans degrades to no arguments.
std::optional<Found> find(const std::map<uint32_t, CapturedArgs>& captured, uint32_t seq,
                          const std::vector<FuncArgs>& plans) {
  auto it = captured.find(seq);
  if (it == captured.end() || it->second.func_id >= plans.size()) return std::nullopt;
  return Found{plans[it->second.func_id], it->second};
}

std::vector<std::string> lines_of(std::optional<Found> f, const ArgsContext& ctx) {
  if (!f) return {};
  return arg_lines(f->plan, f->cap, ctx.opts);
}

std::optional<nlohmann::json> json_of(std::optional<Found> f, const ArgsContext& ctx) {
  if (!f) return std::nullopt;
  return args_json_value(f->plan, f->cap, ctx.opts);
}

}  // namespace

std::vector<std::string> call_arg_lines(const Session& s, uint32_t call_seq,
                                        const ArgsContext* ctx) {
  if (!ctx) return {};
  return lines_of(find(s.args, call_seq, ctx->plans), *ctx);
}

std::optional<nlohmann::json> call_args_json(const Session& s, uint32_t call_seq,
                                             const ArgsContext* ctx) {
  if (!ctx) return std::nullopt;
  return json_of(find(s.args, call_seq, ctx->plans), *ctx);
}

std::vector<std::string> probe_arg_lines(const Session& s, uint32_t seq, const ArgsContext* ctx) {
  if (!ctx) return {};
  return lines_of(find(s.probe_args, seq, ctx->probe_plans), *ctx);
}

std::optional<nlohmann::json> probe_args_json(const Session& s, uint32_t seq,
                                              const ArgsContext* ctx) {
  if (!ctx) return std::nullopt;
  return json_of(find(s.probe_args, seq, ctx->probe_plans), *ctx);
}

}  // namespace retsnoop
