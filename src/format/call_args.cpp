#include "format/call_args.h"

namespace retsnoop {

namespace {

struct Found {
  const FuncArgs& plan;
  const CapturedArgs& cap;
};

// Ids come from BPF records: one outside the plans degrades to no arguments.
std::optional<Found> find(const Session& s, uint32_t call_seq, const ArgsContext* ctx) {
  if (!ctx) return std::nullopt;
  auto it = s.args.find(call_seq);
  if (it == s.args.end() || it->second.func_id >= ctx->plans.size()) return std::nullopt;
  return Found{ctx->plans[it->second.func_id], it->second};
}

}  // namespace

std::vector<std::string> call_arg_lines(const Session& s, uint32_t call_seq,
                                        const ArgsContext* ctx) {
  std::optional<Found> f = find(s, call_seq, ctx);
  if (!f) return {};
  return arg_lines(f->plan, f->cap, ctx->opts);
}

std::optional<nlohmann::json> call_args_json(const Session& s, uint32_t call_seq,
                                             const ArgsContext* ctx) {
  std::optional<Found> f = find(s, call_seq, ctx);
  if (!f) return std::nullopt;
  return args_json_value(f->plan, f->cap, ctx->opts);
}

}  // namespace retsnoop
