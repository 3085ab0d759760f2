#include "discovery/func_plan.h"

#include <gtest/gtest.h>

#include <map>

#include "btf_fixture.h"
#include "discovery/fixtures_dir.h"
#include "util/error.h"

namespace retsnoop {
namespace {

// Stands in for the DWARF compile-unit index.
class FakeSourceIndex : public SourcePathIndex {
 public:
  std::vector<std::string> functions_in_paths(const std::string& glob) override {
    queried.push_back(glob);
    if (glob == "kernel/bpf/*.c") return {"map_create", "helper_fn", "not_traceable"};
    return {};
  }
  std::vector<std::string> queried;
};

class FuncPlanTest : public ::testing::Test {
 protected:
  FuncPlanTest() {
    opts.tracefs_dirs = {kFixtures + "tracefs"};
    opts.btf_dir = btf_dir.path();
  }

  FuncPlan plan() { return plan_functions(opts, ksyms); }

  std::string error() {
    try {
      plan();
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  }

  // "name [module]" of each planned function, in table order.
  static std::vector<std::string> names(const FuncPlan& p) {
    std::vector<std::string> out;
    for (const FuncInfo& f : p.funcs)
      out.push_back(f.module.empty() ? f.name : f.name + " [" + f.module + "]");
    return out;
  }

  static const FuncInfo& find(const FuncPlan& p, std::string_view name,
                              std::string_view module = "") {
    for (const FuncInfo& f : p.funcs) {
      if (f.name == name && f.module == module) return f;
    }
    throw std::runtime_error("no " + std::string(name));
  }

  static std::map<std::string, std::string> skipped(const FuncPlan& p) {
    std::map<std::string, std::string> out;
    for (const SkippedFunc& s : p.stats.skipped) out[s.name] = s.reason;
    return out;
  }

  test_support::BtfDir btf_dir;
  Kallsyms ksyms = Kallsyms::load(kFixtures + "kallsyms.txt");
  PlanOptions opts;
};

using Names = std::vector<std::string>;

TEST_F(FuncPlanTest, EntryGlobsAreAllowedTooAndTableIsSortedByModuleThenName) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {"map_create"};
  FuncPlan p = plan();
  EXPECT_EQ(names(p), (Names{"__sys_bpf", "__x64_sys_bpf", "map_create", "map_create [kvm]"}));
  EXPECT_TRUE(find(p, "__sys_bpf").is_entry);
  EXPECT_TRUE(find(p, "__x64_sys_bpf").is_entry);
  EXPECT_FALSE(find(p, "map_create").is_entry);
  EXPECT_EQ(find(p, "map_create").addr, 0xffffffff81001200ull);
  EXPECT_EQ(find(p, "map_create", "kvm").addr, 0xffffffffc0001200ull);
}

TEST_F(FuncPlanTest, ReturnKindsAndBtfComeFromBtf) {
  opts.entry_globs = {"*"};
  FuncPlan p = plan();
  EXPECT_EQ(find(p, "__x64_sys_bpf").ret, RetKind::Int64);
  EXPECT_EQ(find(p, "__sys_bpf").ret, RetKind::Int32);
  EXPECT_EQ(find(p, "array_map_alloc").ret, RetKind::Ptr);
  EXPECT_EQ(find(p, "bpf_map_lookup_elem").ret, RetKind::Ptr);  // helper table, BTF says u64
  EXPECT_TRUE(find(p, "__sys_bpf").has_btf);
  EXPECT_GT(find(p, "__sys_bpf").btf_id, 0u);
  EXPECT_FALSE(find(p, "no_btf_func").has_btf);
  EXPECT_EQ(find(p, "no_btf_func").ret, RetKind::Int32);
  EXPECT_TRUE(find(p, "kvm_read_guest", "kvm").has_btf);
  EXPECT_FALSE(find(p, "vmx_read_guest_seg_ar", "kvm_intel").has_btf);
}

TEST_F(FuncPlanTest, StatisticsCountUniqueNames) {
  opts.entry_globs = {"*"};
  FuncPlan p = plan();
  EXPECT_TRUE(p.stats.traceable_from_tracefs);
  EXPECT_EQ(p.stats.traceable, 18u);  // 19 listed, dup_static twice
  EXPECT_EQ(p.stats.denied, 1u);      // rcu_read_lock_held, built-in deny list
  EXPECT_EQ(p.stats.matched, 17u);
  EXPECT_EQ(p.stats.skipped.size(), 2u);
  EXPECT_EQ(p.funcs.size(), 16u);  // 17 - 2 skipped + dup_static's second address
}

// --zoom's rounds read available_filter_functions once: the second plan finds the list in the
// cache, though the file is gone.
TEST_F(FuncPlanTest, ATraceableCacheIsFilledOnceThenRead) {
  TraceableCache cache;
  opts.traceable_cache = &cache;
  opts.entry_globs = {"*_sys_bpf"};
  FuncPlan first = plan();
  ASSERT_TRUE(cache.list.has_value());
  EXPECT_TRUE(cache.from_tracefs);
  opts.tracefs_dirs = {"/nonexistent/tracefs"};
  opts.allow_globs = {"map_create"};
  FuncPlan second = plan();
  EXPECT_TRUE(second.stats.traceable_from_tracefs);
  EXPECT_EQ(second.stats.traceable, first.stats.traceable);
  EXPECT_EQ(names(second), (Names{"__sys_bpf", "__x64_sys_bpf", "map_create", "map_create [kvm]"}));
}

TEST_F(FuncPlanTest, ModuleGlobNeverMatchesVmlinux) {
  opts.entry_globs = {"map_create [*]"};
  EXPECT_EQ(names(plan()), (Names{"map_create [kvm]"}));
  opts.entry_globs = {"* [kvm]"};
  EXPECT_EQ(names(plan()), (Names{"kvm_read_guest [kvm]", "map_create [kvm]"}));
  opts.entry_globs = {"* [kvm*]"};
  EXPECT_EQ(names(plan()), (Names{"kvm_read_guest [kvm]", "map_create [kvm]",
                                  "vmx_read_guest_seg_ar [kvm_intel]"}));
}

TEST_F(FuncPlanTest, TrailingStarMatchesCompilerClones) {
  opts.entry_globs = {"helper_fn*"};
  FuncPlan p = plan();
  EXPECT_EQ(names(p), (Names{"helper_fn.constprop.0", "helper_fn.isra.0"}));
  EXPECT_TRUE(find(p, "helper_fn.constprop.0").has_btf);
  EXPECT_FALSE(find(p, "helper_fn.isra.0").has_btf);
}

TEST_F(FuncPlanTest, DuplicateStaticsTracedAtEveryAddressOnlyWhenCopiesAgree) {
  opts.entry_globs = {"dup_*"};
  FuncPlan p = plan();
  ASSERT_EQ(names(p), (Names{"dup_static", "dup_static"}));
  EXPECT_EQ(p.funcs[0].addr, 0xffffffff81001800ull);
  EXPECT_EQ(p.funcs[1].addr, 0xffffffff81001900ull);
  EXPECT_EQ(skipped(p)["dup_mismatch"], "2 copies in kallsyms but 1 traceable");
}

TEST_F(FuncPlanTest, TraceableButMissingFromKallsymsIsSkipped) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {"ghost_func"};
  FuncPlan p = plan();
  EXPECT_EQ(skipped(p)["ghost_func"], "traceable but not in kallsyms");
  EXPECT_EQ(names(p), (Names{"__sys_bpf", "__x64_sys_bpf"}));
}

TEST_F(FuncPlanTest, DenyWinsOverEntryAndAllow) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {"map_*"};
  opts.deny_globs = {"__sys_bpf", "map_create [kvm]"};
  FuncPlan p = plan();
  EXPECT_EQ(names(p), (Names{"__x64_sys_bpf", "map_create"}));
  EXPECT_EQ(p.stats.denied, 2u);
}

