#include "attach/kprobe_events.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "attach/run_registry.h"
#include "util/file_text.h"
#include "util/log.h"
#include "util/text_lines.h"

namespace retsnoop {

namespace {

constexpr std::string_view kGroupPrefix = "retsnoop_";
// Definitions per write: a refused line costs a redo of its write one line at a time.
constexpr size_t kBatchLines = 32;

std::string event_path(std::string_view group, std::string_view event) {
  return std::string(group) + "/" + std::string(event);
}

}  // namespace

std::optional<TextAnchor> find_text_anchor(const std::function<uint64_t(const char*)>& addr_of) {
  for (const char* name : {"_text", "_stext"}) {
    if (uint64_t addr = addr_of(name)) return TextAnchor{name, addr};
  }
  return std::nullopt;
}

std::string probe_definition(ProbeKind kind, std::string_view group, std::string_view event,
                             const TextAnchor& anchor, uint64_t addr) {
  char target[64];
  std::snprintf(target, sizeof(target), " %s+0x%" PRIx64, anchor.name.c_str(), addr - anchor.addr);
  return (kind == ProbeKind::Entry ? "p:" : "r:") + event_path(group, event) + target;
}

std::vector<int> run_batched(const std::vector<std::string>& commands, const CommandWriter& write,
                             const std::function<bool()>& should_stop) {
  std::vector<int> errs;
  for (size_t first = 0; first < commands.size() && !should_stop(); first += kBatchLines) {
    size_t end = std::min(commands.size(), first + kBatchLines);
    errs.resize(end, 0);
    std::string text;
    for (size_t i = first; i < end; ++i) text += commands[i] + '\n';
    if (write(text) == 0) continue;
    for (size_t i = first; i < end; ++i) {
      int err = write(commands[i]);
      errs[i] = err == -EEXIST ? 0 : err;
    }
  }
  return errs;
}

std::string event_removal(std::string_view group, std::string_view event) {
  return "-:" + event_path(group, event);
}

std::string run_group(std::string_view run_id) {
  return std::string(kGroupPrefix) + std::string(run_id);
}

std::optional<std::string> group_run_id(std::string_view group) {
  if (!group.starts_with(kGroupPrefix)) return std::nullopt;
  std::string_view id = group.substr(kGroupPrefix.size());
  if (!is_run_id(id)) return std::nullopt;
  return std::string(id);
}

uint64_t parse_missed_hits(std::string_view profile, std::string_view prefix) {
  std::istringstream lines{std::string(profile)};
  std::string name;
  uint64_t hits = 0, missed = 0, total = 0;
  while (lines >> name >> hits >> missed)
    if (name.starts_with(prefix)) total += missed;
  return total;
}

std::vector<EventName> parse_kprobe_events(std::string_view text) {
  std::vector<EventName> events;
  for_each_line(text, [&](std::string_view line) {
    size_t colon = line.find(':');
    size_t slash = line.find('/', colon);
    size_t space = line.find(' ', slash);
    if (colon == std::string_view::npos || slash == std::string_view::npos || slash > space) return;
    EventName name{std::string(line.substr(colon + 1, slash - colon - 1)),
                   std::string(line.substr(slash + 1, space - slash - 1))};
    if (std::find(events.begin(), events.end(), name) == events.end())
      events.push_back(std::move(name));
  });
  return events;
}

std::optional<KprobeEventsFile> KprobeEventsFile::open(
    const std::vector<std::string>& tracefs_dirs) {
  for (const auto& dir : tracefs_dirs) {
    // O_APPEND: opening for writing with O_TRUNC would remove every kprobe event on the system.
    OwnedFd fd(::open((dir + "/kprobe_events").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC));
    if (fd) return KprobeEventsFile(dir, std::move(fd));
  }
  return std::nullopt;
}

int KprobeEventsFile::run(const std::string& command) const {
  ssize_t n = write(fd_.get(), command.data(), command.size());
  if (n < 0) return -errno;
  return n == static_cast<ssize_t>(command.size()) ? 0 : -EIO;
}

std::vector<int> KprobeEventsFile::run_batched(const std::vector<std::string>& commands,
                                               const std::function<bool()>& should_stop) const {
  return retsnoop::run_batched(
      commands, [this](const std::string& text) { return run(text); }, should_stop);
}

uint64_t KprobeEventsFile::missed_hits(std::string_view prefix) const {
  auto profile = read_text_file(dir_ + "/kprobe_profile");
  return profile ? parse_missed_hits(*profile, prefix) : 0;
}

std::vector<EventName> KprobeEventsFile::events() const {
  auto listing = read_text_file(dir_ + "/kprobe_events");
  return listing ? parse_kprobe_events(*listing) : std::vector<EventName>{};
}

KprobeEventsFile::GroupRemoval KprobeEventsFile::remove_group(std::string_view group) const {
  GroupRemoval res;
  for (const auto& ev : events()) {
    if (ev.group != group) continue;
    int err = run(event_removal(ev.group, ev.event));
    if (err == 0) {
      ++res.removed;
      continue;
    }
    res.complete = false;
    logf(LOG_WARN, "cannot remove kprobe event %s/%s: %s\n", ev.group.c_str(), ev.event.c_str(),
         std::strerror(-err));
  }
  return res;
}

}  // namespace retsnoop
