// retsnoop: the deepest kernel call stack behind a failing syscall, and more.
#include <cstdio>

#include "app/run.h"
#include "cli/parse_options.h"
#include "util/error.h"

int main(int argc, char** argv) {
  try {
    retsnoop::Options opts = retsnoop::parse_options(argc, argv);
    if (opts.help_shown) return 0;
    return retsnoop::run(opts);
  } catch (const retsnoop::UserError& e) {
    std::fprintf(stderr, "retsnoop: %s\n", e.what());
    if (!e.hint().empty()) std::fprintf(stderr, "%s\n", e.hint().c_str());
    return 1;
  }
}
