// The --lbr view: captured branch records, oldest first.
#pragma once

#include <string>

#include "events/session.h"
#include "format/format_options.h"

namespace retsnoop {

// "[#NN] from+0xoff (file:line:col)  ->  to+0xoff (file:line:col)" per record, every line ending
// in '\n', #00 being the newest captured record. Inlined calls continue under their side.
// Records newer than the last one touching the deepest traced function were spent by the
// tracing machinery and are dropped (unless opts.unfiltered_lbr); if no record touches it, all
// are shown after a notice.
// opts.lbr_max_count keeps only that many of the newest remaining records. Empty without records.
std::string format_lbr(const Session& s, const FormatContext& ctx);

}  // namespace retsnoop
