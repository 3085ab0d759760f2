// rs-flock PATH SECONDS: takes an exclusive flock on PATH (a file or a directory), prints
// "locked PATH" once it holds it, and keeps it for SECONDS. Run through rs-runas, it plays another
// user who holds retsnoop's run state lock; the busybox guest has no flock applet.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: rs-flock PATH SECONDS\n");
    return 2;
  }
  int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    std::fprintf(stderr, "rs-flock: cannot open %s: %s\n", argv[1], std::strerror(errno));
    return 1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    std::fprintf(stderr, "rs-flock: cannot lock %s: %s\n", argv[1], std::strerror(errno));
    return 1;
  }
  std::printf("locked %s\n", argv[1]);
  std::fflush(stdout);
  sleep(unsigned(std::strtoul(argv[2], nullptr, 10)));
  return 0;
}
