// When a process started, as /proc/PID/stat gives it (field 22, clock ticks since boot): a PID
// names one process only as long as it lives, but a PID and its start time name it for good.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace retsnoop {

// Field 22 of a stat line; nullopt when malformed. The command name (field 2) may hold spaces
// and parentheses: the fields are counted after its last ')'.
std::optional<uint64_t> parse_stat_start_time(std::string_view stat);

// The start time of the process whose /proc directory is proc_dir (an O_PATH descriptor);
// nullopt once it is gone.
std::optional<uint64_t> process_start_time(int proc_dir);

// The same of the process with this PID now.
std::optional<uint64_t> process_start_time(uint32_t pid);

}  // namespace retsnoop
