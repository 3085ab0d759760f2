#include "cli/command_split.h"

#include <cstring>

namespace retsnoop {

CommandSplit split_at_command(int argc, char** argv) {
  CommandSplit split;
  split.own_argc = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") != 0) continue;
    split.own_argc = i;
    split.has_separator = true;
    split.command.assign(argv + i + 1, argv + argc);
    break;
  }
  return split;
}

}  // namespace retsnoop
