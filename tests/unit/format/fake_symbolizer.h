// A Symbolizer answering from a fixture table, and remembering what it was asked.
//
// Table format (tests/unit/fixtures/format/*.sym), one address per line:
//   ADDR NAME OFFSET SOURCE [module=MOD] [dwarf=NAME]
// ADDR and OFFSET in hex, SOURCE "file:line:col" or "-". Lines starting with whitespace and
// ". NAME SOURCE" add an inlined call (outermost first) to the address above. '#' starts a
// comment line. Addresses not in the table are reported as not found.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "symbolize/symbolizer.h"

namespace retsnoop::test {

class FakeSymbolizer : public Symbolizer {
 public:
  explicit FakeSymbolizer(const std::string& fixture) {
    std::ifstream in(std::string(RS_FIXTURES_DIR) + "/format/" + fixture);
    EXPECT_TRUE(in) << "missing fixture " << fixture;
    std::string line;
    while (std::getline(in, line)) parse_line(line);
  }

  SymbolizedAddr symbolize(uint64_t addr, bool is_return_addr) override {
    queries.emplace_back(addr, is_return_addr);
    auto it = table_.find(addr);
    return it == table_.end() ? SymbolizedAddr{} : it->second;
  }

  std::vector<std::pair<uint64_t, bool>> queries;

 private:
  static SourceLoc parse_loc(const std::string& text) {
    SourceLoc loc;
    if (text == "-") return loc;
    size_t col_sep = text.rfind(':');
    size_t line_sep = text.rfind(':', col_sep - 1);
    loc.file = text.substr(0, line_sep);
    loc.line = std::stoi(text.substr(line_sep + 1, col_sep - line_sep - 1));
    loc.col = std::stoi(text.substr(col_sep + 1));
    return loc;
  }

  void parse_inline(std::istringstream& fields) {
    std::string dot, name, loc;
    fields >> dot >> name >> loc;
    table_[last_].inlines.push_back({name, parse_loc(loc)});
  }

  void parse_entry(std::istringstream& fields) {
    std::string addr, offset, loc, extra;
    SymbolizedAddr sym{.found = true};
    fields >> addr >> sym.name >> offset >> loc;
    sym.offset = std::stoull(offset, nullptr, 16);
    sym.loc = parse_loc(loc);
    while (fields >> extra) {
      if (extra.starts_with("module=")) sym.module = extra.substr(7);
      if (extra.starts_with("dwarf=")) sym.dwarf_name = extra.substr(6);
    }
    last_ = std::stoull(addr, nullptr, 16);
    table_[last_] = sym;
  }

  void parse_line(const std::string& line) {
    std::istringstream fields(line);
    if (line.empty() || line[0] == '#') return;
    if (line[0] == ' ')
      parse_inline(fields);
    else
      parse_entry(fields);
  }

  std::map<uint64_t, SymbolizedAddr> table_;
  uint64_t last_ = 0;
};

}  // namespace retsnoop::test
