#include "util/phase_timer.h"

#include <time.h>
#include <unistd.h>

#include <sstream>
#include <string>

#include "util/file_text.h"
#include "util/log.h"

namespace retsnoop {

PhaseTimer::~PhaseTimer() {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                  start_);
  logf(LOG_DEBUG, "phase %s: %.1f ms\n", name_, us.count() / 1000.0);
}

double process_age_s() {
  std::string text = read_text_file("/proc/self/stat").value_or("");
  size_t comm_end = text.rfind(')');  // the command name may hold spaces and parentheses
  if (comm_end == std::string::npos) return 0;
  std::istringstream fields(text.substr(comm_end + 1));
  constexpr int kFieldsBeforeStartTime = 19;  // fields 3 (state) to 21 precede 22 (starttime)
  std::string field;
  for (int i = 0; i < kFieldsBeforeStartTime; ++i) fields >> field;
  unsigned long long start_ticks = 0;
  fields >> start_ticks;
  timespec boot;
  clock_gettime(CLOCK_BOOTTIME, &boot);
  return boot.tv_sec + boot.tv_nsec / 1e9 - double(start_ticks) / sysconf(_SC_CLK_TCK);
}

}  // namespace retsnoop
