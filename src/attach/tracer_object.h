// Owns the loaded BPF object (skeleton): configuration before load, map sizing, function table,
// filters, activation and counters. Destroying it closes every program, map and link it holds.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attach/link_ptr.h"
#include "bpf/abi.h"
#include "bpf/func_slots.h"
#include "discovery/func_args.h"
#include "discovery/func_info.h"
#include "discovery/probe_spec.h"

struct rs_tracer;
struct bpf_program;
struct btf;

namespace retsnoop {

enum class AttachKind { MultiKprobe, Kprobe, Fentry };

// How user-space functions are attached: not at all (none selected), by one uprobe-multi link
// per binary and direction (6.6+), by one uprobe per function and direction with the function
// id as BPF cookie (5.15+), or, without cookies, by one uprobe per function and direction whose
// program is a copy carrying the function id (ByMark, bpf/func_mark.h).
enum class UprobeMode { None, Multi, Single, ByMark };

// What the running kernel offers the programs beyond Linux 5.10; each false one makes the
// programs take a slower path that 5.10 has (bpf/globals.bpf.h, has_* knobs).
struct KernelCaps {
  bool cookie = true;             // bpf_get_attach_cookie()
  bool func_ip = true;            // bpf_get_func_ip() in kprobes
  bool task_btf = true;           // bpf_get_current_task_btf()
  bool task_storage = true;       // BPF_MAP_TYPE_TASK_STORAGE
  bool atomic_fetch = true;       // atomics returning a value (compare-and-swap, fetch-add)
  bool kretprobe_stacks = true;   // a stack taken in a kretprobe unwinds to the syscall
  bool session_kfunc_ctx = true;  // the kprobe session kfuncs take the context (7.0+)
  // Trampoline link cookies (5.19+), and with them bpf_get_func_arg()/_ret() (5.17+); without,
  // each function's fentry/fexit copies carry its id in place of RS_FUNC_MARK.
  bool fentry_cookie = true;
};

struct TracerConfig {
  AttachKind kind = AttachKind::Kprobe;
  UprobeMode uprobes = UprobeMode::None;
  KernelCaps caps;
  // Without caps.func_ip, single kprobes read the running kprobe: the kallsyms addresses of
  // current_kprobe (per CPU) and __per_cpu_offset.
  uint64_t current_kprobe_addr = 0;
  uint64_t per_cpu_offset_addr = 0;
  // Without caps.cookie, -J kprobes and tracepoints are known by these keys (indexed by probe
  // id), and a kretprobe by its kprobe's pre-handler (kallsyms address of pre_handler_kretprobe).
  std::vector<rs_probe_key> probe_keys;
  uint64_t kretprobe_pre_handler_addr = 0;
  // Without caps.kretprobe_stacks, single kprobes take each call's stack at its entry, and it
  // stops at the kretprobe trampoline (kallsyms address) of the traced call it runs under.
  uint64_t kretprobe_trampoline_addr = 0;
  bool kprobe_session = false;  // multi-kprobe as one session link (Feature::KprobeSession)
  // fentry: one entry and one exit program on every vmlinux function through a tracing multi
  // link (Feature::FentryMulti), instead of a copy of each per function.
  bool fentry_multi = false;
  // Single kprobes grouped into tracefs kprobe events: the function id comes from the probed
  // address instead of a per-probe cookie (see attach/kprobe_events.h). Kernels without
  // cookies take the function from the address for every single kprobe.
  bool kprobe_events = false;
  bool success_stacks = false;
  bool emit_trace = false;
  bool capture_lbr = false;
  bool interim_stacks = false;  // -I
  bool capture_ustack = false;  // -U
  uint64_t min_duration_ns = 0;
  // -A: what each function's entry captures, indexed by function id; empty: nothing captured.
  std::vector<rs_func_args> func_args;
  std::vector<rs_func_args> probe_args;  // -A: the same for injected probes, by probe id
  ArgLimits arg_limits;
  std::vector<int> allow_pids, deny_pids;
  std::vector<std::string> allow_comms, deny_comms;
  // --cgroup then --no-cgroup directories (open fds, borrowed); the first cgroups_allowed are
  // --cgroup's.
  std::vector<int> cgroup_fds;
  uint32_t cgroups_allowed = 0;
  // --arg-filter: each function's program, by function id; empty: no filter.
  std::vector<rs_arg_filter> arg_filters;
  // Injected probes (-J) of these kinds exist: their programs are loaded, the others not.
  bool kprobe_probes = false;  // kprobe: and kretprobe:
  bool tracepoint_probes = false;
  bool raw_tracepoint_probes = false;
  bool follow_command = false;  // command mode: trace only what follow() names, and its children
  uint32_t ringbuf_size = 4u << 20;
  uint32_t sessions_size = 4096;
  bool count_repeats = false;  // -C stacks.repeats=count
  // --line-trace: line hits kept per session (-C lines.max-count); 0: no line probes.
  uint32_t line_max = 0;
};

// What another BPF object needs to find the sessions of these programs and to send records
// among theirs (bpf/messages.bpf.c): the maps, and the knobs that say how they are laid out.
struct SessionMaps {
  int sessions_fd = -1;
  int session_bits_fd = -1;
  int ringbuf_fd = -1;
  uint32_t session_slots = 1;
  uint32_t cpu_bits = 0;
};

class TracerObject {
 public:
  // LICENSE of tracer.bpf.c, for copies of its programs: the kernel checks it for GPL-only
  // helpers.
  static constexpr const char* kLicense = "Dual BSD/GPL";

