#include "symbolize/process_start.h"

#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <string>

#include "util/owned_fd.h"

namespace retsnoop {

std::optional<uint64_t> parse_stat_start_time(std::string_view stat) {
  size_t paren = stat.rfind(')');
  if (paren == std::string_view::npos) return std::nullopt;
  std::string_view rest = stat.substr(paren + 1);
  // After the name: field 3 (state) onwards, so field 22 is the 20th.
  for (int field = 3; field < 22; ++field) {
    size_t sp = rest.find(' ', 1);
    if (rest.empty() || rest[0] != ' ' || sp == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(sp);
  }
  if (rest.empty() || rest[0] != ' ') return std::nullopt;
  rest.remove_prefix(1);
  uint64_t ticks = 0;
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), ticks);
  if (ec != std::errc() || end == rest.data() ||
      (end != rest.data() + rest.size() && *end != ' ' && *end != '\n'))
    return std::nullopt;
  return ticks;
}

std::optional<uint64_t> process_start_time(int proc_dir) {
  OwnedFd fd(openat(proc_dir, "stat", O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  // A stat line is some 300 bytes, its name at most 64.
  char buf[1024];
  ssize_t n = read(fd.get(), buf, sizeof(buf));
  if (n <= 0) return std::nullopt;
  return parse_stat_start_time(std::string_view(buf, size_t(n)));
}

std::optional<uint64_t> process_start_time(uint32_t pid) {
  std::string path = "/proc/" + std::to_string(pid);
  OwnedFd dir(open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir) return std::nullopt;
  return process_start_time(dir.get());
}

}  // namespace retsnoop
