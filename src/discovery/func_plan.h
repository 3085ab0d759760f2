// Function discovery: which kernel functions to attach to, at which addresses, and how their
// results are judged.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "discovery/callee_expansion.h"
#include "discovery/func_args.h"
#include "discovery/func_info.h"
#include "discovery/glob_set.h"
#include "discovery/indirect_sites.h"
#include "discovery/kallsyms.h"
#include "discovery/source_path_index.h"
#include "discovery/traceable.h"
#include "discovery/user_plan.h"

namespace retsnoop {

class KernelBtf;

struct PlanOptions {
  // As typed with -e/-a/-d: "name", "name [mod]", ":path", "@file".
  std::vector<std::string> entry_globs;
  std::vector<std::string> allow_globs;
  std::vector<std::string> deny_globs;
  std::vector<std::string> presets;       // -c NAME
  std::vector<std::string> callee_globs;  // --callees GLOB[:DEPTH], as typed
  size_t max_callees = 1000;              // functions --callees may add
  size_t max_sites = 512;                 // indirect call sites --callees may probe
  bool fentry = false;                    // attach with fentry/fexit: needs each function's BTF id
  bool capture_args = false;              // -A: plan each function's arguments from its BTF
  bool keep_btf = false;                  // keep the BTF in the plan (--arg-filter reads it)
  std::vector<std::string> tracefs_dirs = kDefaultTracefsDirs;
  std::string btf_dir = "/sys/kernel/btf";
  std::shared_ptr<KernelBtf> btf;             // already open on btf_dir; null: planning opens it
  SourcePathIndex* source_index = nullptr;    // null when no vmlinux with DWARF was found
  const KernelText* kernel_text = nullptr;    // what --callees decodes; null without it
  UserPlanOptions user;                       // "BINARY:GLOB" functions
  TraceableCache* traceable_cache = nullptr;  // --zoom: filled by its first round, then read
};

struct SkippedFunc {
  std::string module;
  std::string name;
  std::string reason;
};

struct PlanStats {
  bool traceable_from_tracefs = false;  // else guessed from kallsyms and BTF
  size_t traceable = 0;              // unique (module, name) pairs the globs were matched against
  size_t matched = 0;                // selected by entry/allow globs and not denied
  size_t denied = 0;                 // selected, then removed by a deny glob
  std::vector<SkippedFunc> skipped;  // matched but not attachable
};

struct FuncPlan {
  // Kernel functions sorted by (module, name, address), then user-space ones (user_plan.h);
  // index = function id.
  FuncTable funcs;
  std::vector<FuncArgs> args;  // -A: indexed like funcs; empty without -A
  // -A, keep_btf: the user-space functions' plans, indexed like funcs (empty for kernel ones):
  // -A prints them, --arg-filter types its expressions against them.
  std::vector<FuncArgs> user_args;
  std::shared_ptr<KernelBtf> btf;  // -A, keep_btf: the BTF that args' type ids point into
  PlanStats stats;
  std::vector<GlobCount> glob_counts;  // entry, allow, deny, callee globs in that order
  CalleeReport callees;                // --callees: what was found and how
  IndirectSitePlan indirect;           // --callees: the indirect call sites of what it walked
};

// The -e/-a/-d globs with those of the presets, parsed and checked.
struct GlobSelection {
  GlobSet entry{"entry"};
  GlobSet allow{"allow"};
  GlobSet deny{"deny"};
  // --callees globs by depth: callees[d - 1] holds those of depth d. Empty without --callees.
  std::vector<GlobSet> callees;
  UserGlobs user;  // "BINARY:GLOB": matched against ELF symbols, not the kernel's

  // Whether a ':path' glob (typed or from an @FILE) needs a vmlinux with DWARF.
  bool has_path_globs() const;
};

// Reads only opts' globs, presets and @FILEs, never the kernel, so that bad input fails before
// anything else: throws UserError for an invalid glob or --callees depth, an unreadable @FILE, an
// unknown preset or no entry glob.
GlobSelection parse_selection(const PlanOptions& opts);

// Adds the built-in deny list for opts' attach mode to sel. Throws UserError for an entry name
// glob matching nothing, a path glob without opts.source_index, or when no entry function is left
// to attach. Reads the rest of a ksyms from Kallsyms::load_text() when a module function matches,
// the traceable functions must be guessed from kallsyms or --callees walks callees. --callees
// needs opts.kernel_text.
FuncPlan plan_functions(GlobSelection sel, const PlanOptions& opts, Kallsyms& ksyms);
// parse_selection(), then the above.
FuncPlan plan_functions(const PlanOptions& opts, Kallsyms& ksyms);

}  // namespace retsnoop