  // Opens, configures and loads the BPF object for funcs; throws UserError with the libbpf
  // reason when the kernel refuses it.
  TracerObject(const TracerConfig& cfg, const FuncTable& funcs);
  ~TracerObject();
  TracerObject(const TracerObject&) = delete;
  TracerObject& operator=(const TracerObject&) = delete;

  // The loaded pair of the configured mechanism. For fentry they are templates attached nowhere:
  // the fentry attacher loads one copy per function from their instructions.
  bpf_program* entry_prog() const;
  bpf_program* exit_prog() const;
  // The program of injected probes of this kind; loaded only when TracerConfig asked for it. The
  // raw tracepoint one is a template attached nowhere (see RS_PROBE_ID_MARK in bpf/abi.h).
  bpf_program* probe_prog(InjectKind kind) const;
  // The program of --line-trace's kprobes (the cookie is the line id); loaded only when
  // TracerConfig::line_max asked for it.
  bpf_program* line_prog() const;
  // The pair user-space functions attach with, as TracerConfig::uprobes chose; null for None.
  // For ByMark they are templates attached nowhere: UprobeLinks loads one copy per function.
  bpf_program* uprobe_entry_prog() const;
  bpf_program* uprobe_exit_prog() const;
  UprobeMode uprobe_mode() const { return uprobes_; }
  // Multi-kprobe with one program for entry and return (entry_prog() == exit_prog()).
  bool kprobe_session() const { return kprobe_session_; }
  bool kprobe_events() const { return kprobe_events_; }
  // Whether links may carry BPF cookies (5.15+); attachers pass 0 otherwise.
  bool has_cookies() const { return cookies_; }
  // fentry: whether each function's copies get its id in place of RS_FUNC_MARK
  // (bpf/func_mark.h) instead of as link cookie.
  bool fentry_by_mark() const { return fentry_by_mark_; }
  bool fentry_multi() const { return fentry_multi_; }
  int ringbuf_fd() const;
  SessionMaps session_maps() const;
  // Runs of the loaded pair the kernel skipped because a BPF program was already running on
  // the CPU (see attach/probe_misses.h).
  uint64_t recursion_misses() const;
  // Hits of the function at addr are ignored from now on (kprobe events only: a probe that stays
  // after its function was skipped).
  void forget_func(uint64_t addr);
  // Command mode: traces process pid from now on, and every process it or its descendants fork
  // from now on. Call it before pid runs anything worth tracing.
  void follow(int pid);
  // Handlers ignore every hit until activated: nothing is recorded from a half-attached set.
  void activate();
  void deactivate();
  // While set, a session header may wake the reader (bpf/report.bpf.h, header_wakeup()).
  void set_reader_waiting(bool waiting);
  rs_stats stats() const;
  // -C stacks.repeats=count: the repeats map (struct rs_repeat_key), and the interval that
  // sessions ending from now on count in.
  int repeats_fd() const;
  void set_repeat_interval(uint64_t interval);

 private:
  void configure(const TracerConfig& cfg, size_t nr_funcs);
  void configure_flags(const TracerConfig& cfg);
  void size_maps(const TracerConfig& cfg, size_t nr_funcs);
  void choose_programs(const TracerConfig& cfg);
  void load();
  void log_verified_insns() const;
  void configure_caps(const TracerConfig& cfg);
  void fill_func_descs(const FuncTable& funcs);
  void fill_func_slots();
  void fill_probe_keys(const std::vector<rs_probe_key>& keys);
  void fill_filters(const TracerConfig& cfg);
  void configure_gates(const TracerConfig& cfg, size_t nr_funcs);
  void fill_gates(const TracerConfig& cfg);
  void configure_args(const TracerConfig& cfg);
  // -U: a process that execs is announced again (RS_REC_PROC) with its new memory map.
  void watch_execs();

  AttachKind kind_;
  UprobeMode uprobes_;
  bool kprobe_session_;
  bool kprobe_events_;
  bool cookies_;
  bool fentry_by_mark_;
  bool fentry_multi_;
  // Single kprobes whose programs find the function by address (kprobe events, or no cookies).
  bool by_ip_;
  // Function address -> id for programs without a usable cookie (bpf/func_slots.h); else empty.
  std::vector<rs_func_slot> func_slots_;
  rs_tracer* skel_ = nullptr;
  LinkPtr fork_link_;  // command mode: the fork tracepoint, attached by follow()
  LinkPtr exec_link_;  // -U: the exec tracepoint
};

}  // namespace retsnoop
