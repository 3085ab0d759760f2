// Program copies that carry their id in place of a template's mark (attach/imm_mark.h), on
// synthetic instruction arrays and on the programs retsnoop loads.
#include "attach/imm_mark.h"

#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "bpf/abi.h"
#include "bpf/func_mark.h"
#include "rs_indirect.skel.h"
#include "rs_tracer.skel.h"
#include "rs_tracer_legacy.skel.h"

namespace retsnoop {
namespace {

constexpr uint64_t kMark = 0x1122334455667788ULL;

bpf_insn mov64_imm(uint8_t dst, int32_t imm) {
  return {BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm};
}
bpf_insn exit_insn() { return {BPF_JMP | BPF_EXIT, 0, 0, 0, 0}; }

// r<dst> = value as the two halves of an ld_imm64; src_reg 1 makes it a map fd load.
std::vector<bpf_insn> ld_imm64(uint8_t dst, uint64_t value, uint8_t src_reg = 0) {
  return {{BPF_LD | BPF_IMM | BPF_DW, dst, src_reg, 0, int32_t(uint32_t(value))},
          {0, 0, 0, 0, int32_t(uint32_t(value >> 32))}};
}

std::vector<bpf_insn> program(std::initializer_list<std::vector<bpf_insn>> parts) {
  std::vector<bpf_insn> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

uint64_t imm64_at(const std::vector<bpf_insn>& insns, size_t i) {
  return uint64_t(uint32_t(insns[i].imm)) | uint64_t(uint32_t(insns[i + 1].imm)) << 32;
}

TEST(ImmMark, ReplacesTheMarkAndNothingElse) {
  std::vector<bpf_insn> in = program(
      {{mov64_imm(0, 7)}, ld_imm64(1, 42), ld_imm64(2, kMark), {mov64_imm(0, 0), exit_insn()}});
  std::vector<bpf_insn> out = with_mark_replaced(in, kMark, 0xabcdef0012345678ULL);
  ASSERT_EQ(out.size(), in.size());
  EXPECT_EQ(imm64_at(out, 3), 0xabcdef0012345678ULL);
  EXPECT_EQ(out[3].code, in[3].code);
  EXPECT_EQ(out[3].dst_reg, 2);
  EXPECT_EQ(imm64_at(out, 1), 42u);
  EXPECT_EQ(out[0].imm, 7);
  EXPECT_EQ(imm64_at(in, 3), kMark);  // the template stays as it was
}

TEST(ImmMark, AMarkLoadedTwiceOrNeverIsATemplateBug) {
  std::vector<bpf_insn> twice = program({ld_imm64(1, kMark), ld_imm64(2, kMark), {exit_insn()}});
  EXPECT_THROW(with_mark_replaced(twice, kMark, 1), std::logic_error);
  std::vector<bpf_insn> never = program({ld_imm64(1, kMark + 1), {exit_insn()}});
  EXPECT_THROW(with_mark_replaced(never, kMark, 1), std::logic_error);
}

// A map fd load (pseudo source register) or a 32-bit move that happens to hold the mark's halves
// is no mark.
TEST(ImmMark, OnlyPlainImmediateLoadsCount) {
  std::vector<bpf_insn> in = program({ld_imm64(1, kMark, BPF_PSEUDO_MAP_FD),
                                      {mov64_imm(2, int32_t(uint32_t(kMark)))},
                                      {mov64_imm(3, int32_t(uint32_t(kMark >> 32)))},
                                      ld_imm64(4, kMark),
                                      {exit_insn()}});
  std::vector<bpf_insn> out = with_mark_replaced(in, kMark, 9);
  EXPECT_EQ(imm64_at(out, 0), kMark);
  EXPECT_EQ(imm64_at(out, 4), 9u);
}

TEST(FuncMark, IdAndArgumentCountRoundTrip) {
  uint64_t v = rs_func_mark_value(123456, 6);
  EXPECT_EQ(rs_func_mark_id(v), 123456u);
  EXPECT_EQ(rs_func_mark_nargs(v), 6u);
  EXPECT_EQ(rs_func_mark_nargs(rs_func_mark_value(0xffffffffu, 12)), 12u);
  EXPECT_EQ(rs_func_mark_id(rs_func_mark_value(0xffffffffu, 12)), 0xffffffffu);
}

struct Template {
  const char* name;
  uint64_t mark;
};

const std::initializer_list<Template> kTracerTemplates = {
    {"rs_fentry", RS_FUNC_MARK},          {"rs_fexit", RS_FUNC_MARK},
    {"rs_umark_entry", RS_FUNC_MARK},     {"rs_umark_exit", RS_FUNC_MARK},
    {"rs_probe_rawtp", RS_PROBE_ID_MARK}, {"rs_probe_tp", RS_PROBE_ID_MARK}};

// The programs user space copies load their mark exactly once in every build, before relocation
// as after (relocation rewrites map and call instructions only).
void expect_marks(const void* elf, size_t size, std::initializer_list<Template> templates) {
  bpf_object* obj = bpf_object__open_mem(elf, size, nullptr);
  ASSERT_NE(obj, nullptr);
  for (Template t : templates) {
    bpf_program* prog = bpf_object__find_program_by_name(obj, t.name);
    ASSERT_NE(prog, nullptr) << t.name;
    std::span<const bpf_insn> insns(bpf_program__insns(prog), bpf_program__insn_cnt(prog));
    EXPECT_NO_THROW(with_mark_replaced(insns, t.mark, 1)) << t.name;
  }
  bpf_object__close(obj);
}

TEST(ImmMark, TheTracerTemplatesCarryTheirMarkOnce) {
  size_t size = 0;
  const void* elf = rs_tracer__elf_bytes(&size);
  expect_marks(elf, size, kTracerTemplates);
  elf = rs_tracer_legacy__elf_bytes(&size);
  expect_marks(elf, size, kTracerTemplates);
}

TEST(ImmMark, TheIndirectSiteTemplateCarriesItsMarkOnce) {
  size_t size = 0;
  const void* elf = rs_indirect__elf_bytes(&size);
  expect_marks(elf, size, {{"indirect_site_by_mark", RS_INDIRECT_MARK}});
}

}  // namespace
}  // namespace retsnoop
