#pragma once

namespace retsnoop {

// libbpf never prints on its own: its messages go through our log levels (warnings with -v,
// info with -vv, debug with -vvv), so a normal run shows only retsnoop's own one-line errors.
// all: every message whatever the verbosity (--debug bpf), the verifier's log of a refused
// program included.
void route_libbpf_logs(bool all = false);

}  // namespace retsnoop
