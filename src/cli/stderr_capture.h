// Collects what is written to stderr while an instance lives. getopt (inside argp) reports
// unknown options and missing arguments only by printing to stderr; capturing that text lets the
// parser turn it into a UserError instead of letting a half-formatted message escape.
#pragma once

#include <cstdio>
#include <string>

namespace retsnoop {

class StderrCapture {
 public:
  StderrCapture();
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  // Everything captured so far.
  std::string text();

 private:
  std::FILE* saved_;
  std::FILE* stream_ = nullptr;
  char* buf_ = nullptr;
  size_t size_ = 0;
};

}  // namespace retsnoop
