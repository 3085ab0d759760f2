// Holds a background task between its steps while more urgent work runs. Under emulation a
// background thread takes CPU time from the main thread even on another CPU: reading the rest of
// kallsyms after attaching slowed a detach that came at once.
#pragma once

#include <condition_variable>
#include <mutex>

namespace retsnoop {

class PauseGate {
 public:
  // Paused from construction to destruction: the gate opens again whichever way the urgent work
  // ends, so a task waiting at it always finishes.
  class Hold {
   public:
    explicit Hold(PauseGate& gate) : gate_(gate) { gate_.set(true); }
    ~Hold() { gate_.set(false); }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

   private:
    PauseGate& gate_;
  };

  // Called by the task between steps: returns at once unless held, else when the hold ends.
  void checkpoint();

 private:
  void set(bool paused);

  std::mutex mu_;
  std::condition_variable cv_;
  bool paused_ = false;
};

}  // namespace retsnoop
