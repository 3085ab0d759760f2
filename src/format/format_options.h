// What the text views show, and the inputs every view shares. FormatOptions comes from the
// options in app/layer_configs.cpp.
#pragma once

#include "discovery/func_info.h"
#include "discovery/host_identity.h"
#include "discovery/line_plan.h"
#include "discovery/probe_spec.h"
#include "symbolize/symb_level.h"
#include "symbolize/symbolizer.h"
#include "symbolize/user_symbolizer.h"

namespace retsnoop {

struct ArgsContext;
class FormatCache;

struct FormatOptions {
  // -sn / -s / -ss: how much of what the symbolizer knows reaches the output.
  SymbLevel symb = SymbLevel::Inlines;
  bool emit_addrs = false;         // stacks.emit-addrs: raw address before each symbol
  bool dec_offsets = false;        // stacks.dec-offs: "+123" instead of "+0x7b"
  bool unfiltered_stacks = false;  // stacks.unfiltered: keep trampoline and BPF program frames
  bool calltrace = false;          // -T
  bool lbr = false;                // --lbr
  size_t lbr_max_count = 0;        // 0: every relevant record
  bool unfiltered_lbr = false;     // stacks.unfiltered, --debug full-lbr: no record trimmed
  // -U: user frames show their source line unless -sn asked for symbols only. Their DWARF is the
  // program's own, unrelated to whether a vmlinux with DWARF was found.
  bool user_lines = true;
  size_t messages_max_len = 200;  // -C messages.max-len: bytes of a kernel message's text
};

inline const ProbeTable kNoProbes;
inline const std::vector<LineProbe> kNoLineProbes;

// Borrowed for the duration of one formatting call.
struct FormatContext {
  const FuncTable& funcs;
  Symbolizer& symbolizer;
  const FormatOptions& opts;
  const HostIdentity* host = nullptr;    // --json names the host in every session when set
  const ProbeTable& probes = kNoProbes;  // -J, indexed by probe id
  UserSymbols* user_symbols = nullptr;   // -U
  const ArgsContext* args = nullptr;     // -A
  FormatCache* cache = nullptr;          // reused symbols and text; formatting is the same without
  const std::vector<LineProbe>& line_probes = kNoLineProbes;  // --line-trace, by line id
};

}  // namespace retsnoop
