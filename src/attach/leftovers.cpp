#include "attach/leftovers.h"

#include <filesystem>
#include <set>
#include <string>

#include "attach/kprobe_events.h"
#include "attach/shared_knob.h"
#include "discovery/traceable.h"
#include "util/log.h"

namespace retsnoop {

namespace {

// Removes the events of each dead run's group; returns how many went.
size_t remove_dead_events(const KprobeEventsFile& file, const RunStateDir* dir) {
  std::set<std::string> groups;
  for (const EventName& ev : file.events())
    if (group_run_id(ev.group)) groups.insert(ev.group);
  size_t removed = 0;
  for (const std::string& group : groups) {
    std::string id = *group_run_id(group);
    Liveness l = dir ? run_liveness(*dir, id) : Liveness::Unknown;
    if (l == Liveness::Unknown)
      logf(LOG_INFO,
           "leaving kprobe events of %s alone: no retsnoop run here knows of them (another "
           "mount namespace's?)\n",
           group.c_str());
    if (l == Liveness::Dead) removed += file.remove_group(group).removed;
  }
  return removed;
}

// Lock files of dead runs go once their state is gone: a run that left no events (a dry run
// of the attach, a kill before the first event) still leaves its lock file.
void forget_dead_runs(const RunStateDir& dir, const KprobeEventsFile* file) {
  std::set<std::string> with_events;
  if (file)
    for (const EventName& ev : file->events())
      if (auto id = group_run_id(ev.group)) with_events.insert(*id);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path(), ec)) {
    std::optional<std::string> id = lock_file_run_id(entry.path().filename().string());
    if (id && !with_events.contains(*id) && run_liveness(dir, *id) == Liveness::Dead)
      forget_run(dir, *id);
  }
}

}  // namespace

bool remove_leftovers(const std::optional<RunStateDir>& dir) {
  std::optional<KprobeEventsFile> file = KprobeEventsFile::open(kDefaultTracefsDirs);
  if (!dir) {
    if (file) remove_dead_events(*file, nullptr);
    return true;
  }
  auto guard = dir->lock("going on without it; what dead runs left stays");
  if (!guard) return false;
  for (const std::string& line : SharedKnob::recover(*dir, *guard))
    logf(LOG_WARN, "%s\n", line.c_str());
  size_t removed = file ? remove_dead_events(*file, &*dir) : 0;
  if (removed)
    logf(LOG_WARN, "removed %zu kprobe events left behind by retsnoop runs that died\n", removed);
  forget_dead_runs(*dir, file ? &*file : nullptr);
  return true;
}

}  // namespace retsnoop
