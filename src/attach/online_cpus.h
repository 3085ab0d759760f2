// The CPUs the kernel has online, for per-CPU kernel objects such as perf events.
#pragma once

#include <string_view>
#include <vector>

namespace retsnoop {

// Parses the kernel's CPU list format ("0-3,6,8-9\n", as in /sys/devices/system/cpu/online)
// into ascending CPU numbers. Throws UserError on anything else.
std::vector<int> parse_cpu_list(std::string_view text);

// The CPUs online now. CPUs brought online later are not covered.
std::vector<int> online_cpus();

}  // namespace retsnoop
