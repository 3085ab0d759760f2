#include "attach/expedited_rcu.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace retsnoop {
namespace {

class Knob {
 public:
  explicit Knob(const char* value) { std::ofstream(path_) << value << '\n'; }
  ~Knob() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  std::string value() const {
    std::string v;
    std::ifstream(path_) >> v;
    return v;
  }

 private:
  std::string path_ = "/tmp/rs_rcu_expedited_test." + std::to_string(getpid());
};

TEST(ExpeditedRcu, SwitchesOnAndRestores) {
  Knob knob("0");
  {
    ExpeditedRcu fast(knob.path());
    EXPECT_EQ(knob.value(), "1");
  }
  EXPECT_EQ(knob.value(), "0");
}

// Someone else turned it on: it stays on after us.
TEST(ExpeditedRcu, LeavesAnOnKnobAlone) {
  Knob knob("1");
  { ExpeditedRcu fast(knob.path()); }
  EXPECT_EQ(knob.value(), "1");
}

TEST(ExpeditedRcu, MissingKnobIsNoError) { ExpeditedRcu fast("/nonexistent/rcu_expedited"); }

}  // namespace
}  // namespace retsnoop
