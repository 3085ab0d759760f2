// The symbol and source columns shared by the stack and LBR views.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/format_options.h"
#include "symbolize/symbolizer.h"
#include "symbolize/user_symbolizer.h"

namespace retsnoop {

struct TextLine {
  std::string symbol;  // "name+0xoff", ". inlined_name", or a raw hex address
  std::string source;  // "(file:line:col)", or empty
};

// One symbolized address: its own line, then one ". name" line per inlined call, outermost
// first, as far as opts.symb allows.
std::vector<TextLine> frame_lines(uint64_t addr, const SymbolizedAddr& sym,
                                  const FormatOptions& opts);

// A user-space frame: "0x<16 digits>  name+0xoff [binary]" and its source; without a symbol
// "0x...  [binary+0xoff]", outside any mapped file the address alone.
TextLine user_frame_line(uint64_t addr, const UserFrame& frame, const FormatOptions& opts);

// A traced function without an address (a call whose kernel frame is gone, or a user-space
// function): name only, aligned with frame_lines() output.
TextLine func_line(const FuncInfo& func, const FormatOptions& opts);

// The name a row shows for a traced function, escaped: a user-space one carries its binary's
// file name ("sf_create_map [user libsimfail.so]"), a module function its module.
std::string traced_func_label(const FuncInfo& func);

}  // namespace retsnoop