TEST_F(FuncPlanTest, BuiltinDenyListAlwaysApplies) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {"rcu_read_lock_held"};
  EXPECT_EQ(names(plan()), (Names{"__sys_bpf", "__x64_sys_bpf"}));
}

TEST_F(FuncPlanTest, PerGlobMatchCounts) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {"map_*", "nothing*"};
  opts.deny_globs = {"map_create [kvm]"};
  FuncPlan p = plan();
  ASSERT_GE(p.glob_counts.size(), 4u);
  EXPECT_EQ(p.glob_counts[0].category, "entry");
  EXPECT_EQ(p.glob_counts[0].glob, "*_sys_bpf");
  EXPECT_EQ(p.glob_counts[0].matches, 2u);
  EXPECT_EQ(p.glob_counts[1].glob, "map_*");
  EXPECT_EQ(p.glob_counts[1].matches, 2u);
  EXPECT_EQ(p.glob_counts[2].glob, "nothing*");
  EXPECT_EQ(p.glob_counts[2].matches, 0u);
  EXPECT_EQ(p.glob_counts[3].category, "deny");
  EXPECT_EQ(p.glob_counts[3].matches, 1u);
  EXPECT_EQ(p.glob_counts.back().category, "deny (built-in)");
}

TEST_F(FuncPlanTest, TypedAllowAndDenyGlobsMatchingNothingWarn) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {"map_*", "do_filp_open"};
  opts.deny_globs = {"nothing*"};
  testing::internal::CaptureStderr();
  FuncPlan p = plan();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "warning: allow glob 'do_filp_open' matches no traceable function\n"
            "warning: deny glob 'nothing*' matches no traceable function\n"
            "hint: list this kernel's traceable functions with --dry-run -v\n");
  EXPECT_EQ(names(p), (Names{"__sys_bpf", "__x64_sys_bpf", "map_create", "map_create [kvm]"}));
}

