// rs-leakcheck: after a tracer exits, lists every BPF program, BPF link, kprobe and ftrace hook
// still in the kernel, system-wide switches not back at their boot value, and retsnoop's run
// lock and knob state files (none may outlive the runs). Exit 0 when there is none, 1 when
// something is left, 2 when it cannot look. In the busybox test VM nothing else loads BPF, so by
// default every program counts.
#include <getopt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "bpf_objects.h"
#include "trace_registrations.h"

namespace leakcheck {
namespace {

constexpr const char* kRunStateDir = "/run/retsnoop";

struct Options {
  std::string prog_prefix;  // count only programs named so (and their links)
};

void print_usage(FILE* out) {
  std::fprintf(out,
               "Usage: rs-leakcheck [--prog-prefix PREFIX]\n"
               "  --prog-prefix PREFIX  count only BPF programs whose name starts with PREFIX\n"
               "                        (ours use \"rs_\"), and the links of those programs\n");
}

Options parse_options(int argc, char** argv) {
  static const option long_opts[] = {
      {"prog-prefix", required_argument, nullptr, 'p'},
      {"help", no_argument, nullptr, 'h'},
      {nullptr, 0, nullptr, 0},
  };
  Options opts;
  int opt;
  while ((opt = getopt_long(argc, argv, "p:h", long_opts, nullptr)) != -1) {
    switch (opt) {
      case 'p': opts.prog_prefix = optarg; break;
      case 'h': print_usage(stdout); std::exit(0);
      default: print_usage(stderr); std::exit(2);
    }
  }
  if (optind < argc) {
    print_usage(stderr);
    std::exit(2);
  }
  return opts;
}

// Prints the matching programs and their links; returns how many were printed.
int report_bpf(const Options& opts, FILE* out) {
  int found = 0;
  std::set<uint32_t> counted_progs;
  for (const BpfProg& p : loaded_progs()) {
    if (!p.name.starts_with(opts.prog_prefix)) continue;
    counted_progs.insert(p.id);
    std::fprintf(out, "prog %u: %s name '%s'\n", p.id, p.type.c_str(), p.name.c_str());
    ++found;
  }
  for (const BpfLink& l : active_links()) {
    if (opts.prog_prefix.empty() || counted_progs.contains(l.prog_id)) {
      std::fprintf(out, "link %u: %s prog %u\n", l.id, l.type.c_str(), l.prog_id);
      ++found;
    }
  }
  return found;
}

int report_trace_files(FILE* out) {
  int found = 0;
  for (const TraceFile& file : trace_files()) {
    for (const std::string& line : registrations(file)) {
      std::fprintf(out, "%s: %s\n", file.label, line.c_str());
      ++found;
    }
  }
  return found;
}

// Lock and state files of retsnoop runs: once no run is alive, any of them is state that a run
// left behind and the next one did not clean up.
int report_run_state(FILE* out) {
  int found = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kRunStateDir, ec)) {
    std::fprintf(out, "run state: %s\n", entry.path().c_str());
    ++found;
  }
  return found;
}

int report_knobs(FILE* out) {
  int found = 0;
  for (const Knob& knob : knobs()) {
    char value = knob_value(knob);
    if (value && value != knob.boot_value) {
      std::fprintf(out, "knob: %s is %c, booted as %c\n", knob.path, value, knob.boot_value);
      ++found;
    }
  }
  return found;
}

// Everything left, printed to out.
int report_all(const Options& opts, FILE* out) {
  return report_bpf(opts, out) + report_trace_files(out) + report_knobs(out) +
         report_run_state(out);
}

// Some links are freed after an RCU grace period once their last file descriptor is closed
// (raw tracepoint links since Linux 6.9), and their program with them: what a tracer closed just
// before it exited may still be listed for a moment. What is left after this settles for good.
constexpr auto kSettleLimit = std::chrono::seconds(3);
constexpr auto kSettleStep = std::chrono::milliseconds(50);

}  // namespace
}  // namespace leakcheck

int main(int argc, char** argv) {
  leakcheck::Options opts = leakcheck::parse_options(argc, argv);
  try {
    std::unique_ptr<FILE, int (*)(FILE*)> quiet(std::fopen("/dev/null", "w"), std::fclose);
    if (!quiet) throw std::runtime_error("cannot open /dev/null");
    auto deadline = std::chrono::steady_clock::now() + leakcheck::kSettleLimit;
    while (leakcheck::report_all(opts, quiet.get()) > 0 &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(leakcheck::kSettleStep);
    int found = leakcheck::report_all(opts, stdout);
    if (found == 0) {
      std::printf("rs-leakcheck: clean\n");
      return 0;
    }
    std::printf("rs-leakcheck: %d leftover(s)\n", found);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rs-leakcheck: %s\n", e.what());
    return 2;
  }
}
