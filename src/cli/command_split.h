// The command line's two halves: retsnoop's own options, and after the first "--" the command
// that command mode runs and traces.
#pragma once

#include <string>
#include <vector>

namespace retsnoop {

struct CommandSplit {
  int own_argc = 0;                  // argv[0..own_argc) are retsnoop's arguments
  std::vector<std::string> command;  // what follows "--", empty without one
  bool has_separator = false;        // "--" was given, even with nothing after it
};

// Everything after the first "--" is the command, verbatim: its own "--" and options are not
// retsnoop's. An option value that is "--" must be attached (--comm=--).
CommandSplit split_at_command(int argc, char** argv);

}  // namespace retsnoop
