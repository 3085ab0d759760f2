#include "discovery/func_plan.h"

#include <algorithm>
#include <memory>
#include <span>

#include "discovery/callee_spec.h"
#include "discovery/candidates.h"
#include "discovery/case_presets.h"
#include "discovery/deny_list.h"
#include "discovery/kernel_btf.h"
#include "discovery/symbol_name.h"
#include "discovery/traced_func_args.h"
#include "util/error.h"
#include "util/hash_index.h"
#include "util/log.h"
#include "util/phase_timer.h"

namespace retsnoop {

namespace {

struct Match {
  const Candidate* cand;
  bool entry;
};

void add_typed(GlobSet& set, std::vector<GlobSpec>& user, const std::vector<std::string>& typed,
               bool must_match) {
  std::vector<GlobSpec> globs = parse_glob_args(typed);
  set.reserve(globs.size());
  for (GlobSpec& g : globs) {
    if (g.kind == GlobKind::User)
      user.push_back(std::move(g));
    else
      set.add(std::move(g), "", must_match);
  }
}

// Globs of a preset or of the built-in deny list: never user errors, never required to match.
void add_fixed(GlobSet& set, std::span<const std::string_view> globs, std::string_view origin) {
  for (std::string_view g : globs) set.add(parse_glob(g), origin, false);
}

TraceableList load_traceable(const PlanOptions& o, Kallsyms& ksyms, KernelBtf& btf,
                             PlanStats& stats) {
  if (auto list = read_traceable_functions(o.tracefs_dirs)) {
    stats.traceable_from_tracefs = true;
    return std::move(*list);
  }
  logf(LOG_INFO,
       "available_filter_functions unreadable: falling back to kallsyms and BTF; attach may fail "
       "for untraceable functions\n");
  if (!btf.has_vmlinux()) {
    std::string why =
        "available_filter_functions is unreadable and there is no BTF in " + o.btf_dir;
    throw UserError(
        "cannot tell which kernel functions are traceable: " + why,
        "run as root with tracefs mounted (mount -t tracefs nodev /sys/kernel/tracing)");
  }
  ksyms.load_rest();  // module functions too, and no change to the table after this
  return {nullptr, traceable_from_kallsyms(ksyms, btf)};
}

// The list a cache holds, else read (into own, or into the cache for the next round).
const TraceableList& traceable_list(const PlanOptions& o, Kallsyms& ksyms, KernelBtf& btf,
                                    PlanStats& stats, TraceableList& own) {
  TraceableCache* cache = o.traceable_cache;
  if (cache && cache->list) {
    stats.traceable_from_tracefs = cache->from_tracefs;
    return *cache->list;
  }
  own = load_traceable(o, ksyms, btf, stats);
  if (!cache) return own;
  cache->list = std::move(own);
  cache->from_tracefs = stats.traceable_from_tracefs;
  return *cache->list;
}

// What matching found, per candidate as well: callee discovery selects more of them.
struct Matching {
  std::vector<Match> matches;
  std::vector<bool> selected;         // in matches
  std::vector<uint8_t> denied;        // removed by a deny glob
  std::vector<uint8_t> callee_depth;  // deepest --callees glob matching it, 0 for none
};

// Tries every callee set (counts stay exact) and returns the deepest that selects the function.
uint8_t callee_depth(std::vector<GlobSet>& callees, const Candidate& c) {
  uint8_t depth = 0;
  for (size_t d = 0; d < callees.size(); ++d) {
    if (callees[d].match(c.module, c.name)) depth = uint8_t(d + 1);
  }
  return depth;
}

Matching match_candidates(const std::vector<Candidate>& cands, GlobSelection& s, PlanStats& stats) {
  Matching m{{},
             std::vector<bool>(cands.size()),
             std::vector<uint8_t>(cands.size()),
             std::vector<uint8_t>(cands.size())};
  for (size_t i = 0; i < cands.size(); ++i) {
    const Candidate& c = cands[i];
    // Every set is tried for every function so that per-glob counts are complete.
    m.denied[i] = s.deny.match(c.module, c.name);
    bool entry = s.entry.match(c.module, c.name);
    bool allowed = s.allow.match(c.module, c.name);
    uint8_t depth = callee_depth(s.callees, c);
    if (!entry && !allowed && depth == 0) continue;
    if (m.denied[i]) {
      ++stats.denied;
      continue;
    }
    ++stats.matched;
    m.selected[i] = true;
    m.callee_depth[i] = depth;
    m.matches.push_back({&c, entry});
  }
  return m;
}

// FuncPlan::funcs follows (module, name); the candidate list did not.
void sort_matches(std::vector<Match>& matches) {
  std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
    return std::pair(a.cand->module, a.cand->name) < std::pair(b.cand->module, b.cand->name);
  });
}

