// simfail: runs named cases that make kernel calls fail (or succeed) in known ways, as the
// workload of end-to-end tests and benchmarks. Exit 0 when every case behaved as designed.
#include <fcntl.h>
#include <getopt.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "simfail_cases.h"
#include "util/errno_names.h"

namespace simfail {
namespace {

constexpr int kExitUsage = 2;

struct Options {
  std::vector<const Case*> cases;
  long repeat = 1;
  unsigned hold_sec = 0;
  bool quiet = false;
  bool timing = false;
  const char* comm = nullptr;
  const char* then_exec = nullptr;
  long map_self = 0;
  bool fork = false;
  std::vector<const char*> case_names;
};

void print_usage(FILE* out) {
  std::fprintf(out,
               "Usage: simfail [-q] [-t] [-n N] [--hold SEC] [--comm NAME] [--then-exec PROG]\n"
               "               [--map-self N] [--fork] CASE...\n"
               "       simfail --list\n"
               "  -n, --repeat N  run each case N times in a tight loop (default 1)\n"
               "      --hold SEC  keep the objects of the last run open SEC seconds\n"
               "      --comm NAME run under this comm (the kernel keeps 15 characters)\n"
               "      --then-exec PROG  then exec PROG (a simfail) with the same CASEs and\n"
               "                  --hold, in this process\n"
               "      --map-self N  first map this program N more times, executable\n"
               "      --fork      run the cases in a child, forked without exec; print its PID\n"
               "  -q, --quiet     print only cases that misbehaved\n"
               "  -t, --timing    print each case's time per run in nanoseconds\n"
               "  -l, --list      list the cases\n");
}

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "simfail: %s\n", msg.c_str());
  print_usage(stderr);
  std::exit(kExitUsage);
}

void list_cases() {
  for (const Case& c : all_cases()) std::printf("%-36s %s\n", c.name, c.description);
}

long parse_count(const char* text, const char* option, long min) {
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < min) {
    usage_error(std::string("invalid ") + option + " value '" + text + "'");
  }
  return value;
}

Options parse_options(int argc, char** argv) {
  enum { kOptHold = 256, kOptComm, kOptThenExec, kOptMapSelf, kOptFork };
  static const option long_opts[] = {
      {"repeat", required_argument, nullptr, 'n'},
      {"hold", required_argument, nullptr, kOptHold},
      {"comm", required_argument, nullptr, kOptComm},
      {"then-exec", required_argument, nullptr, kOptThenExec},
      {"map-self", required_argument, nullptr, kOptMapSelf},
      {"fork", no_argument, nullptr, kOptFork},
      {"quiet", no_argument, nullptr, 'q'},
      {"list", no_argument, nullptr, 'l'},
      {"timing", no_argument, nullptr, 't'},
      {"help", no_argument, nullptr, 'h'},
      {nullptr, 0, nullptr, 0},
  };
  Options opts;
  int opt;
  while ((opt = getopt_long(argc, argv, "n:qtlh", long_opts, nullptr)) != -1) {
    switch (opt) {
      case 'n': opts.repeat = parse_count(optarg, "--repeat", 1); break;
      case kOptHold: opts.hold_sec = static_cast<unsigned>(parse_count(optarg, "--hold", 0)); break;
      case kOptComm: opts.comm = optarg; break;
      case kOptThenExec: opts.then_exec = optarg; break;
      case kOptMapSelf: opts.map_self = parse_count(optarg, "--map-self", 1); break;
      case kOptFork: opts.fork = true; break;
      case 'q': opts.quiet = true; break;
      case 't': opts.timing = true; break;
      case 'l': list_cases(); std::exit(0);
      case 'h': print_usage(stdout); std::exit(0);
      default: print_usage(stderr); std::exit(kExitUsage);
    }
  }
  for (int i = optind; i < argc; ++i) {
    const Case* c = find_case(argv[i]);
    if (c == nullptr) usage_error(std::string("unknown case '") + argv[i] + "' (see --list)");
    opts.cases.push_back(c);
    opts.case_names.push_back(argv[i]);
  }
  if (opts.cases.empty()) usage_error("no case given");
  return opts;
}

std::string errno_text(int err) {
  const char* name = retsnoop::errno_name(err);
  return name ? name : "errno " + std::to_string(err);
}

bool behaved(const Case& c, const Outcome& out) {
  return out.setup_failed == nullptr && (out.err != 0) == c.should_fail;
}

