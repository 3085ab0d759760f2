// The ELF files a traced process maps (-U): their symbols, program headers, notes and DWARF
// line tables are whatever the process's owner put there, read through ElfFile as the user
// symbolizer does. Lookups at offsets spread over the file reach the segments and the DWARF
// of whatever code lies there.
#include <fcntl.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "symbolize/elf_file.h"
#include "temp_dir.h"

namespace {

constexpr uint64_t kLookups = 32;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const retsnoop::test::TempDir dir;
  std::string path = dir.write("elf", std::string(reinterpret_cast<const char*>(data), size));
  retsnoop::ElfFile elf(retsnoop::OwnedFd(open(path.c_str(), O_RDONLY | O_CLOEXEC)), {});
  elf.build_id();
  for (uint64_t i = 0; i < kLookups; ++i) {
    uint64_t off = size * i / kLookups;
    elf.lookup(off, false);
    elf.lookup(off + 1, true);
  }
  return 0;
}
