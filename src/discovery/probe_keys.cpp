#include "discovery/probe_keys.h"

#include <charconv>

#include "discovery/tp_format.h"
#include "util/error.h"

namespace retsnoop {

std::optional<uint32_t> tp_event_type(std::string_view text) {
  constexpr std::string_view kPrefix = "ID:";
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.starts_with(kPrefix)) continue;
    line.remove_prefix(kPrefix.size());
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    uint32_t id = 0;
    auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), id);
    if (ec == std::errc() && end != line.data()) return id;
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {

rs_probe_key kprobe_key(const ProbeSpec& p, const Kallsyms& ksyms) {
  uint64_t addr = ksyms.addr_of(p.name);
  if (!addr) throw UserError("probe '" + probe_label(p) + "': kallsyms does not list " + p.name);
  bool ret = p.kind == InjectKind::Kretprobe;
  return {.value = addr + (ret ? 0 : p.offset),
          .kind = ret ? RS_PROBE_KEY_KRETPROBE : RS_PROBE_KEY_KPROBE};
}

}  // namespace

std::optional<uint32_t> read_tp_event_type(const std::vector<std::string>& tracefs_dirs,
                                           std::string_view category, std::string_view name) {
  std::optional<std::string> format = read_tp_format(tracefs_dirs, category, name);
  return format ? tp_event_type(*format) : std::nullopt;
}

std::vector<rs_probe_key> plan_probe_keys(const ProbeTable& probes, const Kallsyms& ksyms) {
  std::vector<rs_probe_key> keys;
  for (const ProbeSpec& p : probes) {
    bool kprobe = p.kind == InjectKind::Kprobe || p.kind == InjectKind::Kretprobe;
    keys.push_back(kprobe ? kprobe_key(p, ksyms) : rs_probe_key{});
  }
  return keys;
}

}  // namespace retsnoop
