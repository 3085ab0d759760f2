#include "cli/word_file.h"

#include <sstream>

#include "util/regular_file.h"

namespace retsnoop {

std::vector<std::string> read_words_file(const std::string& path) {
  std::istringstream in(read_regular_file(path, kMaxListFileSize, "Failed to read '" + path + "'"));
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(std::move(word));
  return words;
}

}  // namespace retsnoop
