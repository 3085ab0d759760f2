// Failures on demand, for the end-to-end tests of the paths that must clean up after them:
// RETSNOOP_TEST_FAULT names the point that fails ("attach", "detach", "thread-start",
// "symbolizer-crash", "symbolizer-hang" or "command-stop"). Each
// point sits where probes are already in the kernel, so that the test proves they come off.
// Only the end-to-end tests' binary and the unit tests read the variable
// (faults/faults_from_env.cpp); the release binary links faults/faults_off.cpp.
#pragma once

namespace retsnoop {

enum class FaultPoint {
  Attach,       // after the first probes are attached: an internal error
  Detach,       // inside a detach task: an internal error while taking probes off
  ThreadStart,  // starting a thread fails as it does at a task limit (EAGAIN)
  // The user-space symbolizer worker crashes, or hangs, on the next file it is sent (it is told
  // to, in place of the load): that file's frames must stay raw, and the next file be read.
  SymbolizerCrash,
  SymbolizerHang,
  // Command mode's child stops itself (SIGSTOP) after it became the command's user, before its
  // exec, as that user could make it: starting the command must still end at a stop or deadline.
  CommandStop,
};

// Throws the failure of point p when the environment asks for it, the first time only;
// otherwise does nothing.
void inject_fault(FaultPoint p);
// Whether the environment asks for point p, true the first time only: for the points whose
// failure is not an exception.
bool fault_wanted(FaultPoint p);

}  // namespace retsnoop
