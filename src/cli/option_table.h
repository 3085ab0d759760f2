// The command-line options as one table: each row is the argp description (which also produces
// --help) plus the function that applies the option to the Options being built.
#pragma once

#include <argp.h>

#include <cstdio>
#include <span>

#include "cli/options.h"

namespace retsnoop {

struct CliState {
  Options opts;
  std::FILE* help_out = stdout;
  argp_state* argp = nullptr;  // the running parse, for the help options
};

struct OptionSpec {
  argp_option argp;
  // nullptr on group headers. May throw UserError, or InvalidValue which the caller turns into
  // a message naming this option.
  void (*apply)(CliState& st, const char* arg);
};

std::span<const OptionSpec> option_specs();

}  // namespace retsnoop
