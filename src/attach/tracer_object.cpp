#include "attach/tracer_object.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "attach/func_slot_table.h"
#include "attach/load_diagnosis.h"
#include "attach/probe_misses.h"
#include "attach/prog_btf.h"
#include "bpf/session_slots.h"
#include "rs_tracer.skel.h"
#include "rs_tracer_legacy.skel.h"
#include "rs_tracer_session_noctx.skel.h"
#include "util/error.h"
#include "util/file_text.h"
#include "util/log.h"
#include "util/owned_fd.h"
#include "util/phase_timer.h"

namespace retsnoop {

namespace {

static_assert(sizeof(rs_frame) == 32, "rs_frame layout must match BPF");
static_assert(sizeof(rs_part_hdr) == 16, "part header must keep payloads 8-byte aligned");
static_assert(sizeof(rs_call_rec) == 40, "rs_call_rec layout must match BPF");
static_assert(sizeof(rs_probe_rec) == 32, "rs_probe_rec layout must match BPF");
static_assert(sizeof(rs_session_rec) == 120, "rs_session_rec layout must match BPF");
static_assert(sizeof(rs_proc_rec) == 16, "rs_proc_rec layout must match BPF");
static_assert(sizeof(rs_func_args) == 136, "rs_func_args layout must match BPF");
static_assert(sizeof(rs_args_rec) == 216, "rs_args_rec layout must match BPF");
static_assert(sizeof(rs_arg_filter) == 1544, "rs_arg_filter layout must match BPF");

[[noreturn]] void fail(const std::string& what, int err) {
  throw UserError(what + ": " + std::strerror(err < 0 ? -err : err));
}

void resize_map(bpf_map* map, uint32_t entries) {
  int err = bpf_map__set_max_entries(map, entries);
  if (err) fail(std::string("map '") + bpf_map__name(map) + "': cannot resize", err);
}

// Words of session_bits, a bit per TID below pid_max (the kernel's limit when unreadable: 512 KiB).
uint32_t session_bit_words() {
  constexpr unsigned long kPidMaxLimit = 4u << 20;
  unsigned long pid_max = kPidMaxLimit;
  if (auto text = read_text_file("/proc/sys/kernel/pid_max")) {
    unsigned long v = std::strtoul(text->c_str(), nullptr, 10);
    if (v > 0 && v <= kPidMaxLimit) pid_max = v;
  }
  return static_cast<uint32_t>((pid_max + 63) / 64);
}

// libbpf would create the sessions map during the load, where a size the kernel can't allocate
// (the map is preallocated) ends in a load failure and libbpf's log. Created here first, the
// failure names the setting that sized it; libbpf then uses this map instead of creating one.
void create_sessions_map(bpf_map* map, uint32_t entries) {
  LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = bpf_map__map_flags(map));
  OwnedFd fd(bpf_map_create(bpf_map__type(map), bpf_map__name(map), bpf_map__key_size(map),
                            bpf_map__value_size(map), rs_session_slots(entries), &opts));
  int err = errno;
  if (!fd && (err == ENOMEM || err == E2BIG))
    throw UserError("bpf.sessions-size=" + std::to_string(entries) +
                    ": the kernel could not allocate the sessions map (" + std::strerror(err) +
                    "): try a smaller value");
  if (!fd) fail("map 'sessions': cannot create", err);
  err = bpf_map__reuse_fd(map, fd.get());  // keeps a duplicate of fd
  if (err) fail("map 'sessions': cannot hand the created map to libbpf", err);
}

// Filter lists have no length limit (-n @FILE); the kernel refuses maps of 0 entries.
template <typename T>
uint32_t filter_entries(const std::vector<T>& allow, const std::vector<T>& deny) {
  return std::max<size_t>(1, allow.size() + deny.size());
}

// The skeleton's fentry/fexit programs are templates: libbpf relocates (map fds, CO-RE) only the
// programs it loads, and the kernel loads a trampoline program only for a target. The fentry
// attacher loads the traced copies from the relocated instructions. bpf_fentry_test1
// (net/bpf/test_run.c, 5.5+) exists to be such a target: int(int), in every kernel with BPF and
// networking, so the template never fails for reasons of the traced functions' prototypes.
constexpr const char* kFentryTemplateTarget = "bpf_fentry_test1";

// One syscall per table rather than one per entry: a broad glob fills ten thousand entries.
template <typename K, typename V>
void update_all(bpf_map* map, const std::vector<K>& keys, const std::vector<V>& values) {
  uint32_t count = keys.size();
  if (count == 0) return;
  LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = BPF_ANY);
  if (bpf_map_update_batch(bpf_map__fd(map), keys.data(), values.data(), &count, &opts))
    fail(std::string("map '") + bpf_map__name(map) + "': update failed", errno);
}

