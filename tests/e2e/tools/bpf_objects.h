// The BPF programs and links the kernel holds right now, enumerated by id the way bpftool does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace leakcheck {

struct BpfProg {
  uint32_t id;
  std::string type;
  std::string name;
};

struct BpfLink {
  uint32_t id;
  std::string type;
  uint32_t prog_id;
};

// Both throw std::system_error when the kernel refuses to enumerate (e.g. without CAP_SYS_ADMIN):
// a check that cannot look must not report "clean".
std::vector<BpfProg> loaded_progs();
std::vector<BpfLink> active_links();

}  // namespace leakcheck
