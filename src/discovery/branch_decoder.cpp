#include "discovery/branch_decoder.h"

#include <capstone/capstone.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace retsnoop {

namespace {

struct InsnFree {
  void operator()(cs_insn* insn) const { cs_free(insn, 1); }
};

// The immediate target of a branch instruction: its last operand (arm64 tbz puts the tested bit
// first), when that is an immediate.
bool branch_target(const cs_insn& insn, CodeArch arch, uint64_t& target) {
  if (arch == CodeArch::X86_64) {
    const cs_x86& x = insn.detail->x86;
    if (x.op_count == 0 || x.operands[x.op_count - 1].type != X86_OP_IMM) return false;
    target = uint64_t(x.operands[x.op_count - 1].imm);
    return true;
  }
  const cs_arm64& a = insn.detail->arm64;
  if (a.op_count == 0 || a.operands[a.op_count - 1].type != ARM64_OP_IMM) return false;
  target = uint64_t(a.operands[a.op_count - 1].imm);
  return true;
}

bool is_call(const cs_insn& insn, CodeArch arch) {
  return arch == CodeArch::X86_64 ? insn.id == X86_INS_CALL : insn.id == ARM64_INS_BL;
}

}  // namespace

CodeArch host_code_arch() {
#if defined(__aarch64__)
  return CodeArch::Arm64;
#else
  return CodeArch::X86_64;
#endif
}

std::string_view branch_kind_word(BranchKind kind) {
  switch (kind) {
    case BranchKind::Call: return "call";
    case BranchKind::TailJump: return "tail jump";
    case BranchKind::Indirect: return "indirect, seen at run time";
  }
  return "?";
}

BranchDecoder::BranchDecoder(CodeArch arch) : arch_(arch) {
  csh h = 0;
  cs_err err = arch == CodeArch::X86_64 ? cs_open(CS_ARCH_X86, CS_MODE_64, &h)
                                        : cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &h);
  if (err == CS_ERR_OK) err = cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
  if (err != CS_ERR_OK) {
    if (h) cs_close(&h);
    throw std::runtime_error(std::string("cannot set up the Capstone disassembler: ") +
                             cs_strerror(err));
  }
  handle_ = h;
}

BranchDecoder::~BranchDecoder() {
  csh h = handle_;
  cs_close(&h);
}

void BranchDecoder::each_insn(std::span<const uint8_t> code, uint64_t addr,
                              const std::function<void(const cs_insn&)>& fn) const {
  std::unique_ptr<cs_insn, InsnFree> insn(cs_malloc(handle_));
  if (!insn) throw std::bad_alloc();
  // Instructions are 4 bytes on arm64; on x86-64 the next byte may start a valid one.
  const size_t resync = arch_ == CodeArch::Arm64 ? 4 : 1;
  const uint8_t* p = code.data();
  size_t left = code.size();
  uint64_t pc = addr;
  while (left > 0) {
    if (!cs_disasm_iter(handle_, &p, &left, &pc, insn.get())) {
      size_t step = std::min(resync, left);
      p += step;
      left -= step;
      pc += step;
      continue;
    }
    fn(*insn);
  }
}

std::vector<Branch> BranchDecoder::decode(std::span<const uint8_t> code, uint64_t addr) const {
  const uint64_t end = addr + code.size();
  std::map<uint64_t, BranchKind> out;
  each_insn(code, addr, [&](const cs_insn& insn) {
    bool call = is_call(insn, arch_);
    if (!call && !cs_insn_group(handle_, &insn, CS_GRP_JUMP)) return;
    uint64_t target = 0;
    if (!branch_target(insn, arch_, target) || (target >= addr && target < end)) return;
    auto [it, added] = out.emplace(target, call ? BranchKind::Call : BranchKind::TailJump);
    if (!added && call) it->second = BranchKind::Call;
  });
  std::vector<Branch> branches;
  branches.reserve(out.size());
  for (auto [target, kind] : out) branches.push_back({target, kind});
  return branches;
}

}  // namespace retsnoop
