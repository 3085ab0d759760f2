#include "cli/lbr_flags.h"

#include <linux/perf_event.h>

#include <string>

#include "cli/value_parsers.h"

namespace retsnoop {
namespace {

struct LbrName {
  const char* name;
  uint64_t bits;
};

// The branch types perf lets a kernel-mode LBR sample filter on (enum perf_branch_sample_type).
constexpr LbrName kLbrNames[] = {
    {"any", PERF_SAMPLE_BRANCH_ANY},
    {"any_call", PERF_SAMPLE_BRANCH_ANY_CALL},
    {"any_return", PERF_SAMPLE_BRANCH_ANY_RETURN},
    {"cond", PERF_SAMPLE_BRANCH_COND},
    {"call", PERF_SAMPLE_BRANCH_CALL},
    {"ind_call", PERF_SAMPLE_BRANCH_IND_CALL},
    {"ind_jump", PERF_SAMPLE_BRANCH_IND_JUMP},
    {"call_stack", PERF_SAMPLE_BRANCH_CALL_STACK},
    {"abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX},
    {"in_tx", PERF_SAMPLE_BRANCH_IN_TX},
    {"no_tx", PERF_SAMPLE_BRANCH_NO_TX},
};

}  // namespace

uint64_t parse_lbr_flags(std::string_view spec) {
  for (const auto& n : kLbrNames) {
    if (spec == n.name) return n.bits;
  }
  // A raw mask, for branch types newer than this table, as C's strtoul() with base 0 reads it
  // (upstream retsnoop's spelling): 0x20, 040 or 32. 0 adds nothing, so the default stays.
  if (auto mask = parse_unsigned_literal(spec, true)) return *mask;
  auto names = join_names(kLbrNames, [](const LbrName& n) { return n.name; });
  throw InvalidValue("expected one of " + names +
                     ", or an integer mask (decimal, 0x hex or 0 octal)");
}

std::vector<std::string_view> lbr_spec_names() {
  std::vector<std::string_view> names;
  for (const auto& n : kLbrNames) names.push_back(n.name);
  return names;
}

}  // namespace retsnoop
