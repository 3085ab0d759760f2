#include "bpf_objects.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace leakcheck {
namespace {

using NextIdFn = int (*)(uint32_t start_id, uint32_t* next_id);
using FdByIdFn = int (*)(uint32_t id);

[[noreturn]] void fail(int neg_err, const std::string& what) {
  throw std::system_error(-neg_err, std::generic_category(), what);
}

std::string type_name(const char* name, uint32_t type) {
  return name ? name : "type " + std::to_string(type);
}

BpfProg to_prog(const bpf_prog_info& info) {
  auto type = static_cast<bpf_prog_type>(info.type);
  return {info.id, type_name(libbpf_bpf_prog_type_str(type), info.type), info.name};
}

BpfLink to_link(const bpf_link_info& info) {
  auto type = static_cast<bpf_link_type>(info.type);
  return {info.id, type_name(libbpf_bpf_link_type_str(type), info.type), info.prog_id};
}

// Every object of one kind, converted from its info. An object unloaded between "next id" and
// "open by id" is simply gone and skipped.
template <typename Info, typename Out>
std::vector<Out> collect(NextIdFn next_id, FdByIdFn fd_by_id, const std::string& kind,
                         Out (*convert)(const Info&)) {
  std::vector<Out> objects;
  uint32_t id = 0;
  for (;;) {
    int err = next_id(id, &id);
    if (err == -ENOENT) return objects;
    if (err) fail(err, "cannot list BPF " + kind + "s");
    int fd = fd_by_id(id);
    if (fd == -ENOENT) continue;
    if (fd < 0) fail(fd, "cannot open BPF " + kind + " " + std::to_string(id));
    Info info{};
    uint32_t len = sizeof(info);
    err = bpf_obj_get_info_by_fd(fd, &info, &len);
    close(fd);
    if (err) fail(err, "cannot query BPF " + kind + " " + std::to_string(id));
    objects.push_back(convert(info));
  }
}

}  // namespace

std::vector<BpfProg> loaded_progs() {
  return collect(bpf_prog_get_next_id, bpf_prog_get_fd_by_id, "program", to_prog);
}

std::vector<BpfLink> active_links() {
  return collect(bpf_link_get_next_id, bpf_link_get_fd_by_id, "link", to_link);
}

}  // namespace leakcheck
