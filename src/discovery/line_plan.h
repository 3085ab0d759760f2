// --line-trace: where each source line of the chosen kernel functions begins, read from the
// line table of the vmlinux DWARF. A kprobe there (a line probe) tells that the line ran.
#pragma once

#include <elfutils/libdw.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "discovery/vmlinux.h"

namespace retsnoop {

class Kallsyms;

// One row of a DWARF line table.
struct LineTableRow {
  uint64_t addr = 0;
  std::string_view file;
  int line = 0;
  bool is_stmt = false;
  bool end_sequence = false;
};

// A function's code, as [begin, end) address ranges (a .cold part is a range of its own).
using CodeRanges = std::vector<std::pair<uint64_t, uint64_t>>;

// Where one run of a source line begins.
struct LineStart {
  uint64_t addr = 0;
  std::string file;
  int line = 0;
};

// Where each run of one source line begins inside ranges, ascending: the statement rows whose
// line differs from the row in force just before them. rows is a line table in address order,
// each sequence closed by its end_sequence row; of several rows at one address the last is in
// force. entry is left out: the function's entry probe reports it.
std::vector<LineStart> line_starts(const std::vector<LineTableRow>& rows, const CodeRanges& ranges,
                                   uint64_t entry);

// The line starts (link-time addresses, paths from the kernel tree's root) of the function
// whose code begins at link_addr; empty when no subprogram DIE of the DWARF covers it.
std::vector<LineStart> function_line_starts(Dwarf* dwarf, uint64_t link_addr);

struct LineProbe {
  std::string func;        // kallsyms name of the function
  uint64_t func_addr = 0;  // runtime address of the function
  uint64_t addr = 0;       // runtime address where the line begins
  std::string file;        // the line, as the line table has it (not inlined callers)
  int line = 0;
};

struct LinePlan {
  std::vector<LineProbe> probes;   // indexed by line id, grouped by function
  std::vector<std::string> notes;  // -v: matching functions the DWARF does not describe
};

// More line probes than this take minutes to attach: the globs are too wide.
constexpr size_t kMaxLineProbes = 4096;

// The line probes of every vmlinux function in ksyms whose name matches one of globs. Throws
// UserError naming the glob that matches no function the DWARF describes, or when the probes
// would number more than kMaxLineProbes.
LinePlan plan_line_probes(const std::vector<std::string>& globs, const LoadedVmlinux& vmlinux,
                          const Kallsyms& ksyms);

}  // namespace retsnoop
