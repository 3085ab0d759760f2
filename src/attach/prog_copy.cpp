#include "attach/prog_copy.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <string_view>
#include <vector>

#include "attach/tracer_object.h"
#include "util/log.h"
#include "util/text_lines.h"

namespace retsnoop {

namespace {

constexpr size_t kVerifierLogSize = 64 * 1024;
// BPF_LOG_STATS (5.2+): the verifier's statistics alone, a few short lines.
constexpr uint32_t kLogStats = 4;
constexpr size_t kStatsLogSize = 1024;

// The verifier's last words on a rejected copy, for the -v skip message: its last line but the
// statistics it appends to every log ("processed N insns ...").
std::string verifier_verdict(const char* log) {
  std::string_view verdict;
  for_each_line(log, [&](std::string_view line) {
    if (!line.empty() && !line.starts_with("processed ")) verdict = line;
  });
  return std::string(verdict);
}

// A short log's lines joined by "; ".
std::string one_line(const char* log) {
  std::string out;
  for_each_line(log, [&](std::string_view line) {
    if (line.empty()) return;
    if (!out.empty()) out += "; ";
    out += line;
  });
  return out;
}

int load(const ProgTemplate& t, std::span<const bpf_insn> insns, bpf_prog_load_opts* lo) {
  return bpf_prog_load(t.prog_type, t.name, TracerObject::kLicense, insns.data(), insns.size(), lo);
}

// Loads once more with the verifier log on: only for a rejection the user will read about.
std::string rejection_reason(const ProgTemplate& t, std::span<const bpf_insn> insns,
                             bpf_prog_load_opts lo) {
  std::vector<char> log(kVerifierLogSize);
  lo.log_buf = log.data();
  lo.log_size = log.size() - 1;  // the last byte stays NUL, whatever the kernel writes
  lo.log_level = 1;
  OwnedFd fd(load(t, insns, &lo));
  std::string line = verifier_verdict(log.data());
  return line.empty() ? "no verifier log" : "'" + line + "'";
}

}  // namespace

ProgTemplate template_of(bpf_program* prog, const char* mechanism) {
  ProgTemplate t{bpf_program__name(prog),
                 mechanism,
                 {bpf_program__insns(prog), bpf_program__insn_cnt(prog)},
                 bpf_program__type(prog),
                 bpf_program__expected_attach_type(prog),
                 {}};
  t.func_info = copy_func_info(bpf_program__fd(prog), t.insns);
  if (t.func_info.funcs.empty())
    logf(LOG_INFO, "%s: %s copies load without BTF function records, verified longer\n", mechanism,
         t.name);
  return t;
}

// At -vv with the verifier's statistics and the load's time: what each function costs.
AttachError load_copy(const ProgTemplate& t, std::span<const bpf_insn> insns,
                      const std::string& func, const CopyTarget& target, OwnedFd& out) {
  LIBBPF_OPTS(bpf_prog_load_opts, lo);
  lo.expected_attach_type = target.multi_type.value_or(t.attach_type);
  lo.attach_btf_id = target.btf_id;
  lo.attach_btf_obj_fd = target.btf_obj_fd;
  if (!t.func_info.funcs.empty()) {
    lo.prog_btf_fd = t.func_info.btf.get();
    lo.func_info = t.func_info.funcs.data();
    lo.func_info_cnt = uint32_t(t.func_info.funcs.size());
    lo.func_info_rec_size = sizeof(bpf_func_info);
  }
  std::array<char, kStatsLogSize> stats{};
  bool debug = log_enabled(LOG_DEBUG);
  if (debug) {
    lo.log_buf = stats.data();
    lo.log_size = stats.size() - 1;
    lo.log_level = kLogStats;
  }
  auto start = std::chrono::steady_clock::now();
  int fd = load(t, insns, &lo);
  if (fd >= 0 && debug)
    logf(LOG_DEBUG, "%s: %s copy for %s: %s, loaded in %.1f ms\n", t.mechanism, t.name,
         func.c_str(), one_line(stats.data()).c_str(),
         std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
             .count());
  if (fd < 0) {
    AttachError e{-errno, std::string(t.name) + " copy rejected"};
    if (!is_system_error(e.err) && log_enabled(LOG_INFO))
      e.what += ": " + rejection_reason(t, insns, lo);
    return e;
  }
  out = OwnedFd(fd);
  return {};
}

}  // namespace retsnoop