// An array map's entries 0..values.size()-1, in one syscall.
template <typename V>
void update_by_id(bpf_map* map, const std::vector<V>& values) {
  std::vector<uint32_t> ids(values.size());
  for (uint32_t id = 0; id < ids.size(); ++id) ids[id] = id;
  update_all(map, ids, values);
}

void set_template_target(bpf_program* prog) {
  int err = bpf_program__set_attach_target(prog, 0, kFentryTemplateTarget);
  if (err)
    fail(std::string("prog '") + bpf_program__name(prog) + "': cannot target " +
             kFentryTemplateTarget,
         err);
}

// The build of tracer.bpf.c for this kernel: before 5.12 the one without atomics that return a
// value; where the kprobe session kfuncs take no context (6.10 to 6.x) the one declaring them so,
// as libbpf refuses a declaration that differs from the kernel's. All builds come from one
// source and hold the same maps, programs and variables in the same order, so the one skeleton
// fits each.
const void* tracer_elf_bytes(const KernelCaps& caps, size_t* size) {
  if (!caps.atomic_fetch) return rs_tracer_legacy__elf_bytes(size);
  if (!caps.session_kfunc_ctx) return rs_tracer_session_noctx__elf_bytes(size);
  return rs_tracer__elf_bytes(size);
}

rs_tracer* open_tracer(const KernelCaps& caps) {
  auto* obj = static_cast<rs_tracer*>(calloc(1, sizeof(rs_tracer)));
  if (!obj) return nullptr;
  int err = rs_tracer__create_skeleton(obj);
  if (!err) {
    obj->skeleton->data = tracer_elf_bytes(caps, &obj->skeleton->data_sz);
    err = bpf_object__open_skeleton(obj->skeleton, nullptr);
  }
  if (err) {
    rs_tracer__destroy(obj);
    errno = -err;
    return nullptr;
  }
  return obj;
}

}  // namespace

TracerObject::TracerObject(const TracerConfig& cfg, const FuncTable& funcs)
    : kind_(cfg.kind),
      uprobes_(cfg.uprobes),
      kprobe_session_(cfg.kind == AttachKind::MultiKprobe && cfg.kprobe_session),
      kprobe_events_(cfg.kind == AttachKind::Kprobe && cfg.kprobe_events),
      cookies_(cfg.caps.cookie),
      fentry_by_mark_(cfg.kind == AttachKind::Fentry && !cfg.caps.fentry_cookie),
      fentry_multi_(cfg.fentry_multi && !fentry_by_mark_),
      by_ip_(cfg.kind == AttachKind::Kprobe && (cfg.kprobe_events || !cfg.caps.cookie)) {
  if (kprobe_session_ || by_ip_) {
    std::vector<uint64_t> addrs(funcs.size());
    for (uint32_t id = 0; id < funcs.size(); ++id) addrs[id] = funcs[id].addr;
    func_slots_ = build_func_slots(addrs);
  }
  skel_ = timed("BPF open", [&] { return open_tracer(cfg.caps); });
  if (!skel_) fail("cannot open the BPF object", errno);
  // The destructor does not run for an object whose constructor threw.
  try {
    timed("BPF configure", [&] { configure(cfg, funcs.size()); });
    load();
    PhaseTimer fill("BPF map fill");
    fill_func_descs(funcs);
    fill_func_slots();
    fill_filters(cfg);
    fill_gates(cfg);
    update_by_id(skel_->maps.func_args, cfg.func_args);
    if (!cfg.probe_args.empty()) update_by_id(skel_->maps.probe_args, cfg.probe_args);
    fill_probe_keys(cfg.probe_keys);
    if (cfg.capture_ustack) watch_execs();
  } catch (...) {
    rs_tracer__destroy(skel_);
    throw;
  }
}

// A refusal names its cause (an extern, a map, the verifier's reason) in the one-line error.
void TracerObject::load() {
  LibbpfWarnings warnings;
  int err = timed("BPF load", [&] { return rs_tracer__load(skel_); });
  if (!err) {
    log_verified_insns();
    return;
  }
  std::string cause = load_failure_cause(warnings.text());
  if (cause.empty()) fail("cannot load the BPF programs (run with -vv for libbpf's log)", err);
  throw UserError(
      "cannot load the BPF programs: " + cause + " (" + std::strerror(err < 0 ? -err : err) + ")",
      "retsnoop -V -v shows what this kernel supports; -vv shows libbpf's whole log");
}

