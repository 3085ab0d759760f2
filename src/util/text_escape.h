// Names and paths that other users control (comms, binaries, debug files, symbol names) reach a
// terminal or a log only through here: a control byte would move the cursor, recolour the
// screen or start a line the kernel never produced.
#pragma once

#include <string>
#include <string_view>

namespace retsnoop {

// Appends s with every byte outside printable ASCII written as an escape: \n, \t, \r and \\ by
// name, the others as \xNN. A backslash is doubled so that "\x1b" typed by the user reads
// differently from the byte ESC. quote, when given, is escaped too (\' inside '...').
void append_escaped(std::string& out, std::string_view s, char quote = '\0');
// s escaped as append_escaped() does.
std::string escaped(std::string_view s);

}  // namespace retsnoop
