#include "attach/kprobe_events.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "discovery/file_text.h"
#include "util/log.h"
#include "util/text_lines.h"
#include "util/process_alive.h"

namespace retsnoop {

namespace {

constexpr std::string_view kGroupPrefix = "retsnoop_";
constexpr const char* kTextAnchor = "_text";
// Definitions per write: a refused line costs a redo of its write one line at a time.
constexpr size_t kBatchLines = 32;

std::string event_path(std::string_view group, std::string_view event) {
  return std::string(group) + "/" + std::string(event);
}

}  // namespace

std::string probe_definition(ProbeKind kind, std::string_view group, std::string_view event,
                             uint64_t text_base, uint64_t addr) {
  char target[48];
  std::snprintf(target, sizeof(target), " %s+0x%" PRIx64, kTextAnchor, addr - text_base);
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

std::string own_group(int pid) { return std::string(kGroupPrefix) + std::to_string(pid); }

std::optional<int> group_owner(std::string_view group) {
  if (!group.starts_with(kGroupPrefix)) return std::nullopt;
  std::string_view digits = group.substr(kGroupPrefix.size());
  int pid = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
  if (ec != std::errc() || end != digits.data() + digits.size() || pid <= 0) return std::nullopt;
  return pid;
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
    if (std::find(events.begin(), events.end(), name) == events.end()) events.push_back(std::move(name));
  });
  return events;
}

std::optional<KprobeEventsFile> KprobeEventsFile::open(const std::vector<std::string>& tracefs_dirs) {
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
  return retsnoop::run_batched(commands, [this](const std::string& text) { return run(text); }, should_stop);
}

uint64_t KprobeEventsFile::missed_hits(std::string_view prefix) const {
  auto profile = read_text_file(dir_ + "/kprobe_profile");
  return profile ? parse_missed_hits(*profile, prefix) : 0;
}

size_t KprobeEventsFile::remove_stale_events() const {
  auto listing = read_text_file(dir_ + "/kprobe_events");
  if (!listing) return 0;
  size_t removed = 0;
  for (const auto& ev : parse_kprobe_events(*listing)) {
    auto pid = group_owner(ev.group);
    if (!pid || process_alive(*pid)) continue;
    int err = run(event_removal(ev.group, ev.event));
    if (err == 0)
      ++removed;
    else
      logf(LOG_WARN, "cannot remove kprobe event %s/%s left by a retsnoop that died: %s\n",
           ev.group.c_str(), ev.event.c_str(), std::strerror(-err));
  }
  return removed;
}

}  // namespace retsnoop
