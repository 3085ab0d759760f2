#include "symbolize/proc_maps.h"

#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>

namespace retsnoop {

namespace {

constexpr std::string_view kDeleted = " (deleted)";

// Takes the number at the start of s, in base, and the separator that must follow it.
bool take_number(std::string_view& s, uint64_t& out, int base, char sep) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  if (ec != std::errc() || end == s.data() + s.size() || *end != sep) return false;
  s.remove_prefix(size_t(end - s.data()) + 1);
  return true;
}

// Takes the field at the start of s and the space after it.
bool take_field(std::string_view& s, std::string_view& out) {
  size_t sp = s.find(' ');
  if (sp == std::string_view::npos || sp == 0) return false;
  out = s.substr(0, sp);
  s.remove_prefix(sp + 1);
  return true;
}

// "start-end perms offset major:minor inode   path", the path cut when cut is set.
bool parse_line(std::string_view s, bool cut, MapsEntry& out) {
  std::string_view perms;
  uint64_t major, minor;
  if (!take_number(s, out.start, 16, '-') || !take_number(s, out.end, 16, ' ') ||
      !take_field(s, perms) || !take_number(s, out.file_offset, 16, ' ') ||
      !take_number(s, major, 16, ':') || !take_number(s, minor, 16, ' ') ||
      !take_number(s, out.inode, 10, ' '))
    return false;
  if (perms.size() < 3 || perms[2] != 'x') return false;
  size_t path_at = s.find_first_not_of(' ');
  if (path_at == std::string_view::npos || s[path_at] != '/') return false;
  s.remove_prefix(path_at);
  if (!cut && s.ends_with(kDeleted)) s.remove_suffix(kDeleted.size());
  out.dev = makedev(unsigned(major), unsigned(minor));
  out.path = s.substr(0, ProcMapsParser::kMaxPath);
  out.path_cut = cut || s.size() > ProcMapsParser::kMaxPath;
  return true;
}

}  // namespace

bool ProcMapsParser::end_line(const MapsEntryHandler& on_entry) {
  MapsEntry entry;
  if (parse_line(line_, line_cut_, entry) && !on_entry(entry)) stopped_ = true;
  line_.clear();
  line_cut_ = false;
  return !stopped_;
}

bool ProcMapsParser::feed(std::string_view text, const MapsEntryHandler& on_entry) {
  while (!stopped_ && !text.empty()) {
    size_t nl = text.find('\n');
    std::string_view part = text.substr(0, nl);
    size_t room = kMaxLine - line_.size();
    if (part.size() > room) line_cut_ = true;
    line_.append(part.substr(0, room));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
    end_line(on_entry);
  }
  return !stopped_;
}

void ProcMapsParser::finish() {
  line_.clear();
  line_cut_ = false;
}

int read_proc_maps(int fd, const MapsEntryHandler& on_entry) {
  ProcMapsParser parser;
  char buf[64 << 10];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -errno;
    if (n == 0 || !parser.feed(std::string_view(buf, size_t(n)), on_entry)) break;
  }
  parser.finish();
  return 0;
}

}  // namespace retsnoop
