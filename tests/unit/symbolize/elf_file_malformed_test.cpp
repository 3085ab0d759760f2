// ELF files a traced process may map that no linker would write (found by
// tests/fuzz/elf_file_fuzz): ElfFile keeps what it can read safely and drops the rest.
#include <fcntl.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <libelf.h>

#include <cstring>
#include <fstream>
#include <string>
#include <utility>

#include "symbolize/elf_file.h"
#include "temp_dir.h"

namespace retsnoop {
namespace {

// The file offset and size of the section called name in the ELF file at path; size 0 if none.
std::pair<uint64_t, uint64_t> section_range(const std::string& path, const char* name) {
  OwnedFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd.get(), ELF_C_READ, nullptr);
  size_t shstrndx = 0;
  std::pair<uint64_t, uint64_t> range{0, 0};
  if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0) {
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
      GElf_Shdr shdr;
      const char* n = gelf_getshdr(scn, &shdr) ? elf_strptr(elf, shstrndx, shdr.sh_name) : nullptr;
      if (n && std::strcmp(n, name) == 0) range = {shdr.sh_offset, shdr.sh_size};
    }
  }
  if (elf) elf_end(elf);
  return range;
}

struct Found {
  size_t symbols = 0;
  size_t lines = 0;
};

// What lookups over the first 16 KiB of the file at path find.
Found look_up_all(const std::string& path) {
  ElfFile f(OwnedFd(open(path.c_str(), O_RDONLY | O_CLOEXEC)), {});
  Found found;
  for (uint64_t off = 0; off < 0x4000; off += 0x10) {
    SymbolizedAddr s = f.lookup(off, false);
    found.symbols += s.found;
    found.lines += !s.loc.file.empty();
  }
  return found;
}

// libdw reads DWARF's strings up to their NUL: a string section that does not end in one would
// let it read past the section, so the file's DWARF goes unread; its symbols stay.
TEST(ElfFileMalformed, StringSectionWithoutItsLastNulGivesNoLines) {
  test::TempDir d;
  std::string copy =
      d.copy_in("user_target", std::string(RS_TEST_BINARY_DIR) + "/fixtures/user_elf/user_target");
  ASSERT_GT(look_up_all(copy).lines, 0u);
  auto [off, size] = section_range(copy, ".debug_line_str");
  ASSERT_GT(size, 0u);
  std::fstream(copy, std::ios::in | std::ios::out | std::ios::binary)
      .seekp(off + size - 1)
      .put('x');
  Found found = look_up_all(copy);
  EXPECT_GT(found.symbols, 0u);
  EXPECT_EQ(found.lines, 0u);
}

}  // namespace
}  // namespace retsnoop
