// --zoom: round after round, each round tracing one level further down the failing chain the
// round before found, until the function where the failure starts. In command mode each round
// reruns the command; in live mode (no command) each round traces the whole system until the
// failure it waits for comes (again).
#pragma once

#include <functional>

#include "app/command.h"
#include "app/trace_loop.h"
#include "cli/options.h"
#include "discovery/zoom_planner.h"
#include "output/output_sink.h"

namespace retsnoop {

// One round: discovery for the options, then tracing cmd (nullptr in live mode) until it exits,
// watch is done or a stop signal comes, printing to out and telling watch what it saw. Returns
// the exit status.
using RoundRunner = std::function<int(const Options&, Command*, OutputSink&, RoundWatch&)>;

// The options of the first round: without -e (or -c), every system call is an entry function.
Options first_zoom_round(const Options& user);

// Runs the rounds, with a copy of command (Command::again()) each, or in live mode (command
// nullptr) each until the failure it waits for (RoundGoal): progress lines on stderr, the last
// round's output on standard output, then the line naming the origin of the failure. With
// trace_lines (the kernel can trace lines), each round after the first also traces the lines of
// the deepest failing function when DWARF located it, so that the last one shows which line of
// the origin failed. Returns the exit status of the last round: the command's in command mode,
// a live run's otherwise.
int zoom(const Options& opts, const ZoomOptions& zoom, const Command* command,
         const RoundRunner& run_round, bool trace_lines);

}  // namespace retsnoop
