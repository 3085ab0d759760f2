// retsnoop: the deepest kernel call stack behind a failing syscall, and more.
#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <system_error>

#include "app/exit_status.h"
#include "app/run.h"
#include "cli/parse_options.h"
#include "symbolize/symbolizer_worker.h"
#include "util/allocator_policy.h"
#include "util/error.h"
#include "util/log.h"

namespace {

// What run() printed before tracing (a dry run's report, -V) must not vanish silently into a
// closed pipe or a full disk either.
int check_stdout(int status) {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
  retsnoop::logf(retsnoop::LOG_ERROR, "cannot write to standard output: %s\n",
                 std::strerror(errno));
  return status == retsnoop::kExitOk ? retsnoop::kExitOutputLost : status;
}

}  // namespace

// Every exception ends here, after the destructors on its way took every probe off and set
// every knob back: never std::terminate with probes attached.
int main(int argc, char** argv) {
  retsnoop::set_allocator_policy();
  // retsnoop run again as its own user-space symbolizer (-U), by itself: nothing else of a trace.
  if (retsnoop::is_worker_invocation(argc, argv))
    return retsnoop::symbolizer_worker_main(argc, argv);
  // A closed pipe is reported by write() (EPIPE) and handled like any output failure.
  signal(SIGPIPE, SIG_IGN);
  try {
    retsnoop::Options opts = retsnoop::parse_options(argc, argv);
    if (opts.help_shown) return check_stdout(retsnoop::kExitOk);
    return check_stdout(retsnoop::run(opts));
  } catch (const retsnoop::UserError& e) {
    retsnoop::logf(retsnoop::LOG_ERROR, "%s\n", e.what());
    if (!e.hint().empty()) retsnoop::logf(retsnoop::LOG_HINT, "%s\n", e.hint().c_str());
  } catch (const std::bad_alloc&) {
    retsnoop::logf(retsnoop::LOG_ERROR, "out of memory\n");
  } catch (const std::system_error& e) {
    retsnoop::logf(retsnoop::LOG_ERROR, "%s\n", e.what());
  } catch (const std::exception& e) {
    retsnoop::logf(retsnoop::LOG_ERROR, "internal error: %s\n", e.what());
  } catch (...) {
    retsnoop::logf(retsnoop::LOG_ERROR, "internal error\n");
  }
  return retsnoop::kExitError;
}
