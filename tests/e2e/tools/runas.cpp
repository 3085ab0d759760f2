// rs-runas UID CMD [ARGS...]: runs CMD as an unprivileged user with no capabilities and no
// supplementary groups, so end-to-end cases can check how retsnoop treats missing privileges.
// The busybox guest has no su/setpriv that can switch users.
#include <grp.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: rs-runas UID CMD [ARGS...]\n");
    return 2;
  }
  char* end = nullptr;
  long uid = std::strtol(argv[1], &end, 10);
  if (*end || uid <= 0) {
    std::fprintf(stderr, "rs-runas: bad uid '%s'\n", argv[1]);
    return 2;
  }
  if (setgroups(0, nullptr) || setgid(uid) || setuid(uid)) {
    std::fprintf(stderr, "rs-runas: cannot switch to uid %ld: %s\n", uid, std::strerror(errno));
    return 2;
  }
  execvp(argv[2], argv + 2);
  std::fprintf(stderr, "rs-runas: cannot run %s: %s\n", argv[2], std::strerror(errno));
  return 127;
}
