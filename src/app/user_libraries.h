// Where a "LIBRARY:GLOB" library name resolves in this run: for -p, the files the processes
// map; in command mode, the command's loader search path first; then the loader's cache and
// standard directories.
#pragma once

#include "cli/options.h"
#include "discovery/ld_cache.h"
#include "discovery/user_plan.h"

namespace retsnoop {

// Reads the -p processes' maps and the command's run paths only when one of globs names a
// library (a path needs neither).
LibraryLookup user_library_lookup(const Options& opts, const UserGlobs& globs);

}  // namespace retsnoop
