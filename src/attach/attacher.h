// One attach mechanism: puts the tracer's entry and exit programs on every selected function and
// takes them off again. Implementations must leave nothing attached after detach() or
// destruction, whatever happened in between.
#pragma once

#include <functional>
#include <cstddef>
#include <memory>

#include "attach/tracer_object.h"
#include "discovery/func_info.h"

namespace retsnoop {

struct AttachOpts {
  // Polled between attachments (SIGINT/SIGTERM): stop attaching as soon as it returns true.
  std::function<bool()> should_stop = [] { return false; };
  // Functions that cannot be attached are skipped (with a -v message) instead of failing.
  bool skip_failures = true;
};

struct AttachResult {
  size_t attached = 0;
  size_t skipped = 0;
  bool interrupted = false;
};

class Attacher {
 public:
  virtual ~Attacher() = default;
  virtual const char* name() const = 0;
  // Throws UserError when nothing sensible can be attached.
  virtual AttachResult attach(const FuncTable& funcs, const AttachOpts& opts) = 0;
  virtual void detach() = 0;
};

std::unique_ptr<Attacher> make_kprobe_attacher(TracerObject& obj);
std::unique_ptr<Attacher> make_multi_kprobe_attacher(TracerObject& obj);

}  // namespace retsnoop
