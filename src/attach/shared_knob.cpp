#include "attach/shared_knob.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "util/log.h"
#include "util/regular_file.h"

namespace retsnoop {

namespace {

constexpr std::string_view kStateSuffix = ".knob";
constexpr std::string_view kTempSuffix = ".new";

bool write_knob(int fd, char value) {
  const char text[2] = {value, '\n'};
  return pwrite(fd, text, sizeof(text), 0) == static_cast<ssize_t>(sizeof(text));
}

bool write_knob(const std::string& path, char value) {
  OwnedFd fd(open(path.c_str(), O_WRONLY | O_CLOEXEC));
  return fd && write_knob(fd.get(), value);
}

char read_knob(const std::string& path) {
  OwnedFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  char value = 0;
  if (!fd || read(fd.get(), &value, 1) != 1) return 0;
  return value;
}

std::string state_name(const std::string& knob) {
  return std::filesystem::path(knob).filename().string() + std::string(kStateSuffix);
}

std::optional<KnobState> read_state(const RunStateDir& dir, const std::string& name) {
  OwnedFd fd = dir.open_file(name);
  if (!fd) return std::nullopt;
  // A few lines; anything longer than a page is not ours.
  std::optional<std::string> text = read_at_most(fd.get(), 4096);
  return text ? parse_knob_state(*text) : std::nullopt;
}

// A temporary file a killed run left is replaced, never written through.
bool write_new_file(const RunStateDir& dir, const std::string& name, const std::string& text) {
  unlinkat(dir.fd(), name.c_str(), 0);
  OwnedFd fd = dir.create_file(name);
  return fd && write(fd.get(), text.data(), text.size()) == ssize_t(text.size());
}

// Written aside and renamed over the old state: a write that fails half way (a full /run) must
// leave the other holders' record as it was, or their change would outlive them unrecorded.
// Called under the directory lock, which makes the temporary name this run's alone.
bool write_state(const RunStateDir& dir, const std::string& name, const KnobState& s) {
  std::string temp = name + std::string(kTempSuffix);
  if (write_new_file(dir, temp, render_knob_state(s)) &&
      renameat(dir.fd(), temp.c_str(), dir.fd(), name.c_str()) == 0)
    return true;
  int err = errno;
  unlinkat(dir.fd(), temp.c_str(), 0);
  logf(LOG_WARN, "cannot write %s/%s: %s\n", dir.path().c_str(), name.c_str(), std::strerror(err));
  return false;
}

void remove_state(const RunStateDir& dir, const std::string& name) {
  unlinkat(dir.fd(), name.c_str(), 0);
}

void drop_dead_holders(const RunStateDir& dir, KnobState& s) {
  std::erase_if(s.holders,
                [&](const std::string& id) { return run_liveness(dir, id) != Liveness::Alive; });
}

// A state whose holders all died: sets the knob back unless somebody changed it since. Call
// under the directory lock. Returns a line saying what it did, empty when nothing.
std::string settle_orphaned(const RunStateDir& dir, const std::string& name, const KnobState& s) {
  remove_state(dir, name);
  const KnobChange& c = s.change;
  if (read_knob(c.knob) != c.to || !write_knob(c.knob, c.from)) return {};
  return "restored " + c.knob + " to " + c.from + ", left at " + c.to +
         " by a retsnoop run that died";
}

}  // namespace

KnobChange rcu_expedited_change(std::string knob) {
  return {std::move(knob), '0', '1', "expedited RCU grace periods"};
}

std::string render_knob_state(const KnobState& s) {
  std::string out = s.change.knob + ' ' + s.change.from + ' ' + s.change.to + '\n';
  for (const std::string& id : s.holders) out += id + '\n';
  return out;
}

std::optional<KnobState> parse_knob_state(std::string_view text) {
  std::istringstream in{std::string(text)};
  KnobState s;
  std::string from, to;
  if (!(in >> s.change.knob >> from >> to) || from.size() != 1 || to.size() != 1)
    return std::nullopt;
  s.change.from = from[0];
  s.change.to = to[0];
  for (std::string id; in >> id;) {
    if (!is_run_id(id)) return std::nullopt;
    s.holders.push_back(id);
  }
  return s;
}

SharedKnob::SharedKnob(KnobChange change, const RunStateDir& dir, const RunLock& run)
    : change_(std::move(change)), dir_(dir), run_id_(run.id()) {
  if (!run.registered()) return;
  knob_fd_ = OwnedFd(open(change_.knob.c_str(), O_WRONLY | O_CLOEXEC));
  if (!knob_fd_) return;
  auto guard = dir_.lock("not changing " + change_.knob);
  if (!guard) return;
  std::string name = state_name(change_.knob);
  std::optional<KnobState> state = read_state(dir_, name);
  if (state) drop_dead_holders(dir_, *state);
  if (state && state->holders.empty()) {
    std::string restored = settle_orphaned(dir_, name, *state);
    if (!restored.empty()) logf(LOG_WARN, "%s\n", restored.c_str());
    state.reset();
  }
  char now = read_knob(change_.knob);
  bool flipped = !state;
  if (state) {
    // Another run holds the change; join it unless somebody else set the knob since.
    if (now != change_.to) return;
  } else {
    if (now != change_.from || !write_knob(knob_fd_.get(), change_.to)) return;
    state = KnobState{change_, {}};
    logf(LOG_DEBUG, "%s: %s on\n", change_.knob.c_str(), change_.what.c_str());
  }
  state->holders.push_back(run_id_);
  // Unrecorded, the change would outlive this run if it died: no later run could know to undo
  // it. So it is not held, and a change of our own is undone at once.
  if (!write_state(dir_, name, *state)) {
    if (flipped) write_knob(knob_fd_.get(), change_.from);
    return;
  }
  holding_ = true;
}

SharedKnob::~SharedKnob() {
  if (!holding_) return;
  // Left to the next run, which finds this run's record and this run gone.
  auto guard = dir_.lock(change_.knob + " stays at " + change_.to + " until the next run");
  if (!guard) return;
  std::string name = state_name(change_.knob);
  KnobState state = read_state(dir_, name).value_or(KnobState{change_, {}});
  std::erase(state.holders, run_id_);
  drop_dead_holders(dir_, state);
  if (!state.holders.empty()) {
    write_state(dir_, name, state);
    return;
  }
  remove_state(dir_, name);
  if (read_knob(change_.knob) != change_.to) return;  // somebody else's value now
  if (write_knob(knob_fd_.get(), change_.from))
    logf(LOG_DEBUG, "%s: %s off\n", change_.knob.c_str(), change_.what.c_str());
  else
    logf(LOG_WARN, "%s: cannot restore %c, %s stay on\n", change_.knob.c_str(), change_.from,
         change_.what.c_str());
}

std::vector<std::string> SharedKnob::recover(const RunStateDir& dir, const RunStateDir::Guard&) {
  std::vector<std::string> restored;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path(), ec)) {
    std::string name = entry.path().filename();
    if (!name.ends_with(kStateSuffix)) continue;
    std::optional<KnobState> state = read_state(dir, name);
    if (!state) {
      remove_state(dir, name);
      continue;
    }
    drop_dead_holders(dir, *state);
    if (!state->holders.empty()) continue;
    std::string line = settle_orphaned(dir, name, *state);
    if (!line.empty()) restored.push_back(line);
  }
  return restored;
}

}  // namespace retsnoop
