// A message the kernel emitted inside a session (RS_REC_KMSG, bpf/messages.bpf.c), as captured:
// the format and its raw arguments, expanded when formatted (format/kernel_message_text.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace retsnoop {

enum class KernelMessageKind { Fs, Extack, Verifier, Printk, Unknown };

struct KernelMessageArg {
  uint64_t value = 0;
  std::optional<std::string> str;  // the string value points to, where it points to one
};

struct KernelMessage {
  KernelMessageKind kind = KernelMessageKind::Unknown;
  bool literal = false;  // fmt is the text itself
  uint64_t time_ns = 0;  // CLOCK_MONOTONIC
  uint64_t caller = 0;   // return address into the emitting function; 0: unknown
  std::string prefix;    // fs: the context's prefix, e.g. "tmpfs"
  std::string fmt;
  std::vector<KernelMessageArg> args;
  std::vector<uint64_t> stack;  // kernel stack at the probe, innermost first; empty: use caller
};

}  // namespace retsnoop