TEST_F(FuncPlanTest, PresetAndBuiltinGlobsMatchingNothingStayQuiet) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {"map_*"};
  opts.presets = {"bpf"};
  testing::internal::CaptureStderr();
  plan();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST_F(FuncPlanTest, ManyUnmatchedGlobsAreCountedPastTheFirstFew) {
  opts.entry_globs = {"*_sys_bpf"};
  for (int i = 0; i < 8; ++i) opts.allow_globs.push_back("gone_" + std::to_string(i));
  testing::internal::CaptureStderr();
  plan();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("warning: allow glob 'gone_4' matches no traceable function\n"),
            std::string::npos);
  EXPECT_EQ(err.find("gone_5"), std::string::npos);
  EXPECT_NE(err.find("warning: 3 more globs match no traceable function\n"), std::string::npos);
}

// Plain names are looked up rather than matched one by one; the result must not differ.
TEST_F(FuncPlanTest, PlainNamesFromAFileMatchLikeGlobs) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {"@" + kFixtures + "plain_names.txt"};
  FuncPlan p = plan();
  EXPECT_EQ(names(p), (Names{"__sys_bpf", "__x64_sys_bpf", "map_create", "map_create [kvm]"}));
  std::map<std::string, size_t> allow;
  for (const GlobCount& g : p.glob_counts) {
    if (g.category == "allow") allow[g.glob] = g.matches;
  }
  EXPECT_EQ(allow, (std::map<std::string, size_t>{{"map_create", 2},
                                                  {"__sys_bpf", 1},
                                                  {"map_create [kvm]", 1},
                                                  {"helper_fn", 0}}));  // only its clones exist
}

