#include "discovery/plan_report.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

FuncPlan sample_plan() {
  FuncPlan p;
  p.funcs = {
      {"__x64_sys_bpf", "", 0xffffffff81001000ull, RetKind::Int64, true, true, 48},
      {"array_map_alloc", "", 0xffffffff81001300ull, RetKind::Ptr, true, false, 55},
      {"ret_void", "", 0xffffffff81001400ull, RetKind::Void, true, false, 2},
      {"ret_bool", "", 0xffffffff81001500ull, RetKind::Bool, true, false, 5},
      {"ret_uint", "", 0xffffffff81001600ull, RetKind::Unsigned, true, false, 8},
      {"helper_fn.isra.0", "", 0xffffffff81001700ull, RetKind::Int32, false, false, 0},
      {"kvm_read_guest", "kvm", 0xffffffffc0001000ull, RetKind::Int32, true, false, 80},
  };
  p.stats.traceable_from_tracefs = true;
  p.stats.traceable = 18;
  p.stats.matched = 8;
  p.stats.denied = 1;
  p.stats.skipped = {{"", "dup_mismatch", "2 copies in kallsyms but 1 traceable"}};
  p.glob_counts = {{"entry", "*_sys_bpf", 2, true},
                   {"deny (built-in)", "rcu_read_lock*", 1, false}};
  return p;
}

constexpr const char* kReport =
    "vmlinux: /boot/vmlinux-6.1\n"
    "Traceable functions: 18 (available_filter_functions)\n"
    "Matched functions: 8 (1 more denied)\n"
    "Attachable functions: 7\n"
    "Skipped functions: 1\n"
    "  dup_mismatch: 2 copies in kallsyms but 1 traceable\n"
    "Functions to attach:\n"
    "  ffffffff81001000  __x64_sys_bpf         entry,long\n"
    "  ffffffff81001300  array_map_alloc       ptr\n"
    "  ffffffff81001400  ret_void              void\n"
    "  ffffffff81001500  ret_bool              bool\n"
    "  ffffffff81001600  ret_uint              unsigned\n"
    "  ffffffff81001700  helper_fn.isra.0      int,no-btf\n"
    "  ffffffffc0001000  kvm_read_guest [kvm]  int\n";

TEST(PlanReport, VerboseListsCountsAndEveryFunctionWithFlags) {
  EXPECT_EQ(render_plan(sample_plan(), "/boot/vmlinux-6.1", 1), kReport);
}

TEST(PlanReport, VeryVerboseAddsPerGlobCounts) {
  EXPECT_EQ(render_plan(sample_plan(), "/boot/vmlinux-6.1", 2),
            std::string(kReport) +
                "Glob matches:\n"
                "  entry '*_sys_bpf': 2\n"
                "  deny (built-in) 'rcu_read_lock*': 1\n");
}

TEST(PlanReport, SaysWhenTraceableFunctionsWereGuessedAndNoVmlinux) {
  FuncPlan p = sample_plan();
  p.stats.traceable_from_tracefs = false;
  std::string out = render_plan(p, "", 1);
  EXPECT_EQ(out.substr(0, out.find("Matched")),
            "vmlinux: none (no DWARF)\n"
            "Traceable functions: 18 (guessed from kallsyms and BTF)\n");
}

}  // namespace
}  // namespace retsnoop
