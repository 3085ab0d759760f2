// The process that reads user-space ELF and DWARF for -U. Those files are any user's, and
// libelf, libdw and the demangler trust them more than they should: here a crash or a hang
// costs the frames of one file, and the worker reads them as nobody, without capabilities,
// with its resources limited (worker_sandbox.h). retsnoop starts it by running its own binary
// again with kWorkerFlag (worker_client.h), and sends it descriptors it opened itself.
#pragma once

namespace retsnoop {

// argv[1] of the worker; argv[2] is the parent's pid.
inline constexpr const char* kWorkerFlag = "--internal-symbolizer-worker";
// The worker's socket, as the parent hands it over.
inline constexpr int kWorkerSocketFd = 3;

// True when argv starts the worker rather than a trace.
bool is_worker_invocation(int argc, char** argv);
// The worker's main(): answers requests on kWorkerSocketFd until its parent closes it. Returns
// the exit status.
int symbolizer_worker_main(int argc, char** argv);

}  // namespace retsnoop
