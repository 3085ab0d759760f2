#include "attach/kernel_messages.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace retsnoop {
namespace {

KernelFunctionCheck has(std::set<std::string> names) {
  return [names = std::move(names)](std::string_view name) {
    return names.count(std::string(name)) > 0;
  };
}

// A kernel without the netlink extack trace function, its verifier's log writer in kallsyms but
// not in BTF: the verifier source falls back to kprobes.
TEST(KernelMessagesReport, EachSourceWithItsFunctionOrWhyItIsOff) {
  std::string report =
      message_sources_report(has({"logfc", "bpf_verifier_vlog", "vprintk_store"}), has({}), true);
  EXPECT_EQ(report,
            "Kernel message sources:\n"
            "\tfs: logfc (kprobe)\n"
            "\textack: off (this kernel has no do_trace_netlink_extack)\n"
            "\tverifier: bpf_verifier_vlog (kprobe and kretprobe)\n"
            "\tprintk: vprintk_store (kprobe)\n");
}

TEST(KernelMessagesReport, VerifierIsAnFexitSourceWithKprobesBehind) {
  std::string report =
      message_sources_report(has({"bpf_verifier_vlog"}), has({"bpf_verifier_vlog"}), true);
  EXPECT_NE(report.find("\tverifier: bpf_verifier_vlog (fexit, else kprobe and kretprobe)\n"),
            std::string::npos)
      << report;
}

TEST(KernelMessagesReport, SourceWithoutItsFunctionSaysSoOnce) {
  std::string report = message_sources_report(has({}), has({}), true);
  EXPECT_NE(report.find("\tverifier: off (this kernel has no bpf_verifier_vlog)\n"),
            std::string::npos)
      << report;
}

TEST(KernelMessagesReport, DisabledSaysByWhichSetting) {
  EXPECT_EQ(message_sources_report(has({"logfc"}), has({}), false),
            "Kernel message sources: off (-C messages.enabled=no)\n");
}

}  // namespace
}  // namespace retsnoop
