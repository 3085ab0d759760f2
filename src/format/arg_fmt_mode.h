// -A: how captured arguments are rendered, one enum from the command line (args.fmt-mode) to
// the renderer.
#pragma once

#include <cstdint>

namespace retsnoop {

enum class ArgFmtMode : uint8_t { Compact, Multiline, Verbose };

}  // namespace retsnoop
