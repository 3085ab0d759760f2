#include "filter/arg_filter_listing.h"

#include <cinttypes>
#include <cstdio>

#include "util/text_escape.h"

namespace retsnoop {
namespace {

const char* cmp_name(rs_u8 how) {
  static constexpr const char* kNames[] = {"==", "!=", "<", "<=", ">", ">="};
  rs_u8 op = how & 7;
  return op < std::size(kNames) ? kNames[op] : "?";
}

std::string memory(rs_u8 flags) {
  if (flags & RS_FFL_USER) return " user";
  if (flags & RS_FFL_KERNEL) return " kernel";
  return "";
}

// A string constant's bytes as far as its mask covers them; "*" marks a prefix.
std::string str_constant(const rs_filter_str& s) {
  std::string text;
  for (size_t i = 0; i < RS_FILTER_STR_WORDS * 8; ++i) {
    if (!((s.mask[i / 8] >> (8 * (i % 8))) & 0xff)) return "\"" + escaped(text) + "*\"";
    char c = static_cast<char>((s.bytes[i / 8] >> (8 * (i % 8))) & 0xff);
    if (!c) break;
    text += c;
  }
  return "\"" + escaped(text) + "\"";
}

std::string insn_text(const rs_arg_filter& prog, const rs_filter_insn& in) {
  char buf[96];
  switch (in.op) {
    case RS_FOP_ARG: std::snprintf(buf, sizeof(buf), "arg    %" PRIu64, in.imm); break;
    case RS_FOP_CONST:
      std::snprintf(buf, sizeof(buf), "const  %" PRId64, static_cast<int64_t>(in.imm));
      break;
    case RS_FOP_ADD: std::snprintf(buf, sizeof(buf), "add    %" PRIu64, in.imm); break;
    case RS_FOP_LOAD:
      std::snprintf(buf, sizeof(buf), "load   %u%s%s", in.size,
                    (in.flags & RS_FFL_SIGNED) ? " signed" : "", memory(in.flags).c_str());
      break;
    case RS_FOP_BITS:
      std::snprintf(buf, sizeof(buf), "bits   >>%u &0x%" PRIx64, in.aux, in.imm);
      break;
    case RS_FOP_AND: return "and";
    case RS_FOP_CMP:
      std::snprintf(buf, sizeof(buf), "cmp    %s%s", cmp_name(in.aux),
                    (in.aux & RS_FCMP_SIGNED) ? " signed" : "");
      break;
    case RS_FOP_NOT: return "not";
    case RS_FOP_NEG: return "neg";
    case RS_FOP_JFALSE: std::snprintf(buf, sizeof(buf), "jfalse +%" PRIu64, in.imm); break;
    case RS_FOP_JTRUE: std::snprintf(buf, sizeof(buf), "jtrue  +%" PRIu64, in.imm); break;
    case RS_FOP_STR:
      return "str    " + str_constant(prog.strs[in.imm % RS_FILTER_MAX_STRS]) + memory(in.flags);
    default: std::snprintf(buf, sizeof(buf), "op %u?", in.op); break;
  }
  return buf;
}

}  // namespace

std::string render_arg_filter(const rs_arg_filter& prog, const std::string& indent) {
  std::string out;
  for (rs_u32 i = 0; i < prog.cnt && i < RS_FILTER_MAX_INSNS; ++i) {
    char num[16];
    std::snprintf(num, sizeof(num), "%3u  ", i);
    out += indent + num + insn_text(prog, prog.insns[i]) + "\n";
  }
  return out;
}

}  // namespace retsnoop
