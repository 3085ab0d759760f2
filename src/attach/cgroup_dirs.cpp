#include "attach/cgroup_dirs.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include <cerrno>

#include "bpf/abi.h"
#include "util/errno_names.h"
#include "util/error.h"
#include "util/text_escape.h"

namespace retsnoop {
namespace {

CgroupDir open_one(const std::string& path, const char* option) {
  std::string shown = std::string(option) + " " + escaped(path);
  CgroupDir d;
  d.path = path;
  d.fd = OwnedFd(open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!d.fd) throw UserError(shown + ": " + errno_text(errno));
  struct statfs fs {};
  struct stat st {};
  if (fstatfs(d.fd.get(), &fs) || fstat(d.fd.get(), &st))
    throw UserError(shown + ": " + errno_text(errno));
  if (fs.f_type != CGROUP2_SUPER_MAGIC)
    throw UserError(shown + ": not a cgroup-v2 directory",
                    "cgroup v2 is usually mounted at /sys/fs/cgroup");
  d.id = st.st_ino;
  return d;
}

}  // namespace

CgroupDirs open_cgroup_dirs(const std::vector<std::string>& allow,
                            const std::vector<std::string>& deny) {
  if (allow.size() + deny.size() > RS_MAX_CGROUPS)
    throw UserError("at most " + std::to_string(RS_MAX_CGROUPS) +
                    " cgroups with --cgroup and --no-cgroup together");
  CgroupDirs out;
  for (const std::string& p : allow) out.dirs.push_back(open_one(p, "--cgroup"));
  for (const std::string& p : deny) out.dirs.push_back(open_one(p, "--no-cgroup"));
  out.allowed = static_cast<uint32_t>(allow.size());
  return out;
}

}  // namespace retsnoop
