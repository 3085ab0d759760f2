/* A small shared library whose one call fails in the kernel, for tracing user-space functions
 * down into the kernel: sf_create_map() asks for an array map of no entries. */
#ifndef SIMFAIL_LIBSIMFAIL_H
#define SIMFAIL_LIBSIMFAIL_H

/* bpf(BPF_MAP_CREATE) of an array map with max_entries 0: the new fd, or -errno (-EINVAL). */
long sf_create_map(void);

#endif