// The indirect call sites of the functions the walk read, and the targets they may name.
void add_indirect_sites(const std::vector<Candidate>& cands, const Matching& m,
                        const PlanOptions& o, const CalleeFinder& finder, FuncPlan& plan) {
  IndirectSitePlan& ind = plan.indirect;
  ind = find_indirect_sites(plan.callees.walked, finder, o.max_sites);
  logf(LOG_INFO, "--callees: %zu indirect call sites, %zu more through operands not probed\n",
       ind.sites.size() + ind.left_out, ind.unsupported);
  if (ind.left_out > 0)
    logf(LOG_WARN, "--callees: %zu indirect call sites left out past callees.max-sites=%zu\n",
         ind.left_out, o.max_sites);
  if (ind.sites.empty()) return;
  for (size_t i = 0; i < cands.size(); ++i) {
    if (!m.denied[i]) ind.eligible.insert(qualified_name(cands[i].module, cands[i].name));
  }
}

// Adds the callees of the --callees functions to m as non-entry functions.
void add_callees(const std::vector<Candidate>& cands, Matching& m, const PlanOptions& o,
                 Kallsyms& ksyms, FuncPlan& plan) {
  if (!o.kernel_text)
    throw UserError(
        "--callees cannot read the kernel's code: /proc/kcore is unreadable and no "
        "vmlinux of the running kernel was found",
        "run as root without kernel lockdown, or name the vmlinux with -k");
  ksyms.load_rest();  // callees may be module functions; no change to the table after this
  CalleeFinder finder(ksyms, *o.kernel_text, host_code_arch());
  CalleeWalk walk{cands, m.callee_depth, m.denied, o.max_callees};
  plan.callees.source = o.kernel_text->source();
  std::vector<size_t> added = expand_callees(walk, ksyms, finder, m.selected, plan.callees);
  for (size_t i : added) m.matches.push_back({&cands[i], false});
  plan.stats.matched += added.size();
  if (plan.callees.left_out > 0)
    logf(LOG_WARN, "--callees: %zu more callees left out past callees.max-functions=%zu\n",
         plan.callees.left_out, o.max_callees);
  add_indirect_sites(cands, m, o, finder, plan);
  if (!plan.callees.unreadable.empty())
    logf(LOG_WARN, "--callees: the text of %zu functions could not be read from %s (first: %s)\n",
         plan.callees.unreadable.size(), plan.callees.source.c_str(),
         plan.callees.unreadable[0].c_str());
}

void add_callee_globs(GlobSelection& s, const std::vector<std::string>& typed) {
  for (const std::string& text : typed) {
    CalleeSpec spec = parse_callee_spec(text);
    while (s.callees.size() < spec.depth) {
      size_t depth = s.callees.size() + 1;
      s.callees.emplace_back(depth == 1 ? "callees" : "callees:" + std::to_string(depth));
    }
    std::vector<GlobSpec> user;
    add_typed(s.callees[spec.depth - 1], user, {spec.glob}, false);
    if (!user.empty())
      throw UserError("--callees '" + text +
                      "': callees are read from the kernel's code, not from a user-space binary");
  }
}

void check_entry_globs(const GlobSet& entry) {
  for (const GlobCount& g : entry.counts()) {
    if (g.must_match && g.matches == 0)
      throw UserError("entry glob '" + g.glob + "' matches no kernel function",
                      "list traceable functions with --dry-run -v, and add '*' for renamed "
                      "clones like foo.isra.0");
  }
}