// What start-up spends in the verifier, per program (5.16+ counts it).
void TracerObject::log_verified_insns() const {
  bpf_program* prog;
  bpf_object__for_each_program(prog, skel_->obj) {
    int fd = bpf_program__fd(prog);
    uint32_t n = fd < 0 ? 0 : prog_verified_insns(fd);
    if (n) logf(LOG_INFO, "BPF program %s: %u instructions verified\n", bpf_program__name(prog), n);
  }
}

TracerObject::~TracerObject() {
  fork_link_.reset();
  exec_link_.reset();
  rs_tracer__destroy(skel_);
}

void TracerObject::configure(const TracerConfig& cfg, size_t nr_funcs) {
  configure_flags(cfg);
  configure_caps(cfg);
  configure_gates(cfg, nr_funcs);
  size_maps(cfg, nr_funcs);
  configure_args(cfg);
  choose_programs(cfg);
}

void TracerObject::configure_flags(const TracerConfig& cfg) {
  auto* ro = skel_->rodata;
  ro->success_stacks = cfg.success_stacks;
  ro->emit_trace = cfg.emit_trace;
  ro->capture_lbr = cfg.capture_lbr;
  ro->interim_stacks = cfg.interim_stacks;
  ro->min_duration_ns = cfg.min_duration_ns;
  ro->has_pid_allow = !cfg.allow_pids.empty();
  ro->has_comm_allow = !cfg.allow_comms.empty();
  ro->has_pid_filter = ro->has_pid_allow || !cfg.deny_pids.empty();
  ro->has_comm_filter = ro->has_comm_allow || !cfg.deny_comms.empty();
  ro->follow_command = cfg.follow_command;
  ro->capture_ustack = cfg.capture_ustack;
  ro->count_repeats = cfg.count_repeats;
  ro->max_sessions = cfg.sessions_size;
  ro->session_slots = rs_session_slots(cfg.sessions_size);
  ro->trace_lines = cfg.line_max > 0;
  ro->line_max = std::clamp<uint32_t>(cfg.line_max, 1, RS_MAX_LINES);
}

void TracerObject::size_maps(const TracerConfig& cfg, size_t nr_funcs) {
  auto* ro = skel_->rodata;
  resize_map(skel_->maps.rb, cfg.ringbuf_size);
  create_sessions_map(skel_->maps.sessions, cfg.sessions_size);
  int cpus = libbpf_num_possible_cpus();
  if (cpus < 0) fail("cannot count the possible CPUs", cpus);
  // Before the TIDs' words, a bit per CPU for its idle task.
  uint32_t cpu_words = (uint32_t(cpus) + 63) / 64;
  ro->cpu_bits = cpu_words * 64;
  resize_map(skel_->maps.session_bits, cpu_words + session_bit_words());
  resize_map(skel_->maps.func_descs, nr_funcs ? nr_funcs : 1);
  resize_map(skel_->maps.func_slots, std::max<size_t>(func_slots_.size(), 1));
  ro->func_slot_mask = func_slots_.empty() ? 0 : uint32_t(func_slots_.size() - 1);
  resize_map(skel_->maps.pid_filter, filter_entries(cfg.allow_pids, cfg.deny_pids));
  resize_map(skel_->maps.comm_filter, filter_entries(cfg.allow_comms, cfg.deny_comms));
  // Distinct failures per interval (two intervals live at a time); beyond it they print in full.
  constexpr uint32_t kRepeatEntries = 4096;
  resize_map(skel_->maps.repeats, cfg.count_repeats ? kRepeatEntries : 1);
  resize_map(skel_->maps.line_rings, cfg.line_max ? rs_session_slots(cfg.sessions_size) : 1);
}

