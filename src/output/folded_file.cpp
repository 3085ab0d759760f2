#include "output/folded_file.h"

#include "format/folded_view.h"

namespace retsnoop {

void FoldedFile::finish(const FailureSummary& f) {
  file_.write(format_folded(f));
  file_.close();
}

}  // namespace retsnoop
