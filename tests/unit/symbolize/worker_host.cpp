// retsnoop's main() as the symbolizer worker sees it, for the unit tests (worker_test_util.h).
#include "symbolize/symbolizer_worker.h"

int main(int argc, char** argv) {
  if (!retsnoop::is_worker_invocation(argc, argv)) return 2;
  return retsnoop::symbolizer_worker_main(argc, argv);
}