// A typed glob that selects nothing traces nothing: most often a function that this kernel
// renamed, inlined everywhere or made untraceable. An -e name glob is an error instead
// (check_entry_globs); the rest only warn, since a list written for several kernels is normal.
// An @FILE can hold thousands of names: past a few, one line counts the rest.
void warn_unmatched_globs(const std::vector<GlobCount>& counts) {
  constexpr size_t kNamed = 5;
  size_t unmatched = 0;
  for (const GlobCount& g : counts) {
    if (!g.typed || g.must_match || g.matches > 0) continue;
    if (++unmatched <= kNamed)
      logf(LOG_WARN, "%s glob '%s' matches no traceable function\n", g.category.c_str(),
           g.glob.c_str());
  }
  if (unmatched > kNamed)
    logf(LOG_WARN, "%zu more globs match no traceable function\n", unmatched - kNamed);
  if (unmatched > 0) logf(LOG_HINT, "list this kernel's traceable functions with --dry-run -v\n");
}

// The kallsyms addresses of each match, in address order. One pass over the symbols with the
// matches indexed: the ~100k kallsyms names are many more than a run looks up.
std::vector<std::vector<uint64_t>> kallsyms_addrs(Kallsyms& ksyms,
                                                  const std::vector<Match>& matches) {
  bool modules = std::any_of(matches.begin(), matches.end(),
                             [](const Match& m) { return !m.cand->module.empty(); });
  if (modules) ksyms.load_rest();
  HashIndex by_name(matches.size());
  for (uint32_t i = 0; i < matches.size(); ++i) by_name.insert(hash_name(matches[i].cand->name), i);
  std::vector<std::vector<uint64_t>> addrs(matches.size());
  for (const KSym& s : ksyms.symbols()) {
    by_name.find(hash_name(s.name()), [&](uint32_t i) {
      const Candidate& c = *matches[i].cand;
      if (c.name != s.name() || c.module != s.module()) return false;
      addrs[i].push_back(s.addr);
      return true;
    });
  }
  return addrs;
}

void skip(FuncPlan& plan, const Candidate& c, std::string reason) {
  logf(LOG_INFO, "skipping %s: %s\n", qualified_name(c.module, c.name).c_str(), reason.c_str());
  plan.stats.skipped.push_back({std::string(c.module), std::string(c.name), std::move(reason)});
}

void add_traced_function(const Match& m, const std::vector<uint64_t>& addrs, KernelBtf& btf,
                         bool fentry, FuncPlan& plan) {
  const Candidate& c = *m.cand;
  if (addrs.empty()) return skip(plan, c, "traceable but not in kallsyms");
  // Copies are static functions from different files; without a one-to-one correspondence we
  // can't tell which kallsyms address is the traceable one.
  if (addrs.size() != c.copies)
    return skip(plan, c,
                std::to_string(addrs.size()) + " copies in kallsyms but " +
                    std::to_string(c.copies) + " traceable");
  FuncType type = btf.func_type(c.module, c.name);
  if (fentry && type.btf_id == 0) return skip(plan, c, "no BTF id, which fentry attach needs");
  for (uint64_t addr : addrs) {
    plan.funcs.push_back({std::string(c.name), std::string(c.module), addr, type.ret, type.has_btf,
                          m.entry, type.btf_id, type.nargs});
  }
}

void check_entries_left(const FuncTable& funcs) {
  for (const FuncInfo& f : funcs) {
    if (f.is_entry) return;
  }
  throw UserError(
      "no entry function left to attach: every function the entry globs match is "
      "denied or not attachable",
      "see which with --dry-run -v");
}

std::vector<GlobSet*> all_sets(GlobSelection& s) {
  std::vector<GlobSet*> sets = {&s.entry, &s.allow, &s.deny};
  for (GlobSet& c : s.callees) sets.push_back(&c);
  return sets;
}

// A user function's arguments are typed by its DWARF prototype, else its raw register slots. A
// compiler's clone (a "." in its name) may take other registers than its prototype says.
std::vector<FuncArgs> plan_user_args(const FuncTable& funcs, UserDebugInfo* debug) {
  std::vector<FuncArgs> out(funcs.size());
  for (size_t i = 0; i < funcs.size(); ++i) {
    const FuncInfo& f = funcs[i];
    if (!f.is_user()) continue;
    std::optional<FuncArgs> typed;
    if (debug && f.name.find('.') == std::string::npos)
      typed = debug->func_args(f.binary, f.file_offset);
    out[i] = typed ? std::move(*typed) : raw_func_args("no DWARF prototype");
  }
  return out;
}

}  // namespace

