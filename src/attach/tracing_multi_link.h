// Tracing multi links (Linux 7.2): one fentry or fexit program, loaded with a multi attach type
// and no target, on many kernel functions named by their vmlinux BTF ids, each call getting its
// function's cookie. They are newer than the UAPI headers of the libbpf retsnoop builds with, so
// the link is created through the bpf() system call, with the attributes laid out as the
// kernel's union bpf_attr has them.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <span>

namespace retsnoop {

// The attach types, as the kernel's enum bpf_attach_type numbers them.
constexpr auto kTraceFentryMulti = static_cast<bpf_attach_type>(59);
constexpr auto kTraceFexitMulti = static_cast<bpf_attach_type>(60);

// A link of prog_fd, loaded with attach type type, on the functions of btf_ids; cookies[i] is
// the cookie of btf_ids[i] (both spans have the same size). Returns the link's fd or -errno.
int create_tracing_multi_link(int prog_fd, bpf_attach_type type, std::span<const uint32_t> btf_ids,
                              std::span<const uint64_t> cookies);

}  // namespace retsnoop
