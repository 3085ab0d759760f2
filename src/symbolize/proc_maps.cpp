#include "symbolize/proc_maps.h"

#include <sys/sysmacros.h>

#include <cinttypes>
#include <cstdio>
#include <string>

namespace retsnoop {

namespace {

constexpr std::string_view kDeleted = " (deleted)";

// "start-end perms offset major:minor inode   path"
bool parse_line(const std::string& line, MappedRange& out) {
  uint64_t start, end, offset, inode;
  unsigned major, minor;
  int path_at = 0;
  if (std::sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %x:%x %" SCNu64 " %n",
                  &start, &end, &offset, &major, &minor, &inode, &path_at) != 6 ||
      path_at == 0 || line[path_at] != '/')
    return false;
  std::string path = line.substr(path_at);
  if (path.ends_with(kDeleted)) path.resize(path.size() - kDeleted.size());
  out = MappedRange{start, end, offset, makedev(major, minor), inode, std::move(path)};
  return true;
}

}  // namespace

std::vector<MappedRange> parse_proc_maps(std::string_view text) {
  std::vector<MappedRange> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    MappedRange range;
    if (parse_line(std::string(text.substr(pos, eol - pos)), range))
      out.push_back(std::move(range));
    pos = eol + 1;
  }
  return out;
}

}  // namespace retsnoop
