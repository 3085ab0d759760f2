#include "app/zoom.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/exit_status.h"
#include "app/stop_signal.h"
#include "app/zoom_failures.h"
#include "symbolize/symbolizer.h"
#include "util/error.h"
#include "util/log.h"
#include "util/owned_fd.h"
#include "util/text_escape.h"

namespace retsnoop {

namespace {

// Every system call's entry function on this architecture.
#if defined(__aarch64__)
constexpr const char* kSyscallEntries = "__arm64_sys_*";
#else
constexpr const char* kSyscallEntries = "__x64_sys_*";
#endif

OwnedFd memory_file() {
  int fd = memfd_create("retsnoop-zoom-round", MFD_CLOEXEC);
  if (fd < 0)
    throw UserError(std::string("--zoom cannot keep a round's output: memfd_create: ") +
                    std::strerror(errno));
  return OwnedFd(fd);
}

// A round's standard output, kept aside: only the last round's is printed.
class RoundOutput {
 public:
  RoundOutput() : file_(memory_file()), sink_(file_.get()) {}
  OutputSink& sink() { return sink_; }

  // Copies what the round printed to out.
  void print(OutputSink& out) const {
    char buf[1 << 16];
    off_t at = 0;
    for (;;) {
      ssize_t n = pread(file_.get(), buf, sizeof(buf), at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || !out.write(std::string_view(buf, size_t(n)))) return;
      at += n;
    }
  }

