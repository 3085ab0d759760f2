#include "discovery/kernel_text.h"

#include <elf.h>
#include <fcntl.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>

#include "temp_dir.h"

namespace retsnoop {
namespace {

// An ELF core file with a PT_NOTE and two PT_LOAD segments: 16 bytes of 0x10.. at
// 0xffff800000001000 and 8 bytes of 0x20.. at 0xffffffffc0000000.
std::string synthetic_core() {
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_CORE;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_phoff = sizeof(Elf64_Ehdr);
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = 3;
  const uint64_t data = sizeof(Elf64_Ehdr) + 3 * sizeof(Elf64_Phdr);
  Elf64_Phdr ph[3]{};
  ph[0].p_type = PT_NOTE;
  ph[1] = {.p_type = PT_LOAD, .p_offset = data, .p_vaddr = 0xffff800000001000, .p_filesz = 16};
  ph[2] = {.p_type = PT_LOAD, .p_offset = data + 16, .p_vaddr = 0xffffffffc0000000, .p_filesz = 8};
  std::string out(reinterpret_cast<const char*>(&eh), sizeof(eh));
  out.append(reinterpret_cast<const char*>(ph), sizeof(ph));
  for (int i = 0; i < 16; ++i) out += char(0x10 + i);
  for (int i = 0; i < 8; ++i) out += char(0x20 + i);
  return out;
}

TEST(CoreText, ReadsTheSegmentCoveringAnAddress) {
  test::TempDir dir;
  std::unique_ptr<CoreText> core = CoreText::open(dir.write("kcore", synthetic_core()));
  ASSERT_TRUE(core);
  EXPECT_EQ(core->read(0xffff800000001004, 3), (std::vector<uint8_t>{0x14, 0x15, 0x16}));
  EXPECT_EQ(core->read(0xffffffffc0000006, 2), (std::vector<uint8_t>{0x26, 0x27}));
  EXPECT_EQ(core->source(), dir.path() + "/kcore");
}

TEST(CoreText, RefusesReadsPastASegment) {
  test::TempDir dir;
  std::unique_ptr<CoreText> core = CoreText::open(dir.write("kcore", synthetic_core()));
  ASSERT_TRUE(core);
  EXPECT_FALSE(core->read(0xffff80000000100f, 2));  // one byte past the end
  EXPECT_FALSE(core->read(0xffff800000000fff, 1));  // before the start
  EXPECT_FALSE(core->read(0xffffffffc0000000, SIZE_MAX));
}

TEST(CoreText, KeepsOnlyLoadSegments) {
  test::TempDir dir;
  std::string path = dir.write("kcore", synthetic_core());
  OwnedFd fd(::open(path.c_str(), O_RDONLY));
  std::optional<std::vector<CoreSegment>> segs = read_core_segments(fd.get());
  ASSERT_TRUE(segs);
  ASSERT_EQ(segs->size(), 2u);
  EXPECT_EQ(find_core_segment(*segs, 0xffffffffc0000000, 8), &(*segs)[1]);
  EXPECT_EQ(find_core_segment(*segs, 0xffffffffc0000000, 9), nullptr);
}

TEST(CoreText, RejectsWhatIsNotACoreFile) {
  test::TempDir dir;
  std::string core = synthetic_core();
  std::string exec = core;
  exec[offsetof(Elf64_Ehdr, e_type)] = ET_EXEC;
  EXPECT_FALSE(CoreText::open(dir.write("exec", exec)));
  EXPECT_FALSE(CoreText::open(dir.write("short", core.substr(0, 40))));
  EXPECT_FALSE(CoreText::open(dir.write("text", "not an ELF file")));
  EXPECT_FALSE(CoreText::open(dir.path() + "/missing"));
}

TEST(KernelText, NoCoreAndNoVmlinuxMeansNoText) {
  EXPECT_FALSE(open_kernel_text("/nonexistent/kcore", nullptr));
}

}  // namespace
}  // namespace retsnoop
