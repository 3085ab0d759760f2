/* simfail-user: calls libsimfail's failing sf_create_map() through two functions of its own, so
 * that a trace shows the program's frames above the library's and the kernel's. Exits 1 when
 * the call failed, as it should. With "bool", it also asks su_map_ok(), whose false result only
 * its DWARF return type makes a failure. With "sleep", it waits 60 s before it exits, for -p. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libsimfail.h"

__attribute__((noinline)) long su_make_map(void) { return sf_create_map(); }

__attribute__((noinline)) long su_run(void) {
  long fd = su_make_map();

  if (fd >= 0) close((int)fd);
  return fd;
}

__attribute__((noinline)) bool su_map_ok(long fd) { return fd >= 0; }

int main(int argc, char** argv) {
  long res = su_run();

  if (argc > 1 && strcmp(argv[1], "bool") == 0)
    printf("simfail-user: su_map_ok() = %d\n", su_map_ok(res));
  printf("simfail-user: sf_create_map() = %ld\n", res);
  if (argc > 1 && strcmp(argv[1], "sleep") == 0) {
    fflush(stdout);
    sleep(60);
  }
  return res < 0 ? 1 : 0;
}
