#include "attach/expedited_rcu.h"

#include <fstream>

#include "util/log.h"

namespace retsnoop {

namespace {

bool write_knob(const std::string& path, char value) {
  std::ofstream out(path);
  out << value << '\n';
  out.close();
  return !out.fail();
}

}  // namespace

ExpeditedRcu::ExpeditedRcu(std::string knob) : knob_(std::move(knob)) {
  char current = 0;
  if (!(std::ifstream(knob_) >> current) || current != '0') return;
  switched_on_ = write_knob(knob_, '1');
  if (switched_on_) logf(LOG_DEBUG, "%s: expedited RCU grace periods on\n", knob_.c_str());
}

ExpeditedRcu::~ExpeditedRcu() {
  if (switched_on_ && !write_knob(knob_, '0'))
    logf(LOG_WARN, "%s: cannot restore 0, expedited RCU grace periods stay on\n", knob_.c_str());
}

}  // namespace retsnoop
