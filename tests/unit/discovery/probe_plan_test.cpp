#include "discovery/probe_plan.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <fstream>

#include "discovery/kallsyms.h"
#include "temp_dir.h"
#include "util/error.h"

namespace retsnoop {
namespace {

const std::string kKallsyms = std::string(RS_FIXTURES_DIR) + "/discovery/kallsyms.txt";

// A tracefs look-alike with a few events, and a BTF file that declares raw tracepoints the way
// the kernel does: one btf_trace_NAME typedef each.
class ProbeKernel {
 public:
  ProbeKernel() {
    for (const char* ev : {"sched/sched_switch", "sched/sched_process_exec",
                           "sched/sched_process_exit", "syscalls/sys_enter_execve"})
      dir_.write(std::string("tracing/events/") + ev + "/id", "1\n");
    dir_.write("tracing/events/sched/enable", "0\n");
    dir_.write("tracing/events/header_page", "");
    write_btf();
    src_.tracefs_dirs = {dir_.path() + "/missing", dir_.path() + "/tracing"};
    src_.vmlinux_btf = dir_.path() + "/vmlinux";
  }

  ProbeTable plan(const std::vector<std::string>& specs) {
    Kallsyms ksyms = Kallsyms::load_text(kKallsyms);
    return plan_probes(parse_probe_args(specs), src_, ksyms);
  }

  std::string error_of(const std::vector<std::string>& specs) {
    try {
      plan(specs);
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  }

  ProbeSources& sources() { return src_; }

 private:
  void write_btf() {
    struct btf* b = btf__new_empty();
    int int_id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
    btf__add_typedef(b, "btf_trace_sched_switch", int_id);
    btf__add_typedef(b, "btf_trace_sched_process_exec", int_id);
    btf__add_typedef(b, "btf_trace_kfree_skb", int_id);
    btf__add_typedef(b, "not_a_tracepoint", int_id);
    __u32 size = 0;
    const void* raw = btf__raw_data(b, &size);
    std::ofstream(dir_.path() + "/vmlinux", std::ios::binary)
        .write(static_cast<const char*>(raw), size);
    btf__free(b);
  }

  test::TempDir dir_;
  ProbeSources src_;
};

std::vector<std::string> labels(const ProbeTable& t) {
  std::vector<std::string> out;
  for (const ProbeSpec& p : t) out.push_back(probe_label(p));
  return out;
}

TEST(ProbePlan, KprobesAreCheckedAgainstKallsyms) {
  ProbeKernel k;
  EXPECT_EQ(
      labels(k.plan({"kprobe:__sys_bpf+0x10", "kretprobe:__sys_bpf", "kprobe:kvm_read_guest"})),
      (std::vector<std::string>{"kprobe:__sys_bpf+0x10", "kretprobe:__sys_bpf",
                                "kprobe:kvm_read_guest"}));
}

TEST(ProbePlan, KprobeErrors) {
  ProbeKernel k;
  EXPECT_EQ(k.error_of({"kprobe:no_such_func"}),
            "probe 'kprobe:no_such_func': no kernel function 'no_such_func'");
  EXPECT_EQ(k.error_of({"kretprobe:no_such_func"}),
            "probe 'kretprobe:no_such_func': no kernel function 'no_such_func'");
  EXPECT_EQ(k.error_of({"kprobe:__sys_bpf+0x100"}),
            "probe 'kprobe:__sys_bpf+0x100': offset 0x100 is outside __sys_bpf, which is at most "
            "0x100 bytes long");
  EXPECT_EQ(k.error_of({"kprobe:__sys_bpf+0xff"}), "");
}

TEST(ProbePlan, TracepointGlobsExpandInSpecOrderWithoutDuplicates) {
  ProbeKernel k;
  EXPECT_EQ(labels(k.plan({"tp:sched:sched_process_*", "tp:*:*_exec*", "tp:sched:sched_switch"})),
            (std::vector<std::string>{"tp:sched:sched_process_exec", "tp:sched:sched_process_exit",
                                      "tp:syscalls:sys_enter_execve", "tp:sched:sched_switch"}));
}

TEST(ProbePlan, RawTracepointGlobsExpandFromBtf) {
  ProbeKernel k;
  EXPECT_EQ(labels(k.plan({"rawtp:sched_*", "rawtp:kfree_skb"})),
            (std::vector<std::string>{"rawtp:sched_process_exec", "rawtp:sched_switch",
                                      "rawtp:kfree_skb"}));
}

TEST(ProbePlan, GlobsThatMatchNothingAreErrors) {
  ProbeKernel k;
  EXPECT_EQ(k.error_of({"tp:sched:no_such_*"}), "probe 'tp:sched:no_such_*' matches no tracepoint");
  EXPECT_EQ(k.error_of({"tp:enable:*"}), "probe 'tp:enable:*' matches no tracepoint");
  EXPECT_EQ(k.error_of({"rawtp:not_a_tracepoint"}),
            "probe 'rawtp:not_a_tracepoint' matches no tracepoint");
}

TEST(ProbePlan, MissingSourcesAreNamed) {
  ProbeKernel k;
  k.sources().tracefs_dirs = {"/nonexistent"};
  EXPECT_EQ(k.error_of({"tp:sched:*"}),
            "cannot list tracepoints: no tracefs events directory (is tracefs mounted?)");
  k.sources().vmlinux_btf = "/nonexistent/vmlinux";
  EXPECT_EQ(k.error_of({"rawtp:*"}),
            "cannot list raw tracepoints: cannot read BTF '/nonexistent/vmlinux': No such file "
            "or directory");
}

TEST(ProbePlan, DryRunListing) {
  ProbeKernel k;
  EXPECT_EQ(render_probes(k.plan({"kprobe:__sys_bpf+5", "tp:sched:sched_process_*"})),
            "Injected probes (3):\n"
            "  kprobe:__sys_bpf+0x5\n"
            "  tp:sched:sched_process_exec\n"
            "  tp:sched:sched_process_exit\n");
  EXPECT_EQ(render_probes({}), "");
}

}  // namespace
}  // namespace retsnoop
