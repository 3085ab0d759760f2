// Whole-file reads for the text files discovery parses (kallsyms, tracefs lists, glob files).
#pragma once

#include <optional>
#include <string>

namespace retsnoop {

// The file's content, or nullopt with errno set. Works on procfs/tracefs files, whose size
// reads as zero, by reading until EOF.
std::optional<std::string> read_text_file(const std::string& path);

}  // namespace retsnoop
