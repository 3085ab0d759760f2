#include "attach/knob_override.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "util/log.h"
#include "util/process_alive.h"

namespace retsnoop {

namespace {

bool write_knob(int fd, char value) {
  const char text[2] = {value, '\n'};
  return pwrite(fd, text, sizeof(text), 0) == static_cast<ssize_t>(sizeof(text));
}

bool write_knob(const std::string& path, char value) {
  OwnedFd fd(open(path.c_str(), O_WRONLY | O_CLOEXEC));
  return fd && write_knob(fd.get(), value);
}

char read_knob(const std::string& path) {
  char value = 0;
  std::ifstream(path) >> value;
  return value;
}

// "<knob file name>.<pid>", holding "<knob path> <from> <to>".
std::string marker_name(const std::string& knob, int pid) {
  return std::filesystem::path(knob).filename().string() + "." + std::to_string(pid);
}

int marker_pid(const std::string& name) {
  size_t dot = name.rfind('.');
  int pid = 0;
  if (dot == std::string::npos) return 0;
  std::from_chars(name.data() + dot + 1, name.data() + name.size(), pid);
  return pid;
}

}  // namespace

KnobOverride::KnobOverride(KnobChange change, std::string marker_dir) : change_(std::move(change)) {
  if (read_knob(change_.knob) != change_.from) return;
  // Opened now: setting it back must not need a file descriptor, which may have run out by then.
  knob_fd_ = OwnedFd(open(change_.knob.c_str(), O_WRONLY | O_CLOEXEC));
  if (!knob_fd_) return;
  std::error_code ec;
  std::filesystem::create_directories(marker_dir, ec);
  marker_ = marker_dir + "/" + marker_name(change_.knob, getpid());
  if (!(std::ofstream(marker_) << change_.knob << ' ' << change_.from << ' ' << change_.to << '\n')) {
    logf(LOG_DEBUG, "%s: cannot write %s, leaving it alone\n", change_.knob.c_str(), marker_.c_str());
    return;
  }
  switched_ = write_knob(knob_fd_.get(), change_.to);
  if (switched_)
    logf(LOG_DEBUG, "%s: %s on\n", change_.knob.c_str(), change_.what.c_str());
  else
    std::filesystem::remove(marker_, ec);
}

KnobOverride::~KnobOverride() {
  if (!switched_) return;
  if (write_knob(knob_fd_.get(), change_.from))
    logf(LOG_DEBUG, "%s: %s off\n", change_.knob.c_str(), change_.what.c_str());
  else
    logf(LOG_WARN, "%s: cannot restore %c, %s stays on\n", change_.knob.c_str(), change_.from,
         change_.what.c_str());
  std::error_code ec;
  std::filesystem::remove(marker_, ec);
}

size_t KnobOverride::recover(const std::string& marker_dir) {
  std::error_code ec;
  size_t restored = 0;
  for (const auto& entry : std::filesystem::directory_iterator(marker_dir, ec)) {
    int pid = marker_pid(entry.path().filename());
    if (pid <= 0 || process_alive(pid)) continue;
    std::string knob;
    char from = 0, to = 0;
    if ((std::ifstream(entry.path()) >> knob >> from >> to) && read_knob(knob) == to &&
        write_knob(knob, from)) {
      logf(LOG_WARN, "restored %s to %c, left at %c by retsnoop (pid %d) that died\n", knob.c_str(),
           from, to, pid);
      ++restored;
    }
    std::filesystem::remove(entry.path(), ec);
  }
  return restored;
}

}  // namespace retsnoop
