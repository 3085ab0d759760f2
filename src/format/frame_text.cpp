#include "format/frame_text.h"

#include <cinttypes>
#include <cstdio>

#include "util/text_escape.h"

namespace retsnoop {
namespace {

std::string hex_addr(uint64_t addr, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%0*" PRIx64, digits, addr);
  return buf;
}

// Zero-padded so that the symbols after it stay aligned.
std::string addr_prefix(uint64_t addr, const FormatOptions& opts) {
  return opts.emit_addrs ? hex_addr(addr, 16) + " " : "";
}

std::string blank_prefix(const FormatOptions& opts) {
  return std::string(addr_prefix(0, opts).size(), ' ');
}

std::string offset_text(uint64_t offset, const FormatOptions& opts) {
  char buf[32];
  if (opts.dec_offsets)
    std::snprintf(buf, sizeof(buf), "+%" PRIu64, offset);
  else
    std::snprintf(buf, sizeof(buf), "+0x%" PRIx64, offset);
  return buf;
}

// Every name and path below comes from files retsnoop does not control (with -U, other users'
// binaries and debug files): escaped, so that none reaches the terminal with a control byte.
std::string with_module(std::string text, const std::string& module) {
  if (module.empty()) return text;
  text += " [";
  append_escaped(text, module);
  return text + "]";
}

std::string named_offset(const std::string& name, uint64_t offset, const FormatOptions& opts) {
  return escaped(name) + offset_text(offset, opts);
}

std::string symbol_text(uint64_t addr, const SymbolizedAddr& sym, const FormatOptions& opts) {
  if (!sym.found) return hex_addr(addr, 0);
  return with_module(named_offset(sym.name, sym.offset, opts), sym.module);
}

std::string location_text(const SourceLoc& loc) {
  return escaped(loc.file) + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

// Compiler-renamed functions (foo.isra.0) and aliases carry their DWARF name next to the
// location, so the reader finds the function in the source.
std::string source_text(const SymbolizedAddr& sym, const FormatOptions& opts) {
  if (opts.symb == SymbLevel::None || !sym.loc.known()) return "";
  std::string who = sym.dwarf_name.empty() ? "" : escaped(sym.dwarf_name) + " @ ";
  return "(" + who + location_text(sym.loc) + ")";
}

TextLine inline_line(const InlineFrame& frame, const FormatOptions& opts) {
  std::string source = frame.loc.known() ? "(" + location_text(frame.loc) + ")" : "";
  return {blank_prefix(opts) + ". " + escaped(frame.name), source};
}

}  // namespace

std::vector<TextLine> frame_lines(uint64_t addr, const SymbolizedAddr& sym,
                                  const FormatOptions& opts) {
  std::vector<TextLine> lines{
      {addr_prefix(addr, opts) + symbol_text(addr, sym, opts), source_text(sym, opts)}};
  if (opts.symb != SymbLevel::Inlines) return lines;
  for (const InlineFrame& frame : sym.inlines) lines.push_back(inline_line(frame, opts));
  return lines;
}

TextLine user_frame_line(uint64_t addr, const UserFrame& frame, const FormatOptions& opts) {
  std::string text = hex_addr(addr, 16);
  if (frame.sym.found)
    text += "  " + with_module(named_offset(frame.sym.name, frame.sym.offset, opts), frame.binary);
  else if (frame.mapped)
    text += "  [" + named_offset(frame.binary, frame.file_offset, opts) + "]";
  bool lines = opts.user_lines && frame.sym.loc.known();
  return {text, lines ? "(" + location_text(frame.sym.loc) + ")" : ""};
}

std::string traced_func_label(const FuncInfo& func) {
  if (!func.is_user()) return with_module(escaped(func.name), func.module);
  std::string file = func.binary.substr(func.binary.rfind('/') + 1);
  return with_module(escaped(func.name), "user " + file);
}

TextLine func_line(const FuncInfo& func, const FormatOptions& opts) {
  return {blank_prefix(opts) + traced_func_label(func), ""};
}

}  // namespace retsnoop