// Only the programs of the chosen mechanism are loaded: a kernel without multi-kprobe or session
// support would reject the others, and trampoline programs need a target.
void TracerObject::choose_programs(const TracerConfig& cfg) {
  auto load_pair = [&](bpf_program* entry, bpf_program* exit, bool load) {
    bpf_program__set_autoload(entry, load);
    bpf_program__set_autoload(exit, load);
  };
  bool multi = cfg.kind == AttachKind::MultiKprobe;
  load_pair(skel_->progs.rs_kentry, skel_->progs.rs_kexit,
            (cfg.kind == AttachKind::Kprobe && !by_ip_) || cfg.uprobes == UprobeMode::Single);
  load_pair(skel_->progs.rs_umentry, skel_->progs.rs_umexit, cfg.uprobes == UprobeMode::Multi);
  load_pair(skel_->progs.rs_umark_entry, skel_->progs.rs_umark_exit,
            cfg.uprobes == UprobeMode::ByMark);
  load_pair(skel_->progs.rs_keventry, skel_->progs.rs_kevexit, by_ip_);
  load_pair(skel_->progs.rs_kmentry, skel_->progs.rs_kmexit, multi && !kprobe_session_);
  load_pair(skel_->progs.rs_fentry, skel_->progs.rs_fexit, cfg.kind == AttachKind::Fentry);
  bpf_program__set_autoload(skel_->progs.rs_ksession, kprobe_session_);
  bpf_program__set_autoload(skel_->progs.rs_probe_kprobe, cfg.kprobe_probes);
  bpf_program__set_autoload(skel_->progs.rs_probe_tp, cfg.tracepoint_probes);
  bpf_program__set_autoload(skel_->progs.rs_probe_rawtp, cfg.raw_tracepoint_probes);
  bpf_program__set_autoload(skel_->progs.rs_line_kprobe, cfg.line_max > 0);
  bpf_program__set_autoload(skel_->progs.rs_fork, cfg.follow_command);
  bpf_program__set_autoload(skel_->progs.rs_exec, cfg.capture_ustack);
  if (cfg.kind == AttachKind::Fentry) {
    set_template_target(skel_->progs.rs_fentry);
    set_template_target(skel_->progs.rs_fexit);
  }
}

// Each missing capability switches the programs to code Linux 5.10 runs; maps of types the
// kernel lacks stay in the object as stand-ins of a type it has, used by no code that runs.
void TracerObject::configure_caps(const TracerConfig& cfg) {
  auto* ro = skel_->rodata;
  const KernelCaps& caps = cfg.caps;
  ro->has_cookie = caps.cookie;
  ro->has_func_ip = caps.func_ip;
  ro->has_task_btf = caps.task_btf;
  ro->has_task_storage = caps.task_storage;
  ro->fentry_by_mark = fentry_by_mark_;
  ro->kstack_at_entry = cfg.kind == AttachKind::Kprobe && !caps.kretprobe_stacks;
  resize_map(skel_->maps.entry_kstacks,
             ro->kstack_at_entry ? rs_session_slots(cfg.sessions_size) : 1);
  ro->current_kprobe_addr = cfg.current_kprobe_addr;
  ro->per_cpu_offset_addr = cfg.per_cpu_offset_addr;
  ro->kretprobe_pre_handler_addr = cfg.kretprobe_pre_handler_addr;
  ro->kretprobe_trampoline_addr = cfg.kretprobe_trampoline_addr;
  resize_map(skel_->maps.probe_keys, std::max<size_t>(cfg.probe_keys.size(), 1));
  if (!caps.task_storage) {
    bpf_map* m = skel_->maps.task_verdicts;
    // Preallocated: tracing programs of those kernels warn about maps that allocate at run time.
    int err = bpf_map__set_type(m, BPF_MAP_TYPE_HASH);
    if (!err) err = bpf_map__set_map_flags(m, 0);
    if (!err) err = bpf_map__set_max_entries(m, 1);
    if (err) fail("map 'task_verdicts': cannot make a stand-in", err);
  }
  if (!caps.atomic_fetch) resize_map(skel_->maps.slot_claims, rs_session_slots(cfg.sessions_size));
}

void TracerObject::fill_func_descs(const FuncTable& funcs) {
  std::vector<rs_func_desc> descs(funcs.size());
  for (uint32_t id = 0; id < funcs.size(); ++id) {
    descs[id].addr = funcs[id].addr;
    descs[id].ret_kind = static_cast<uint8_t>(funcs[id].ret);
    descs[id].flags =
        (funcs[id].is_entry ? RS_FUNC_ENTRY : 0) | (funcs[id].is_user() ? RS_FUNC_USER : 0);
  }
  update_by_id(skel_->maps.func_descs, descs);
}