TEST_F(FuncPlanTest, SelectionSeesPathGlobsInsideFiles) {
  opts.entry_globs = {"@" + kFixtures + "globs_path.txt"};
  EXPECT_TRUE(parse_selection(opts).has_path_globs());
  opts.entry_globs = {"*_sys_bpf"};
  EXPECT_FALSE(parse_selection(opts).has_path_globs());
}

TEST_F(FuncPlanTest, PresetsAddTheirGlobs) {
  opts.presets = {"bpf"};
  FuncPlan p = plan();
  // no_btf_func by upstream retsnoop's "*btf*".
  EXPECT_EQ(names(p),
            (Names{"__sys_bpf", "__x64_sys_bpf", "array_map_alloc", "bpf_map_alloc_percpu",
                   "map_create", "no_btf_func", "map_create [kvm]"}));
  EXPECT_EQ(p.glob_counts[0].category, "entry (-c bpf)");
}

TEST_F(FuncPlanTest, UnknownPresetIsAnError) {
  opts.presets = {"net"};
  EXPECT_EQ(error(), "Unknown case 'net', valid cases: bpf, perf");
}

TEST_F(FuncPlanTest, NoEntryGlobIsAnError) {
  opts.allow_globs = {"map_*"};
  EXPECT_EQ(error(), "no entry point globs specified: at least one -e GLOB is needed");
}

TEST_F(FuncPlanTest, CalleesNeedTheKernelsCode) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.callee_globs = {"map_create:2"};
  EXPECT_EQ(error(),
            "--callees cannot read the kernel's code: /proc/kcore is unreadable and no vmlinux of "
            "the running kernel was found");
}

TEST_F(FuncPlanTest, CalleeDepthIsCheckedBeforeTheKernelIsRead) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.callee_globs = {"map_create:0"};
  EXPECT_THROW(parse_selection(opts), UserError);
}

TEST_F(FuncPlanTest, EntryNameGlobMatchingNothingIsAnError) {
  opts.entry_globs = {"*_sys_bpf", "helper_fn"};
  EXPECT_EQ(error(), "entry glob 'helper_fn' matches no kernel function");
  opts.entry_globs = {"kvm_read_guest [kvm_intel]"};
  EXPECT_EQ(error(), "entry glob 'kvm_read_guest [kvm_intel]' matches no kernel function");
}

TEST_F(FuncPlanTest, NoEntryFunctionLeftIsAnError) {
  opts.entry_globs = {"__sys_bpf"};
  opts.allow_globs = {"map_create"};
  opts.deny_globs = {"__sys_bpf"};
  EXPECT_EQ(error(),
            "no entry function left to attach: every function the entry globs match is denied or "
            "not attachable");
}

TEST_F(FuncPlanTest, InvalidGlobIsAnError) {
  opts.entry_globs = {"foo**"};
  EXPECT_EQ(error(), "Invalid glob 'foo**': '**' is not supported, use '*'");
}

TEST_F(FuncPlanTest, PathGlobWithoutDwarfIsAnError) {
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {":kernel/bpf/*.c"};
  try {
    plan();
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "source path glob ':kernel/bpf/*.c' needs a vmlinux image with DWARF, and none was found");
    EXPECT_NE(e.hint().find("-k PATH"), std::string::npos);
  }
}

TEST_F(FuncPlanTest, PathGlobSelectsVmlinuxFunctionsOfTheCompileUnits) {
  FakeSourceIndex index;
  opts.source_index = &index;
  opts.entry_globs = {"*_sys_bpf"};
  opts.allow_globs = {":kernel/bpf/*.c"};
  FuncPlan p = plan();
  EXPECT_EQ(index.queried, (std::vector<std::string>{"kernel/bpf/*.c"}));
  // map_create [kvm] is not in vmlinux; helper_fn's clones are defined where helper_fn is.
  EXPECT_EQ(names(p), (Names{"__sys_bpf", "__x64_sys_bpf", "helper_fn.constprop.0",
                             "helper_fn.isra.0", "map_create"}));
}

