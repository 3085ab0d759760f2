#include "cli/stderr_capture.h"

#include <cstdlib>

namespace retsnoop {

// glibc documents stderr as an assignable variable, and getopt looks it up on every message.
StderrCapture::StderrCapture() : saved_(stderr) {
  stream_ = open_memstream(&buf_, &size_);
  if (stream_) stderr = stream_;  // out of memory: messages simply stay on the real stderr
}

StderrCapture::~StderrCapture() {
  stderr = saved_;
  if (stream_) std::fclose(stream_);
  std::free(buf_);
}

std::string StderrCapture::text() {
  if (!stream_) return {};
  std::fflush(stream_);
  return std::string(buf_, size_);
}

}  // namespace retsnoop
