#include "cli/word_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "util/error.h"

namespace retsnoop {

std::vector<std::string> read_words_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UserError("Failed to open '" + path + "': " + std::strerror(errno));
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(std::move(word));
  if (in.bad()) throw UserError("Failed to read '" + path + "': " + std::strerror(errno));
  return words;
}

}  // namespace retsnoop
