// @FILE lists: the file is the user's, read through the same path the option reads.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/word_file.h"
#include "temp_dir.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const retsnoop::test::TempDir dir;
  std::string path = dir.write("list", std::string(reinterpret_cast<const char*>(data), size));
  try {
    retsnoop::read_words_file(path);
  } catch (const retsnoop::UserError&) {
    // A refusal is the parser's answer to bad input; anything else escaping is a bug.
  }
  return 0;
}
