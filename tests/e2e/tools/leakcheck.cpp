// rs-leakcheck: after a tracer exits, lists every BPF program, BPF link, kprobe and ftrace hook
// still in the kernel, system-wide switches not back at their boot value, and retsnoop's run
// lock and knob state files (none may outlive the runs). Exit 0 when there is none, 1 when
// something is left, 2 when it cannot look. In the busybox test VM nothing else loads BPF, so by
// default every program counts.
#include <getopt.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <set>
#include <string>

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
int report_bpf(const Options& opts) {
  int found = 0;
  std::set<uint32_t> counted_progs;
  for (const BpfProg& p : loaded_progs()) {
    if (!p.name.starts_with(opts.prog_prefix)) continue;
    counted_progs.insert(p.id);
    std::printf("prog %u: %s name '%s'\n", p.id, p.type.c_str(), p.name.c_str());
    ++found;
  }
  for (const BpfLink& l : active_links()) {
    if (opts.prog_prefix.empty() || counted_progs.contains(l.prog_id)) {
      std::printf("link %u: %s prog %u\n", l.id, l.type.c_str(), l.prog_id);
      ++found;
    }
  }
  return found;
}

int report_trace_files() {
  int found = 0;
  for (const TraceFile& file : trace_files()) {
    for (const std::string& line : registrations(file)) {
      std::printf("%s: %s\n", file.label, line.c_str());
      ++found;
    }
  }
  return found;
}

// Lock and state files of retsnoop runs: once no run is alive, any of them is state that a run
// left behind and the next one did not clean up.
int report_run_state() {
  int found = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kRunStateDir, ec)) {
    std::printf("run state: %s\n", entry.path().c_str());
    ++found;
  }
  return found;
}

int report_knobs() {
  int found = 0;
  for (const Knob& knob : knobs()) {
    char value = knob_value(knob);
    if (value && value != knob.boot_value) {
      std::printf("knob: %s is %c, booted as %c\n", knob.path, value, knob.boot_value);
      ++found;
    }
  }
  return found;
}

}  // namespace
}  // namespace leakcheck

int main(int argc, char** argv) {
  leakcheck::Options opts = leakcheck::parse_options(argc, argv);
  try {
    int found = leakcheck::report_bpf(opts) + leakcheck::report_trace_files() +
                leakcheck::report_knobs() + leakcheck::report_run_state();
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
