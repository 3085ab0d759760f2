#include "bpf_objects.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>
#include <system_error>

namespace leakcheck {
namespace {

using NextIdFn = int (*)(uint32_t start_id, uint32_t* next_id);
using FdByIdFn = int (*)(uint32_t id);

[[noreturn]] void fail(int neg_err, std::string_view what) {
  throw std::system_error(-neg_err, std::generic_category(), std::string(what));
}

std::string type_name(const char* name, uint32_t type) {
  return name ? name : "type " + std::to_string(type);
}

// Infos of every object of one kind. An object unloaded between "next id" and "open by id" is
// simply gone and skipped.
template <typename Info>
std::vector<Info> object_infos(NextIdFn next_id, FdByIdFn fd_by_id, std::string_view kind) {
  std::vector<Info> infos;
  uint32_t id = 0;
  for (;;) {
    int err = next_id(id, &id);
    if (err == -ENOENT) return infos;
    if (err) fail(err, std::string("cannot list BPF ") + std::string(kind));
    int fd = fd_by_id(id);
    if (fd == -ENOENT) continue;
    if (fd < 0) fail(fd, std::string("cannot open BPF ") + std::string(kind) + " " + std::to_string(id));
    Info info{};
    uint32_t len = sizeof(info);
    err = bpf_obj_get_info_by_fd(fd, &info, &len);
    close(fd);
    if (err) fail(err, std::string("cannot query BPF ") + std::string(kind) + " " + std::to_string(id));
    infos.push_back(info);
  }
}

}  // namespace

std::vector<BpfProg> loaded_progs() {
  std::vector<BpfProg> progs;
  for (const auto& info :
       object_infos<bpf_prog_info>(bpf_prog_get_next_id, bpf_prog_get_fd_by_id, "program")) {
    auto type = static_cast<bpf_prog_type>(info.type);
    progs.push_back({info.id, type_name(libbpf_bpf_prog_type_str(type), info.type), info.name});
  }
  return progs;
}

std::vector<BpfLink> active_links() {
  std::vector<BpfLink> links;
  for (const auto& info :
       object_infos<bpf_link_info>(bpf_link_get_next_id, bpf_link_get_fd_by_id, "link")) {
    auto type = static_cast<bpf_link_type>(info.type);
    links.push_back({info.id, type_name(libbpf_bpf_link_type_str(type), info.type), info.prog_id});
  }
  return links;
}

}  // namespace leakcheck
