#include "util/fault_injection.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace retsnoop {

namespace {

std::string_view point_name(FaultPoint p) {
  switch (p) {
    case FaultPoint::Attach: return "attach";
    case FaultPoint::Detach: return "detach";
    case FaultPoint::ThreadStart: return "thread-start";
    case FaultPoint::SymbolizerCrash: return "symbolizer-crash";
    case FaultPoint::SymbolizerHang: return "symbolizer-hang";
    case FaultPoint::CommandStop: return "command-stop";
  }
  return {};
}

// Each point fails once per process: the cleanup that follows a failure goes through the same
// code again (a destructor detaching what an interrupted detach left) and must then succeed.
std::atomic<unsigned> fired_points{0};

}  // namespace

bool fault_wanted(FaultPoint p) {
  const char* wanted = std::getenv("RETSNOOP_TEST_FAULT");
  unsigned bit = 1u << unsigned(p);
  return wanted && point_name(p) == wanted && !(fired_points.fetch_or(bit) & bit);
}

void inject_fault(FaultPoint p) {
  if (!fault_wanted(p)) return;
  if (p == FaultPoint::ThreadStart)
    throw std::system_error(EAGAIN, std::generic_category(), "injected fault: thread start");
  throw std::runtime_error("injected fault in " + std::string(point_name(p)));
}

}  // namespace retsnoop