std::string describe(const Case& c, const Outcome& out) {
  if (out.setup_failed)
    return std::string(out.setup_failed) + " failed first: " + errno_text(out.err);
  std::string result = out.err ? errno_text(out.err) : "success";
  if (behaved(c, out)) return result + " (as designed)";
  return result + (c.should_fail ? ", but it should fail" : ", but it should succeed");
}

void report(const Case& c, const Outcome& out, long runs, const Options& opts) {
  bool ok = behaved(c, out);
  if (ok && opts.quiet) return;
  std::string runs_text = runs > 1 ? " [run " + std::to_string(runs) + "]" : "";
  std::fprintf(ok ? stdout : stderr, "%s: %s%s\n", c.name, describe(c, out).c_str(),
               runs_text.c_str());
}

// -t: the benchmarks' measure of a traced call, taken inside the loop so that process start-up
// and exit stay out of it.
void report_timing(const Case& c, std::chrono::steady_clock::time_point t0, long runs) {
  auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0);
  std::printf("%s: %.1f ns per run (%ld runs)\n", c.name, double(ns.count()) / runs, runs);
}

// Runs the case up to opts.repeat times, stopping at the first run that misbehaves.
bool run_case(const Case& c, const Options& opts) {
  auto t0 = std::chrono::steady_clock::now();
  for (long run = 1; run <= opts.repeat; ++run) {
    Objects objects;
    Outcome out = c.run(objects);
    if (behaved(c, out) && run < opts.repeat) continue;
    if (opts.timing) report_timing(c, t0, run);
    report(c, out, run, opts);
    if (opts.hold_sec > 0) {
      std::printf("%s: holding its objects for %u s\n", c.name, opts.hold_sec);
      std::fflush(stdout);
      sleep(opts.hold_sec);
    }
    return behaved(c, out);
  }
  return true;
}

// --map-self: a process with tens of thousands of mappings, whose memory map is hundreds of
// megabytes when its path is long. Offset 0 each time, so that the kernel merges none of them.
bool map_self(long count) {
  int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    std::perror("simfail: open /proc/self/exe");
    return false;
  }
  for (long i = 0; i < count; ++i) {
    if (mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED) {
      std::fprintf(stderr, "simfail: mapping %ld of %ld: %s\n", i + 1, count, std::strerror(errno));
      close(fd);
      return false;
    }
  }
  close(fd);
  return true;
}

// --fork: a process that runs this program without having exec'd it, as a tracer that knows
// processes by PID must tell from the one that had the PID before. The child's exit status.
int fork_child(pid_t& child) {
  std::fflush(stdout);
  child = fork();
  if (child < 0) {
    std::perror("simfail: fork");
    return 1;
  }
  if (child == 0) return 0;
  std::printf("simfail: child PID %d\n", int(child));
  int status = 0;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status)) return 1;
  return WEXITSTATUS(status);
}

// The same process goes on as another program: what a tracer that caches memory maps must notice.
int exec_next(const Options& opts) {
  std::vector<char*> args{const_cast<char*>(opts.then_exec)};
  std::string hold = std::to_string(opts.hold_sec);
  if (opts.hold_sec) {
    args.push_back(const_cast<char*>("--hold"));
    args.push_back(hold.data());
  }
  for (const char* name : opts.case_names) args.push_back(const_cast<char*>(name));
  args.push_back(nullptr);
  std::fflush(stdout);
  execv(opts.then_exec, args.data());
  std::perror("simfail: execv");
  return 1;
}

}  // namespace
}  // namespace simfail

int main(int argc, char** argv) {
  simfail::Options opts = simfail::parse_options(argc, argv);
  // Lets a test tell two reproducer processes apart by comm (retsnoop -n/-N).
  if (opts.comm && prctl(PR_SET_NAME, opts.comm) != 0) {
    std::perror("simfail: prctl(PR_SET_NAME)");
    return 1;
  }
  if (opts.map_self && !simfail::map_self(opts.map_self)) return 1;
  pid_t child = 0;
  if (opts.fork) {
    int status = simfail::fork_child(child);
    if (child != 0) return status;
  }
  bool all_ok = true;
  for (const simfail::Case* c : opts.cases) all_ok = simfail::run_case(*c, opts) && all_ok;
  if (opts.then_exec && all_ok) return simfail::exec_next(opts);
  return all_ok ? 0 : 1;
}
