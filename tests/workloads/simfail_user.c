/* simfail-user: calls libsimfail's failing sf_create_map() through two functions of its own, so
 * that a trace shows the program's frames above the library's and the kernel's. Exits 1 when
 * the call failed, as it should. */
#include <stdio.h>
#include <unistd.h>

#include "libsimfail.h"

__attribute__((noinline)) long su_make_map(void) { return sf_create_map(); }

__attribute__((noinline)) long su_run(void) {
  long fd = su_make_map();

  if (fd >= 0) close((int)fd);
  return fd;
}

int main(void) {
  long res = su_run();

  printf("simfail-user: sf_create_map() = %ld\n", res);
  return res < 0 ? 1 : 0;
}
