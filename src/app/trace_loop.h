// Load, attach, receive and print until stopped, then detach: the live part of a run.
#pragma once

#include <atomic>
#include <functional>
#include <optional>

#include "app/layer_configs.h"
#include "app/stop_signal.h"
#include "attach/cgroup_dirs.h"
#include "attach/run_registry.h"
#include "attach/tracer_object.h"
#include "discovery/callee_expansion.h"
#include "discovery/func_args.h"
#include "discovery/func_info.h"
#include "discovery/indirect_sites.h"
#include "discovery/line_plan.h"
#include "discovery/probe_spec.h"
#include "events/session.h"
#include "format/format_options.h"
#include "output/output_sink.h"

namespace retsnoop {

class Command;
class Features;
class Kallsyms;
class Symbolizer;

// --zoom: what a round learns besides its output.
struct RoundWatch {
  // Each session reported, on the printer thread, with the functions its ids index and the
  // symbolizer of the output.
  std::function<void(const Session&, const FuncTable&, Symbolizer&)> on_session;
  // Set by on_session to end the round (live mode): the sessions already in the ring buffer are
  // still printed, as at the end of a command. Read by the receiving thread.
  std::atomic<bool> done = false;
  // Called once everything is attached, as receiving starts; may be empty.
  std::function<void()> on_receiving;
  size_t funcs = 0;      // functions traced
  double attach_s = 0;   // how long attaching took
  bool stopped = false;  // a stop signal ended the round, or interrupted its command
  // Where the indirect call sites of the walked functions were seen to go (--callees).
  std::vector<CalleeEdge> indirect_edges;
};

struct TraceLoopInputs {
  const LayerConfigs& cfg;
  const FuncTable& funcs;
  const std::vector<FuncArgs>& arg_plans;        // -A: indexed like funcs; empty without -A
  const ProbeTable& probes;                      // -J
  const std::vector<FuncArgs>& probe_arg_plans;  // -A: indexed like probes; empty without -A
  Symbolizer& symbolizer;
  Kallsyms& ksyms;  // the symbolizer's; read to its end once attached, [bpf] symbols re-read
                    // after an fentry attach
  const Features& features;
  const std::optional<RunStateDir>& state_dir;
  RunLock& run;                // names this run's kernel state; kept when some of it stays
  Command* command = nullptr;  // command mode: started once attached, traced alone
  const std::vector<rs_arg_filter>* arg_filters = nullptr;  // --arg-filter, indexed like funcs
  const CgroupDirs* cgroups = nullptr;                      // --cgroup, --no-cgroup
  const std::vector<LineProbe>* line_probes = nullptr;      // --line-trace, by line id
  const IndirectSitePlan* indirect = nullptr;               // --callees: the sites to probe
  RoundWatch* watch = nullptr;                              // --zoom
};

// Returns the exit status (app/exit_status.h). Whatever happens, nothing stays attached when it
// returns or throws.
int trace_loop(const TraceLoopInputs& in, StopSignal& stop, OutputSink& out);

}  // namespace retsnoop