TEST_F(FuncPlanTest, EntryPathGlobMatchingNothingOnlyWarns) {
  FakeSourceIndex index;
  opts.source_index = &index;
  opts.entry_globs = {"*_sys_bpf", ":fs/*.c"};
  testing::internal::CaptureStderr();
  EXPECT_EQ(plan().funcs.size(), 2u);
  EXPECT_NE(testing::internal::GetCapturedStderr().find(
                "warning: entry glob ':fs/*.c' matches no traceable function\n"),
            std::string::npos);
}

TEST_F(FuncPlanTest, FallsBackToKallsymsAndBtfWithoutTracefs) {
  opts.tracefs_dirs = {"/nonexistent/tracing"};
  opts.entry_globs = {"*"};
  FuncPlan p = plan();
  EXPECT_FALSE(p.stats.traceable_from_tracefs);
  EXPECT_EQ(p.stats.traceable, 14u);
  // Only names BTF knows (or whose source name it knows); no .cold part, no __pfx_, no module
  // without BTF. Duplicates are all taken since kallsyms is the only count.
  EXPECT_EQ(names(p),
            (Names{"__sys_bpf", "__x64_sys_bpf", "__x64_sys_nanosleep", "array_map_alloc",
                   "bpf_map_alloc_percpu", "bpf_map_lookup_elem", "dup_mismatch", "dup_mismatch",
                   "dup_static", "dup_static", "helper_fn.constprop.0", "helper_fn.isra.0",
                   "map_create", "weak_func", "kvm_read_guest [kvm]"}));
}

// A table read only through vmlinux text (Kallsyms::load_text()) is completed when a module
// function matches, and left as is otherwise.
TEST_F(FuncPlanTest, ReadsTheRestOfKallsymsOnlyForModuleFunctions) {
  ksyms = Kallsyms::load_text(kFixtures + "kallsyms.txt");
  opts.entry_globs = {"*_sys_bpf"};
  EXPECT_EQ(names(plan()), (Names{"__sys_bpf", "__x64_sys_bpf"}));
  EXPECT_FALSE(ksyms.complete());
  opts.allow_globs = {"map_create"};
  FuncPlan p = plan();
  EXPECT_TRUE(ksyms.complete());
  EXPECT_EQ(find(p, "map_create", "kvm").addr, 0xffffffffc0001200ull);
}

TEST_F(FuncPlanTest, FallbackReadsAllOfKallsyms) {
  ksyms = Kallsyms::load_text(kFixtures + "kallsyms.txt");
  opts.tracefs_dirs = {"/nonexistent/tracing"};
  opts.entry_globs = {"*"};
  EXPECT_EQ(find(plan(), "kvm_read_guest", "kvm").addr, 0xffffffffc0001000ull);
}

TEST_F(FuncPlanTest, FallbackNeedsBtf) {
  opts.tracefs_dirs = {"/nonexistent/tracing"};
  opts.btf_dir = "/nonexistent/btf";
  opts.entry_globs = {"*"};
  EXPECT_EQ(error(),
            "cannot tell which kernel functions are traceable: available_filter_functions is "
            "unreadable and there is no BTF in /nonexistent/btf");
}

TEST_F(FuncPlanTest, FentryNeedsBtfIds) {
  opts.fentry = true;
  opts.entry_globs = {"*"};
  FuncPlan p = plan();
  auto skip = skipped(p);
  EXPECT_EQ(skip["no_btf_func"], "no BTF id, which fentry attach needs");
  EXPECT_EQ(skip["helper_fn.constprop.0"], "no BTF id, which fentry attach needs");
  EXPECT_EQ(skip["vmx_read_guest_seg_ar"], "no BTF id, which fentry attach needs");
  for (const FuncInfo& f : p.funcs) EXPECT_NE(f.btf_id, 0u) << f.name;
  EXPECT_NO_THROW(find(p, "__x64_sys_nanosleep"));
}

}  // namespace
}  // namespace retsnoop
