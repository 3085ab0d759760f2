// The named cases of the reproducer. Each makes one kernel call fail, or
// succeed, in a known way, so that a trace of it has a known shape.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace simfail {

// Kernel objects a case created. They stay open as long as this lives, so --hold can keep a
// program loaded while a leak check or a tracer looks at it.
class Objects {
 public:
  Objects() = default;
  Objects(const Objects&) = delete;
  Objects& operator=(const Objects&) = delete;
  ~Objects();

  void keep(int fd) { fds_.push_back(fd); }

 private:
  std::vector<int> fds_;
};

struct Outcome {
  int err = 0;                         // errno of the call under test, 0 when it succeeded
  const char* setup_failed = nullptr;  // the preparatory call that failed instead, if any
};

struct Case {
  const char* name;
  const char* description;
  bool should_fail;
  Outcome (*run)(Objects& objects);
};

std::span<const Case> all_cases();
const Case* find_case(std::string_view name);

}  // namespace simfail
