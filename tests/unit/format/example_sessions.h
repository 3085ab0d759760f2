// Three reference sessions (per-CPU array, bpf-simple-obj with -S -T, --lbr=any), rebuilt
// as the events layer would hand them over, with their symbol tables.
#pragma once

#include <iterator>
#include <string>
#include <vector>

#include "events/session.h"

#include "fake_symbolizer.h"
#include "format/session_view.h"
#include "test_funcs.h"
#include "trace_builder.h"
#include "view_text.h"
#include "wall_clock.h"

namespace retsnoop::test {

struct ExampleCase {
  TestFuncs funcs;
  Session session;
  FakeSymbolizer symbolizer;
};

// A session as retsnoop prints it, in UTC so golden files hold on any machine.
inline std::string format_example(ExampleCase& c, const FormatOptions& opts) {
  use_utc();
  return session_text(c.session, {c.funcs.table, c.symbolizer, opts}, kMonoToRealNs);
}

inline StackCall call(const TestFuncs& funcs, const std::string& name, uint64_t dur_ns, int64_t res,
                      bool stitched = false) {
  return {.func_id = funcs.id(name), .dur_ns = dur_ns, .res = res, .stitched = stitched};
}

inline Session simfail_session(uint32_t pid, uint64_t start_ns, uint64_t end_ns) {
  return {.pid = pid,
          .tid = pid,
          .task_comm = "simfail",
          .proc_comm = "simfail",
          .start_ns = start_ns,
          .end_ns = end_ns,
          .is_error = true};
}

// `retsnoop -e '*sys_bpf' -a ':kernel/bpf/*.c'`, simfail bpf-bad-map-val-size-percpu-array.
inline ExampleCase percpu_array_case() {
  ExampleCase c{
      {},
      simfail_session(8346, mono_ns_at(20, 19, 36, 372607), mono_ns_at(20, 19, 36, 372682)),
      FakeSymbolizer("percpu_array.sym")};
  TestFuncs& f = c.funcs;
  f.add("__x64_sys_bpf", RetKind::Int64);
  f.add("__sys_bpf", RetKind::Int32);
  f.add("array_map_alloc", RetKind::Ptr);
  f.add("bpf_map_alloc_percpu", RetKind::Ptr);
  c.session.calls = {
      call(f, "__x64_sys_bpf", 73456, -12),
      call(f, "__sys_bpf", 70999, 0xfffffff4),  // an int in a 64-bit register: -ENOMEM
      call(f, "array_map_alloc", 50001, -12),
      call(f, "bpf_map_alloc_percpu", 2999, 0, true),
  };
  c.session.kstack = {0xffffffff81e0007c, 0xffffffff81d3e0a5, 0xffffffffa0004064,
                      0xffffffff8127b41a, 0xffffffff81279d8b, 0xffffffffa000a04c,
                      0xffffffff810b2c10};
  return c;
}

inline void add_simple_obj_funcs(TestFuncs& f) {
  for (const char* name :
       {"bpf_prog_load", "bpf_obj_name_cpy", "bpf_check", "check_subprogs",
        "bpf_check_uarg_tail_zero", "check_cfg", "do_check_common", "check_max_stack_depth",
        "convert_ctx_accesses", "do_misc_fixups", "bpf_prog_alloc_jited_linfo", "check_mem_access"})
    f.add(name, RetKind::Int32);
  for (const char* name :
       {"bpf_prog_alloc", "bpf_prog_alloc_no_stats", "btf_get_by_fd", "bpf_prog_select_runtime",
        "bpf_int_jit_compile", "bpf_map_kptr_off_contains"})
    f.add(name, RetKind::Ptr);
  for (const char* name : {"free_verifier_state", "verbose", "bpf_prog_jit_attempt_done",
                           "bpf_prog_kallsyms_add", "bpf_ksym_add"})
    f.add(name, RetKind::Void);
}

constexpr int64_t kProgAddr = int64_t(0xffffc9000031e000);

// The full -T table of the example; "[...]" rows are where the reference output cut records.
inline std::vector<TraceRecord> simple_obj_trace(const TestFuncs& f) {
  TraceBuilder t(f);
  t.enter("bpf_prog_load");
  t.enter("bpf_prog_alloc")
      .leaf("bpf_prog_alloc_no_stats", kProgAddr, 5539)
      .leave(kProgAddr, 10265);
  t.leaf("bpf_obj_name_cpy", 11, 2169);
  t.enter("bpf_check");
  t.leaf("check_subprogs", 0, 1903);
  t.leaf("btf_get_by_fd", int64_t(0xffff888122ae9100), 1851);
  t.leaf("bpf_check_uarg_tail_zero", 0, 1740);
  t.lose(40).leaf("check_cfg", 0, 2199);
  t.enter("do_check_common").lose(700).leaf("free_verifier_state", 0, 2011).leave(0, 215469);
  t.leaf("check_max_stack_depth", 0, 1844).leaf("convert_ctx_accesses", 0, 2156);
  t.leaf("do_misc_fixups", 0, 1848).leaf("verbose", 0, 1775);
  t.leave(0, 293563);
  t.enter("bpf_prog_select_runtime").leaf("bpf_prog_alloc_jited_linfo", 0, 2943);
  t.enter("bpf_int_jit_compile").lose(30).leave(kProgAddr, 30520);
  t.leaf("bpf_prog_jit_attempt_done", 0, 1778);
  t.leave(kProgAddr, 42725);
  t.enter("bpf_prog_kallsyms_add").leaf("bpf_ksym_add", 0, 2046).leave(0, 6104);
  t.leave(5, 374697);
  return t.records();
}

// `retsnoop -e bpf_prog_load -a ':kernel/bpf/*.c' ... -S -T`, simfail bpf-simple-obj.
inline ExampleCase simple_obj_case() {
  ExampleCase c{
      {},
      simfail_session(8385, mono_ns_at(21, 33, 58, 438961), mono_ns_at(21, 33, 58, 439338)),
      FakeSymbolizer("simple_obj.sym")};
  TestFuncs& f = c.funcs;
  add_simple_obj_funcs(f);
  c.session.is_error = false;
  c.session.calls = {
      call(f, "bpf_prog_load", 374697, 5),
      call(f, "bpf_prog_kallsyms_add", 6104, 0),
      call(f, "bpf_ksym_add", 2046, 0),
      call(f, "check_mem_access", 29310, 0, true),
      call(f, "bpf_map_kptr_off_contains", 1203, 0, true),
  };
  c.session.kstack = {0xffffffff81e0007c, 0xffffffff81d3e0a5, 0xffffffff8127b41a,
                      0xffffffff8127ada4, 0xffffffff810b2c10};
  c.session.trace = simple_obj_trace(f);
  return c;
}

// The 32 branch records, oldest (#31) first: what the reference output shows, then the
// machinery's own.
inline std::vector<LbrRecord> lbr_any_records() {
  std::vector<LbrRecord> shown = {
      {0xffffffff811c40f6, 0xffffffff811a1059}, {0xffffffff811a1067, 0xffffffff811a108c},
      {0xffffffff811a108e, 0xffffffff811a11f9}, {0xffffffff811a11fb, 0xffffffff811a1069},
      {0xffffffff811a108b, 0xffffffff8114f03a}, {0xffffffff8114f05d, 0xffffffff8105e10c},
      {0xffffffff8105e10e, 0xffffffff8105e156}, {0xffffffff8105e175, 0xffffffff8105e110},
      {0xffffffff8105e146, 0xffffffffa00020c8}, {0xffffffffa000214c, 0xffffffff8128c005},
      {0xffffffff8128c013, 0xffffffff8128c075}, {0xffffffff8128c07a, 0xffffffff8128c018},
      {0xffffffff8128c01d, 0xffffffff8128c06f}, {0xffffffff8128c074, 0xffffffff810b2c10},
  };
  const LbrRecord machinery[] = {
      {0xffffffff810b2c35, 0xffffffff810b1f20}, {0xffffffff810b1f6a, 0xffffffff811a2300},
      {0xffffffff811a2350, 0xffffffff811c4000}, {0xffffffff811c4080, 0xffffffffa000a000},
      {0xffffffffa000a130, 0xffffffff811c8a00}, {0xffffffff811c8a20, 0xffffffffa000a130},
  };
  for (size_t i = 0; shown.size() < 32; ++i) shown.push_back(machinery[i % std::size(machinery)]);
  return shown;
}

// `retsnoop -e '*sys_bpf' -a 'array_map_alloc_check' --lbr=any`, bpf-bad-map-max-entries-array.
inline ExampleCase lbr_any_case() {
  ExampleCase c{
      {},
      simfail_session(2385333, mono_ns_at(20, 29, 17, 844718), mono_ns_at(20, 29, 17, 844749)),
      FakeSymbolizer("lbr_any.sym")};
  TestFuncs& f = c.funcs;
  f.add("__x64_sys_bpf", RetKind::Int64);
  f.add("__sys_bpf", RetKind::Int32);
  f.add("array_map_alloc_check", RetKind::Int32);
  c.session.calls = {
      call(f, "__x64_sys_bpf", 30120, -22),
      call(f, "__sys_bpf", 23877, -22),
      call(f, "array_map_alloc_check", 8004, -22),
  };
  c.session.kstack = {0xffffffff81e0003c, 0xffffffff81d3e09d, 0xffffffff8127b41c,
                      0xffffffff81279ca0, 0xffffffff810b2c10};
  c.session.lbr = lbr_any_records();
  return c;
}

}  // namespace retsnoop::test