// Without -A the capture code is dead at load time and its maps keep one entry each.
void TracerObject::configure_args(const TracerConfig& cfg) {
  auto* ro = skel_->rodata;
  bool on = !cfg.func_args.empty();
  ro->capture_args = on;
  ro->args_fentry_ctx = cfg.kind == AttachKind::Fentry;
  ro->args_ctx_words = fentry_by_mark_;
  ro->args_max_total = cfg.arg_limits.max_total_args_size;
  ro->args_max_sized = cfg.arg_limits.max_sized_arg_size;
  ro->args_max_str = cfg.arg_limits.max_str_arg_size;
  if (!on) return;
  int cpus = libbpf_num_possible_cpus();
  if (cpus < 0) fail("cannot count the possible CPUs", cpus);
  resize_map(skel_->maps.args_bufs, cpus);
  resize_map(skel_->maps.func_args, cfg.func_args.size());
  if (!cfg.probe_args.empty()) resize_map(skel_->maps.probe_args, cfg.probe_args.size());
}

void TracerObject::fill_probe_keys(const std::vector<rs_probe_key>& keys) {
  std::vector<rs_probe_key> used;
  std::vector<uint32_t> ids;
  for (uint32_t id = 0; id < keys.size(); ++id) {
    if (!keys[id].kind) continue;
    used.push_back(keys[id]);
    ids.push_back(id);
  }
  update_all(skel_->maps.probe_keys, used, ids);
}

void TracerObject::fill_func_slots() {
  std::vector<uint32_t> keys(func_slots_.size());
  for (uint32_t k = 0; k < keys.size(); ++k) keys[k] = k;
  update_all(skel_->maps.func_slots, keys, func_slots_);
}

// The slot stays, so that the addresses probed past it are still found.
void TracerObject::forget_func(uint64_t addr) {
  std::optional<size_t> k = find_func_slot(func_slots_, addr);
  if (!k) return;
  func_slots_[*k].id = RS_FUNC_SLOT_NONE;
  uint32_t key = uint32_t(*k);
  bpf_map_update_elem(bpf_map__fd(skel_->maps.func_slots), &key, &func_slots_[*k], BPF_ANY);
}

void TracerObject::fill_filters(const TracerConfig& cfg) {
  int pid_fd = bpf_map__fd(skel_->maps.pid_filter);
  auto put_pid = [&](int pid, uint8_t verdict) {
    uint32_t key = pid;
    if (bpf_map_update_elem(pid_fd, &key, &verdict, BPF_ANY))
      fail("pid_filter: update failed", errno);
  };
  for (int pid : cfg.allow_pids) put_pid(pid, 1);
  for (int pid : cfg.deny_pids) put_pid(pid, 0);  // deny wins: written last

  int comm_fd = bpf_map__fd(skel_->maps.comm_filter);
  auto put_comm = [&](const std::string& comm, uint8_t verdict) {
    char key[RS_COMM_LEN] = {};
    std::strncpy(key, comm.c_str(), RS_COMM_LEN - 1);
    if (bpf_map_update_elem(comm_fd, key, &verdict, BPF_ANY))
      fail("comm_filter: update failed", errno);
  };
  for (const auto& c : cfg.allow_comms) put_comm(c, 1);
  for (const auto& c : cfg.deny_comms) put_comm(c, 0);
}

// Without --cgroup, --no-cgroup and --arg-filter the gates are dead at load time.
void TracerObject::configure_gates(const TracerConfig& cfg, size_t nr_funcs) {
  auto* ro = skel_->rodata;
  ro->cgroups_allowed = cfg.cgroups_allowed;
  ro->cgroups_denied = static_cast<uint32_t>(cfg.cgroup_fds.size()) - cfg.cgroups_allowed;
  ro->has_arg_filter = !cfg.arg_filters.empty();
  if (ro->has_arg_filter) resize_map(skel_->maps.arg_filters, std::max<size_t>(nr_funcs, 1));
}

void TracerObject::fill_gates(const TracerConfig& cfg) {
  int cg_fd = bpf_map__fd(skel_->maps.cgroups);
  for (uint32_t i = 0; i < cfg.cgroup_fds.size(); ++i) {
    uint32_t fd = static_cast<uint32_t>(cfg.cgroup_fds[i]);
    if (bpf_map_update_elem(cg_fd, &i, &fd, BPF_ANY)) fail("cgroups: update failed", errno);
  }
  update_by_id(skel_->maps.arg_filters, cfg.arg_filters);
}

bpf_program* TracerObject::entry_prog() const {
  switch (kind_) {
    case AttachKind::MultiKprobe:
      return kprobe_session_ ? skel_->progs.rs_ksession : skel_->progs.rs_kmentry;
    case AttachKind::Fentry: return skel_->progs.rs_fentry;
    case AttachKind::Kprobe: break;
  }
  return by_ip_ ? skel_->progs.rs_keventry : skel_->progs.rs_kentry;
}

