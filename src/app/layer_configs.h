// Parsed options become each layer's configuration here and nowhere else: the trace loop and
// the layers read their own structs, never Options, so an option reaches the stage that acts on
// it through one line of layer_configs.cpp (docs/ARCHITECTURE.md, "A new option"). The unit test
// of this file sets every option of the tables and checks what it reaches.
#pragma once

#include "attach/tracer_object.h"
#include "cli/options.h"
#include "discovery/func_plan.h"
#include "discovery/zoom_planner.h"
#include "filter/session_filter.h"
#include "format/arg_render.h"
#include "format/format_options.h"
#include "kernel/attach_mode.h"
#include "output/session_report.h"
#include "symbolize/symb_level.h"

namespace retsnoop {

// What the run learned before tracing that changes what some options mean.
struct RunFacts {
  AttachKind kind = AttachKind::Kprobe;
  SymbLevel symb = SymbLevel::None;  // what the symbolizer can do with the vmlinux found
  bool lbr = false;  // a branch recorder is open: asked for, and this machine records branches
  UprobeMode uprobes = UprobeMode::None;  // how user-space functions attach, if any are selected
  // attach.kprobe-events=auto: whether tracefs kprobe events pay off on this kernel
  // (kprobe_events_pay_off() in kernel/attach_choice.h).
  bool kprobe_events_pay = true;
};

// What the trace loop does itself, beside configuring the layers.
struct LoopOptions {
  bool capture_args = false;         // -A: the printer renders captured arguments
  bool user_stacks = false;          // -U: the process recorder and the user symbolizer run
  bool count_repeats = false;        // stacks.repeats=count: the repeats collector runs
  bool expedite_rcu = false;         // attach.expedite-rcu, where the mechanism gains from it
  bool debug_multi_kprobe = false;   // --debug multi-kprobe
  bool messages = true;              // messages.enabled: the kernel messages' programs load
  uint32_t messages_max_count = 16;  // messages.max-count
};

struct LayerConfigs {
  // Tracer: what the options ask of the BPF object; the trace loop adds what this kernel and
  // this run's plans add (features, argument plans, injected probes, filters, cgroups).
  TracerConfig tracer;
  FormatOptions format;
  ArgRenderOptions args;  // the trace loop adds the namer of function addresses
  ReportOptions report;
  SessionFilter filter;
  LoopOptions loop;
};

// The function selection's part, which needs no facts: globs are checked before anything else.
PlanOptions plan_options(const Options& o);

// --zoom's part, read before the first round.
ZoomOptions zoom_options(const Options& o);

LayerConfigs layer_configs(const Options& o, const RunFacts& facts);

}  // namespace retsnoop
