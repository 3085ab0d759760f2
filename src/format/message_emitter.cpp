#include "format/message_emitter.h"

#include <algorithm>
#include <array>

#include "format/frame_filter.h"

namespace retsnoop {
namespace {

// printk's path per kernel version (vprintk_func before 5.15, _printk from 5.15 on), the
// dev_printk() and netdev_printk() wrappers of each level, dev_err_probe(), WARN()'s text,
// fs_context's logfc() and the BPF verifier's log writers.
constexpr std::array<std::string_view, 42> kPlumbing = {
    "vprintk_store",
    "vprintk_emit",
    "vprintk_default",
    "vprintk_func",
    "vprintk",
    "printk",
    "_printk",
    "vprintk_deferred",
    "_printk_deferred",
    "printk_deferred",
    "dev_vprintk_emit",
    "dev_printk_emit",
    "__dev_printk",
    "_dev_printk",
    "dev_printk",
    "_dev_emerg",
    "_dev_alert",
    "_dev_crit",
    "_dev_err",
    "_dev_warn",
    "_dev_notice",
    "_dev_info",
    "dev_err_probe",
    "__dev_probe_failed",
    "__netdev_printk",
    "netdev_printk",
    "netdev_emerg",
    "netdev_alert",
    "netdev_crit",
    "netdev_err",
    "netdev_warn",
    "netdev_notice",
    "netdev_info",
    "__warn_printk",
    "logfc",
    "bpf_verifier_vlog",
    "bpf_verifier_log_write",
    "verbose",
    "bpf_log",
    "printk_emit",
    "vprintk_nmi",
    "vprintk_safe",
};

}  // namespace

bool is_message_plumbing(std::string_view name) {
  return std::find(kPlumbing.begin(), kPlumbing.end(), name) != kPlumbing.end();
}

std::optional<SymbolizedAddr> message_emitter(const std::vector<uint64_t>& stack,
                                              Symbolizer& symbolizer) {
  // The innermost frame is the probed function itself, not a return address.
  for (size_t i = 0; i < stack.size(); ++i) {
    SymbolizedAddr sym = symbolizer.symbolize(stack[i], i > 0);
    if (!sym.found || is_tracing_frame(sym) || is_message_plumbing(sym.name)) continue;
    return sym;
  }
  return std::nullopt;
}

}  // namespace retsnoop
