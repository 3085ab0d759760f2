// @FILE arguments: lists too long for a command line, one word per whitespace-separated token.
#pragma once

#include <string>
#include <vector>

namespace retsnoop {

// Throws UserError when the file cannot be read, is not a regular file or is larger than
// kMaxListFileSize.
std::vector<std::string> read_words_file(const std::string& path);

}  // namespace retsnoop
