#pragma once

namespace retsnoop {

// libbpf never prints on its own: its messages go through our log levels (warnings with -v,
// info with -vv, debug with -vvv), so a normal run shows only retsnoop's own one-line errors.
void route_libbpf_logs();

}  // namespace retsnoop
