// Fatal, user-facing errors. Thrown where continuing makes no sense (bad input, missing kernel
// support); main() prints the message as one line and exits non-zero after every RAII owner of a
// kernel object has cleaned up. Recoverable conditions return negative errno values instead.
#pragma once

#include <stdexcept>
#include <string>

namespace retsnoop {

class UserError : public std::runtime_error {
 public:
  explicit UserError(const std::string& msg, std::string hint = {})
      : std::runtime_error(msg), hint_(std::move(hint)) {}
  // Optional second line telling the user how to fix it (e.g. "use -k PATH").
  const std::string& hint() const { return hint_; }

 private:
  std::string hint_;
};

}  // namespace retsnoop
