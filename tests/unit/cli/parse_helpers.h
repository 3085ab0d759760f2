// Runs parse_options on a list of arguments as a shell would pass them, with help captured.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/parse_options.h"
#include "util/error.h"

namespace retsnoop::test {

struct ParseOutcome {
  Options opts;
  std::string help;  // what parse_options printed for --help/--usage/--config-help
};

inline ParseOutcome parse_capturing(std::vector<std::string> args) {
  args.insert(args.begin(), "retsnoop");
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  char* buf = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&buf, &size);
  ParseOutcome outcome;
  try {
    outcome.opts = parse_options(static_cast<int>(args.size()), argv.data(), out);
  } catch (...) {
    std::fclose(out);
    std::free(buf);
    throw;
  }
  std::fclose(out);
  outcome.help.assign(buf, size);
  std::free(buf);
  return outcome;
}

inline Options parse(std::vector<std::string> args) {
  return parse_capturing(std::move(args)).opts;
}

// The UserError a command line produces; fails the test when it parses fine.
inline UserError parse_error(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const UserError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a UserError";
  return UserError("");
}

}  // namespace retsnoop::test
