#include "app/run.h"

#include <cstdio>
#include <memory>

#include "app/features.h"
#include "app/privileges.h"
#include "app/rlimits.h"
#include "app/stop_signal.h"
#include "app/trace_loop.h"
#include "discovery/cu_globs.h"
#include "discovery/func_plan.h"
#include "discovery/kallsyms.h"
#include "discovery/plan_report.h"
#include "discovery/vmlinux.h"
#include "symbolize/dwarf_symbolizer.h"
#include "symbolize/ksym_symbolizer.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

int print_version(const Options& opts) {
  std::printf("retsnoop v%s\n", RETSNOOP_VERSION);
  if (opts.verbosity > 0) {
    check_privileges();
    std::fputs(Features::detect().report().c_str(), stdout);
  }
  return 0;
}

bool has_path_glob(const std::vector<std::string>& globs) {
  for (const auto& g : globs)
    if (!g.empty() && g[0] == ':') return true;
  return false;
}

// DWARF is mandatory only when asked for: -s/-ss given explicitly or a ':path' glob.
bool dwarf_required(const Options& o) {
  bool explicit_lines = o.symbolize == SymbolizeLevel::Lines || o.symbolize == SymbolizeLevel::Inlines;
  return explicit_lines || has_path_glob(o.entry_globs) || has_path_glob(o.allow_globs) ||
         has_path_glob(o.deny_globs);
}

SymbLevel symb_level(const Options& o, bool have_dwarf) {
  switch (o.symbolize) {
    case SymbolizeLevel::None:
      return SymbLevel::None;
    case SymbolizeLevel::Lines:
      return SymbLevel::Lines;
    case SymbolizeLevel::Inlines:
      return SymbLevel::Inlines;
    case SymbolizeLevel::Default:
      break;
  }
  return have_dwarf ? SymbLevel::Inlines : SymbLevel::None;
}

AttachKind choose_attach_kind(AttachMode mode, const Features& f) {
  switch (mode) {
    case AttachMode::Fentry:
      throw UserError("fentry/fexit attach (-F) is not supported yet", "use -K or -M");
    case AttachMode::Kprobe:
      return AttachKind::Kprobe;
    case AttachMode::MultiKprobe:
      if (!f.has(Feature::MultiKprobe))
        logf(LOG_INFO, "multi-kprobe is not supported by this kernel, falling back to single kprobes\n");
      break;
    case AttachMode::Default:
      break;
  }
  return f.has(Feature::MultiKprobe) ? AttachKind::MultiKprobe : AttachKind::Kprobe;
}

void check_kernel_support(const Features& f) {
  if (!f.has(Feature::Ringbuf))
    throw UserError("this kernel has no BPF ring buffer (needs Linux 5.8+)");
  if (!f.has(Feature::BpfCookie))
    throw UserError("this kernel has no BPF cookies (needs Linux 5.15+)");
}

std::unique_ptr<Symbolizer> make_symbolizer(const Kallsyms& ksyms,
                                            const std::optional<LoadedVmlinux>& vmlinux,
                                            SymbLevel level) {
  if (!vmlinux || level == SymbLevel::None) return std::make_unique<KsymSymbolizer>(ksyms);
  auto detail = level == SymbLevel::Inlines ? SourceDetail::Inlines : SourceDetail::Lines;
  return std::make_unique<DwarfSymbolizer>(ksyms, *vmlinux, detail);
}

PlanOptions plan_options(const Options& o, SourcePathIndex* index) {
  PlanOptions p;
  p.entry_globs = o.entry_globs;
  p.allow_globs = o.allow_globs;
  p.deny_globs = o.deny_globs;
  p.presets = o.presets;
  p.source_index = index;
  return p;
}

}  // namespace

int run(const Options& opts) {
  set_log_verbosity(opts.verbosity);
  if (opts.show_version) return print_version(opts);
  if (opts.json) throw UserError("--json is not supported yet");
  check_privileges();
  raise_rlimits();

  Features features = Features::detect();
  check_kernel_support(features);
  Kallsyms ksyms = Kallsyms::load();
  bool need_dwarf = dwarf_required(opts);
  bool want_dwarf = need_dwarf || opts.symbolize != SymbolizeLevel::None;
  std::optional<LoadedVmlinux> vmlinux;
  if (want_dwarf) vmlinux = load_vmlinux({opts.kernel_path, need_dwarf}, ksyms);
  std::unique_ptr<CuGlobIndex> cu_index;
  if (vmlinux) cu_index = std::make_unique<CuGlobIndex>(vmlinux->image, default_cu_cache_dir());

  FuncPlan plan = plan_functions(plan_options(opts, cu_index.get()), ksyms);
  std::string vmlinux_path = vmlinux ? vmlinux->image->path() : "";
  if (opts.dry_run) {
    if (opts.verbosity > 0) std::fputs(render_plan(plan, vmlinux_path, opts.verbosity).c_str(), stdout);
    return 0;
  }
  if (opts.verbosity > 0) std::fputs(render_plan(plan, vmlinux_path, opts.verbosity).c_str(), stderr);

  SymbLevel level = symb_level(opts, vmlinux.has_value());
  auto symbolizer = make_symbolizer(ksyms, vmlinux, level);
  StopSignal stop;
  return trace_loop({opts, plan.funcs, *symbolizer, level, choose_attach_kind(opts.attach_mode, features)},
                    stop);
}

}  // namespace retsnoop
