// Command line -> Options. GNU syntax via glibc argp: bundled short options, optional values only
// attached (-ss, -Sn, --lbr=any), repeatable options.
#pragma once

#include <cstdio>

#include "cli/options.h"

namespace retsnoop {

// Throws UserError (one-line message, hint pointing to --help) on any invalid command line.
// Everything after the first "--" is the command of command mode (Options::command).
// --help, --usage and --config-help print to help_out and return with help_shown set, without
// looking at the remaining arguments.
Options parse_options(int argc, char** argv, std::FILE* help_out = stdout);

}  // namespace retsnoop