 private:
  OwnedFd file_;
  OutputSink sink_;
};

struct Round {
  unsigned number = 0;
  int status = 0;
  size_t funcs = 0;
  double attach_s = 0;
  bool stopped = false;
  std::vector<CalleeEdge> indirect_edges;  // seen at the walked functions' indirect call sites
  FailureLog failures;
  std::unique_ptr<RoundOutput> output;
};

std::string start_of(Symbolizer& symbolizer, uint64_t addr) {
  SourceLoc loc = symbolizer.symbolize(addr, false).loc;
  return loc.known() ? loc.file + ":" + std::to_string(loc.line) : "";
}

// The difference between the modes: a round of command mode ends when its command exits, one of
// live mode (no command) at the first failure that meets goal, what it says it waits for. What
// comes after that failure is no part of the round.
Round run_round(unsigned number, const Options& opts, const Command* command,
                const RoundRunner& runner, const RoundGoal& goal) {
  Round r{.number = number, .output = std::make_unique<RoundOutput>()};
  RoundWatch watch;
  FailureLog& failures = r.failures;
  bool live = command == nullptr;
  watch.on_session = [&failures, &watch, &goal, live](const Session& s, const FuncTable& funcs,
                                                      Symbolizer& symbolizer) {
    if (watch.done) return;
    std::optional<FailingChain> chain = failing_chain(s, funcs);
    if (!chain) return;
    chain->deepest_loc = start_of(symbolizer, chain->deepest_addr);
    if (live && goal.met_by(*chain)) watch.done = true;
    failures.add(std::move(*chain));
  };
  // Once attached: from then on the failure is seen.
  if (live)
    watch.on_receiving = [number, &goal] {
      logf(LOG_NOTICE, "zoom: round %u: waiting for %s (Ctrl-C stops)\n", number,
           goal.text().c_str());
    };
  std::unique_ptr<Command> cmd = command ? command->again() : nullptr;
  r.status = runner(opts, cmd.get(), r.output->sink(), watch);
  r.funcs = watch.funcs;
  r.attach_s = watch.attach_s;
  r.stopped = watch.stopped;
  r.indirect_edges = std::move(watch.indirect_edges);
  return r;
}

std::string named(const FailingChain& c) {
  const std::string& f = c.funcs.back();
  return c.deepest_loc.empty() ? f : f + " (" + c.deepest_loc + ")";
}

// The kernel's own words about the failure, escaped like every message it logs.
std::string said(const FailingChain& c) {
  if (c.message.empty()) return "";
  std::string out = ": \"";
  append_escaped(out, c.message, '"');
  return out + "\"";
}

std::string chain_text(const FailingChain& c) {
  std::string out;
  for (const std::string& f : c.funcs) out += (out.empty() ? "" : " -> ") + f;
  return out;
}

void report_round(const Round& r, const std::optional<FailingChain>& found) {
  logf(LOG_NOTICE, "zoom: round %u: %zu function%s traced, attached in %.2f s, %s\n", r.number,
       r.funcs, r.funcs == 1 ? "" : "s", r.attach_s,
       found                             ? ("deepest failing: " + named(*found)).c_str()
       : r.stopped && r.number > 1       ? "stopped before the failure came back"
       : r.stopped && r.failures.empty() ? "stopped before any failure"
                                         : "no failure to chase");
}

// Which failure round 1 chased, in the words of its mode.
const char* chosen_as(const Options& opts, bool live) {
  if (live) return opts.allow_errors.empty() ? "the first failure seen" : "the first one -x allows";
  return opts.allow_errors.empty() ? "the last failure before the command exited"
                                   : "the last failure with an error -x allows";
}

// Round 1: every entry function that failed, and the failure chased.
std::optional<FailingChain> choose_failure(const Round& r, const Options& opts, bool live) {
  std::optional<FailingChain> chosen = r.failures.choose(opts.allow_errors);
  report_round(r, chosen);
  if (r.failures.empty()) {
    logf(LOG_NOTICE, r.stopped ? "zoom: stopped by a signal before any traced entry function "
                                 "failed: nothing to zoom into\n"
                               : "zoom: no traced entry function failed: nothing to zoom into\n");
    return std::nullopt;
  }
  logf(LOG_NOTICE, "zoom: failures: %s\n", render_entry_failures(r.failures.by_entry()).c_str());
  if (!chosen) {
    logf(LOG_NOTICE, "zoom: none returned an error -x allows: nothing to zoom into\n");
    return std::nullopt;
  }
  logf(LOG_NOTICE, "zoom: chasing %s %s, %s\n", chosen->funcs.front().c_str(),
       result_text(chosen->res).c_str(), chosen_as(opts, live));
  return chosen;
}

// The line trace needs DWARF, which located the function when it has a source location.
Options next_round_options(const Options& user, const FailingChain& chain, unsigned depth,
                           std::span<const CalleeEdge> indirect, bool trace_lines) {
  ZoomSelection sel = plan_next_round(chain.funcs, depth, indirect);
  Options o = user;
  o.entry_globs = sel.entry_globs;
  o.allow_globs.insert(o.allow_globs.end(), sel.allow_globs.begin(), sel.allow_globs.end());
  o.callee_globs = sel.callee_globs;
  o.presets.clear();
  o.allow_errors.clear();
  if (trace_lines && !chain.deepest_loc.empty() && o.symbolize != SymbLevel::None)
    o.line_trace.push_back(chain.funcs.back());
  return o;
}

// Whether edges has a callee of caller that known does not.
bool has_new_callee(std::span<const CalleeEdge> edges, const std::string& caller,
                    std::span<const CalleeEdge> known) {
  return std::any_of(edges.begin(), edges.end(), [&](const CalleeEdge& e) {
    return e.caller == caller && std::none_of(known.begin(), known.end(), [&](const CalleeEdge& k) {
             return k.caller == e.caller && k.callee == e.callee;
           });
  });
}

int finish(const Round& r) {
  OutputSink out(STDOUT_FILENO);
  r.output->print(out);
  return r.status;
}

// A stop signal, or a Ctrl-C that ended the command, before the origin was found: the output of
// the round that found the deepest failure, and how far the zoom got.
int stopped(const Round& shown, const FailingChain& chain, unsigned rounds, int status) {
  finish(shown);
  logf(LOG_NOTICE,
       "zoom: stopped by a signal after %u round%s: deepest failing so far %s, chain %s\n", rounds,
       rounds == 1 ? "" : "s", named(chain).c_str(), chain_text(chain).c_str());
  return status;
}

}  // namespace

Options first_zoom_round(const Options& user) {
  Options o = user;
  if (o.entry_globs.empty() && o.presets.empty()) o.entry_globs.emplace_back(kSyscallEntries);
  o.allow_errors.clear();  // -x chooses the failure to chase, among all of them
  return o;
}

int zoom(const Options& opts, const ZoomOptions& zoom, const Command* command,
         const RoundRunner& run, bool trace_lines) {
  // Between rounds no round listens for stop signals: one that comes then waits here for the
  // next check instead of ending the process at its default action.
  StopSignal between;
  Round round =
      run_round(1, first_zoom_round(opts), command, run, first_round_goal(opts.allow_errors));
  std::optional<FailingChain> chain = choose_failure(round, opts, command == nullptr);
  if (!chain) return finish(round);
  if (round.stopped) return stopped(round, *chain, 1, round.status);
  for (unsigned n = 2; n <= zoom.rounds; ++n) {
    if (between.requested())
      return stopped(round, *chain, n - 1, exit_status_after_signal(between.signal_number()));
    std::vector<CalleeEdge> indirect = std::move(round.indirect_edges);
    Round next = run_round(n, next_round_options(opts, *chain, zoom.depth, indirect, trace_lines),
                           command, run, next_round_goal(*chain));
    std::optional<FailingChain> found = next.failures.last_of(chain->funcs.front(), chain->res);
    report_round(next, found);
    if (next.stopped) {
      // Stopped before the failure came back: the round before has the deepest output.
      if (!found) return stopped(round, *chain, n - 1, next.status);
      if (goes_deeper(chain->funcs, found->funcs)) chain = found;
      return stopped(next, *chain, n, next.status);
    }
    round = std::move(next);
    if (!found) {
      int status = finish(round);
      logf(LOG_NOTICE,
           "zoom: the failure did not come back in round %u: deepest so far %s, chain %s\n", n,
           named(*chain).c_str(), chain_text(*chain).c_str());
      return status;
    }
    // Its indirect calls seen going somewhere new this round: another round traces those.
    bool new_targets = has_new_callee(round.indirect_edges, found->funcs.back(), indirect);
    if (!goes_deeper(chain->funcs, found->funcs) && !new_targets) {
      if (found->funcs.back() == chain->funcs.back()) chain = found;
      int status = finish(round);
      logf(LOG_NOTICE, "zoom: origin %s, chain %s%s\n", named(*chain).c_str(),
           chain_text(*chain).c_str(), said(*chain).c_str());
      return status;
    }
    chain = found;
  }
  int status = finish(round);
  logf(LOG_NOTICE,
       "zoom: stopped after %u round%s (--zoom=%u): deepest failing so far %s, chain %s\n",
       zoom.rounds, zoom.rounds == 1 ? "" : "s", zoom.rounds, named(*chain).c_str(),
       chain_text(*chain).c_str());
  return status;
}

}  // namespace retsnoop