bool GlobSelection::has_path_globs() const {
  return entry.has_path_globs() || allow.has_path_globs() || deny.has_path_globs() ||
         std::any_of(callees.begin(), callees.end(),
                     [](const GlobSet& c) { return c.has_path_globs(); });
}

GlobSelection parse_selection(const PlanOptions& o) {
  GlobSelection s;
  add_typed(s.entry, s.user.entry, o.entry_globs, true);
  add_typed(s.allow, s.user.allow, o.allow_globs, false);
  add_typed(s.deny, s.user.deny, o.deny_globs, false);
  add_callee_globs(s, o.callee_globs);
  for (const std::string& name : o.presets) {
    const CasePreset& p = find_case_preset(name);
    std::string origin = "-c " + name;
    add_fixed(s.entry, p.entry, origin);
    add_fixed(s.allow, p.allow, origin);
    add_fixed(s.deny, p.deny, origin);
  }
  if (s.entry.empty() && s.user.entry.empty())
    throw UserError("no entry point globs specified: at least one -e GLOB is needed",
                    "e.g. -e '*_sys_bpf', or a ready-made case with -c bpf");
  return s;
}

FuncPlan plan_functions(const PlanOptions& opts, Kallsyms& ksyms) {
  return plan_functions(parse_selection(opts), opts, ksyms);
}

FuncPlan plan_functions(GlobSelection sel, const PlanOptions& opts, Kallsyms& ksyms) {
  // Here rather than in parse_selection(): it depends on the attach mode and kernel features.
  add_fixed(sel.deny, builtin_deny_globs(), "built-in");
  for (GlobSet* set : all_sets(sel)) set->resolve_paths(opts.source_index);
  // First: a user binary that is no ELF file fails before the kernel's lists are read.
  FuncTable user_funcs =
      timed("user functions", [&] { return plan_user_functions(sel.user, opts.user); });
  FuncPlan plan;
  std::shared_ptr<KernelBtf> btf_owner =
      opts.btf ? opts.btf : std::make_shared<KernelBtf>(opts.btf_dir);
  KernelBtf& btf = *btf_owner;
  TraceableList own;
  const TraceableList& traceable = timed("traceable functions", [&]() -> const TraceableList& {
    return traceable_list(opts, ksyms, btf, plan.stats, own);
  });
  Matching matching;
  std::vector<Candidate> cands;
  timed("matching", [&] {
    cands = group_traceable(traceable.funcs);
    plan.stats.traceable = cands.size();
    matching = match_candidates(cands, sel, plan.stats);
  });
  check_entry_globs(sel.entry);
  if (!sel.callees.empty())
    timed("callees", [&] { add_callees(cands, matching, opts, ksyms, plan); });
  std::vector<Match>& matches = matching.matches;
  sort_matches(matches);
  timed("addresses and types", [&] {
    std::vector<std::vector<uint64_t>> addrs = kallsyms_addrs(ksyms, matches);
    plan.funcs.reserve(matches.size());
    for (size_t i = 0; i < matches.size(); ++i)
      add_traced_function(matches[i], addrs[i], btf, opts.fentry, plan);
  });
  if (opts.capture_args)
    plan.args = timed("argument plans",
                      [&] { return TracedFuncArgs(btf, opts.tracefs_dirs).all(plan.funcs); });
  plan.funcs.insert(plan.funcs.end(), std::make_move_iterator(user_funcs.begin()),
                    std::make_move_iterator(user_funcs.end()));
  check_entries_left(plan.funcs);
  if (opts.capture_args || opts.keep_btf)
    plan.user_args = plan_user_args(plan.funcs, opts.user.debug_info);
  if (opts.capture_args) {
    plan.args.resize(plan.funcs.size());
    for (size_t i = 0; i < plan.funcs.size(); ++i)
      if (plan.funcs[i].is_user()) plan.args[i] = plan.user_args[i];
  }
  if (opts.capture_args || opts.keep_btf) plan.btf = std::move(btf_owner);
  for (const GlobSet* set : all_sets(sel)) {
    std::vector<GlobCount> counts = set->counts();
    plan.glob_counts.insert(plan.glob_counts.end(), counts.begin(), counts.end());
  }
  warn_unmatched_globs(plan.glob_counts);
  return plan;
}

}  // namespace retsnoop
