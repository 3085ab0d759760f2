// Kprobe events in tracefs (kprobe_events): the commands that add probes to an event and remove
// events, and the file they are written to. An event may hold many probes; one perf event and one
// BPF attachment then serve all of them, which is what makes single kprobes fast to take off:
// every perf event that goes away costs RCU and tasks-trace RCU grace periods under global
// mutexes (6.1: perf_event_detach_bpf_prog, perf_trace_event_unreg), once per event instead of
// once per probe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/owned_fd.h"

namespace retsnoop {

enum class ProbeKind { Entry, Return };

// The kernel symbol probe definitions are relative to, and its address.
struct TextAnchor {
  std::string name;
  uint64_t addr = 0;
};

// The start of the kernel text as kallsyms names it: "_text" on x86-64, "_stext" where _text is
// not listed (arm64 6.1); nullopt when neither is known.
std::optional<TextAnchor> find_text_anchor(const std::function<uint64_t(const char*)>& addr_of);

// "p:GROUP/EVENT ANCHOR+0xOFFSET" (or "r:" for a return probe): adds a probe on the function at
// addr to the event, creating the event with its first probe. Not by name: static functions
// share names. Not by address: the kernel takes every address probe of one event for the same
// probe ("unknown" symbol, offset 0) and refuses the second.
std::string probe_definition(ProbeKind kind, std::string_view group, std::string_view event,
                             const TextAnchor& anchor, uint64_t addr);

// Writes one text to kprobe_events: 0 or the kernel's negative errno.
using CommandWriter = std::function<int(const std::string& text)>;

// Runs commands that each define a new probe, several per write; returns 0 or the negative
// errno per command run, in order: fewer than commands when should_stop() turned true (polled
// between writes; a definition waits for the kernel to look the symbol up and allocate the
// probe, and thousands of them add up to seconds). The
// kernel applies a write's lines in order and stops at the first it refuses without saying
// which: the lines of a refused write are run again one by one, where a probe the refused write
// did define answers EEXIST (an event refuses an exact duplicate) and counts as defined.
std::vector<int> run_batched(const std::vector<std::string>& commands, const CommandWriter& write,
                             const std::function<bool()>& should_stop);

// "-:GROUP/EVENT": removes the event and every probe it holds.
std::string event_removal(std::string_view group, std::string_view event);

// The group of a run's events: "retsnoop_RUNID" (attach/run_registry.h), so that concurrent
// runs never share one, in any PID namespace, and the events of a run killed before cleaning
// up are recognized by its dead run id.
std::string run_group(std::string_view run_id);
// The run id of a "retsnoop_RUNID" group; nullopt for any other group.
std::optional<std::string> group_run_id(std::string_view group);

struct EventName {
  std::string group;
  std::string event;
  bool operator==(const EventName&) const = default;
};

// Missed hits (the third column) summed over the events of a kprobe_profile listing whose name
// starts with prefix; the kernel counts them for every kprobe event, return probes' exhausted
// instances included.
uint64_t parse_missed_hits(std::string_view profile, std::string_view prefix);

// The distinct events of a kprobe_events listing ("p:grp/ev addr ...", "r16:grp/ev ..."), in
// order of first appearance.
std::vector<EventName> parse_kprobe_events(std::string_view text);

// The kprobe_events file of the first tracefs directory that has a writable one.
class KprobeEventsFile {
 public:
  // nullopt when no tracefs directory offers it (not mounted, not root, no CONFIG_KPROBE_EVENTS).
  static std::optional<KprobeEventsFile> open(const std::vector<std::string>& tracefs_dirs);
  // Runs one command; 0 or the kernel's negative errno.
  int run(const std::string& command) const;
  // run_batched() on this file.
  std::vector<int> run_batched(const std::vector<std::string>& commands,
                               const std::function<bool()>& should_stop) const;
  // Missed hits of the events named prefix*; 0 when kprobe_profile is unreadable.
  uint64_t missed_hits(std::string_view prefix) const;
  // The events listed now; empty when the listing is unreadable.
  std::vector<EventName> events() const;
  // Removes every listed event of group; logs those that stay.
  struct GroupRemoval {
    size_t removed = 0;
    bool complete = true;  // no event of the group stays, as far as the listing tells
  };
  GroupRemoval remove_group(std::string_view group) const;

 private:
  KprobeEventsFile(std::string dir, OwnedFd fd) : dir_(std::move(dir)), fd_(std::move(fd)) {}

  std::string dir_;
  OwnedFd fd_;
};

}  // namespace retsnoop
