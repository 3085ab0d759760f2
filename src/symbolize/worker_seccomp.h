// The system calls the symbolizer worker may make once it reads untrusted files: what libelf,
// libdw, the demangler, malloc and the worker protocol need, and nothing that reaches beyond the
// descriptors it holds (no socket, no exec, no new process, no file opened by path).
#pragma once

namespace retsnoop {

// Installs the filter for the rest of the process's life. Calls outside the list kill the
// process (SIGSYS): a correct worker never makes them, so one that does has been taken over by a
// file, and the parent already treats a dead worker as the loss of that file's frames. Calls
// that name a path (open, readlink, ...) fail with EACCES instead: libdw tries them for split
// DWARF and alternate debug files, and goes on without. Needs no_new_privs. 0 or -errno.
int install_worker_seccomp();

}  // namespace retsnoop
