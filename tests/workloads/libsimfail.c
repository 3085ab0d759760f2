#include "libsimfail.h"

#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* noinline: each is a function of its own in the symbol table, a uprobe target. */
static __attribute__((noinline)) long sf_map_syscall(union bpf_attr* attr) {
  long fd = syscall(SYS_bpf, BPF_MAP_CREATE, attr, sizeof(*attr));

  return fd < 0 ? -errno : fd;
}

long sf_create_map(void) {
  union bpf_attr attr;

  memset(&attr, 0, sizeof(attr));
  attr.map_type = BPF_MAP_TYPE_ARRAY;
  attr.key_size = 4;
  attr.value_size = 4;
  attr.max_entries = 0;
  return sf_map_syscall(&attr);
}