bpf_program* TracerObject::exit_prog() const {
  switch (kind_) {
    case AttachKind::MultiKprobe:
      return kprobe_session_ ? skel_->progs.rs_ksession : skel_->progs.rs_kmexit;
    case AttachKind::Fentry: return skel_->progs.rs_fexit;
    case AttachKind::Kprobe: break;
  }
  return by_ip_ ? skel_->progs.rs_kevexit : skel_->progs.rs_kexit;
}

bpf_program* TracerObject::uprobe_entry_prog() const {
  switch (uprobes_) {
    case UprobeMode::Multi: return skel_->progs.rs_umentry;
    case UprobeMode::Single: return skel_->progs.rs_kentry;
    case UprobeMode::ByMark: return skel_->progs.rs_umark_entry;
    case UprobeMode::None: break;
  }
  return nullptr;
}

bpf_program* TracerObject::uprobe_exit_prog() const {
  switch (uprobes_) {
    case UprobeMode::Multi: return skel_->progs.rs_umexit;
    case UprobeMode::Single: return skel_->progs.rs_kexit;
    case UprobeMode::ByMark: return skel_->progs.rs_umark_exit;
    case UprobeMode::None: break;
  }
  return nullptr;
}

bpf_program* TracerObject::probe_prog(InjectKind kind) const {
  switch (kind) {
    case InjectKind::Kprobe:
    case InjectKind::Kretprobe: return skel_->progs.rs_probe_kprobe;
    case InjectKind::Tracepoint: return skel_->progs.rs_probe_tp;
    case InjectKind::RawTracepoint: break;
  }
  return skel_->progs.rs_probe_rawtp;
}

bpf_program* TracerObject::line_prog() const { return skel_->progs.rs_line_kprobe; }

int TracerObject::ringbuf_fd() const { return bpf_map__fd(skel_->maps.rb); }

SessionMaps TracerObject::session_maps() const {
  return SessionMaps{.sessions_fd = bpf_map__fd(skel_->maps.sessions),
                     .session_bits_fd = bpf_map__fd(skel_->maps.session_bits),
                     .ringbuf_fd = ringbuf_fd(),
                     .session_slots = skel_->rodata->session_slots,
                     .cpu_bits = skel_->rodata->cpu_bits};
}

uint64_t TracerObject::recursion_misses() const {
  uint64_t n = prog_recursion_misses(bpf_program__fd(entry_prog()));
  if (exit_prog() != entry_prog()) n += prog_recursion_misses(bpf_program__fd(exit_prog()));
  return n;
}

void TracerObject::follow(int pid) {
  if (!fork_link_) {
    fork_link_.reset(bpf_program__attach(skel_->progs.rs_fork));
    if (!fork_link_) fail("cannot attach the sched_process_fork tracepoint", errno);
  }
  uint32_t key = pid;
  uint8_t one = 1;
  if (bpf_map_update_elem(bpf_map__fd(skel_->maps.command_pids), &key, &one, BPF_ANY))
    fail("command_pids: update failed", errno);
}

// Before any session can open: handlers record nothing until activate().
void TracerObject::watch_execs() {
  exec_link_.reset(bpf_program__attach(skel_->progs.rs_exec));
  if (!exec_link_) fail("cannot attach the sched_process_exec tracepoint", errno);
}

void TracerObject::activate() { __atomic_store_n(&skel_->bss->ready, true, __ATOMIC_RELEASE); }

void TracerObject::deactivate() { __atomic_store_n(&skel_->bss->ready, false, __ATOMIC_RELEASE); }

// Sequentially consistent: the flag must be visible before the poll looks for records.
void TracerObject::set_reader_waiting(bool waiting) {
  __atomic_store_n(&skel_->bss->reader_waiting, waiting, __ATOMIC_SEQ_CST);
}

int TracerObject::repeats_fd() const { return bpf_map__fd(skel_->maps.repeats); }

void TracerObject::set_repeat_interval(uint64_t interval) {
  __atomic_store_n(&skel_->bss->repeat_interval, interval, __ATOMIC_RELEASE);
}

rs_stats TracerObject::stats() const {
  rs_stats s;
  std::memcpy(&s, (const void*)&skel_->bss->stats, sizeof(s));
  return s;
}

}  // namespace retsnoop
