// "Attaching... 1200/20000" on a terminal, rewritten in place, for an attach or detach that runs
// longer than a second. Workers on any thread count finished items; a display thread draws.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>

namespace retsnoop {

struct ProgressDisplay {
  int fd = -1;                            // -1: count silently
  std::chrono::milliseconds delay{1000};  // quiet period: short work shows nothing
  std::chrono::milliseconds period{200};

  // stderr when it is a terminal, else silent: logs and pipes get no carriage returns.
  static ProgressDisplay stderr_if_terminal();
};

class ProgressMeter {
 public:
  // Erase: the line is cleared at the end. KeepLabel: the label stays, so that text printed
  // next continues it ("Detaching... " then "DONE in 12 ms.").
  enum class Finish { Erase, KeepLabel };

  ProgressMeter(std::string label, size_t total, Finish finish, ProgressDisplay display);
  ~ProgressMeter();
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  void advance(size_t n) { done_.fetch_add(n, std::memory_order_relaxed); }
  size_t done() const { return done_.load(std::memory_order_relaxed); }

 private:
  void display_loop(std::stop_token stop);
  void draw(const std::string& text) const;

  const std::string label_;
  const size_t total_;
  const Finish finish_;
  const ProgressDisplay display_;
  std::atomic<size_t> done_{0};
  bool shown_ = false;  // written by the display thread only, read after it joined
  std::jthread thread_;
};

}  // namespace retsnoop
