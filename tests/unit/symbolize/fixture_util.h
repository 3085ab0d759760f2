// Helpers shared by the symbolizer tests: fixture images built by fixtures.cmake, kallsyms text
// made from their symbol tables with a fake KASLR offset; scratch directories come from
// temp_dir.h.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "discovery/kallsyms.h"
#include "discovery/vmlinux.h"
#include "temp_dir.h"

namespace retsnoop::test {

// Where the fixture's text would sit in a kernel: runtime = link-time + offset.
constexpr uint64_t kFakeKaslr = 0xffffffff7fc00000ull;

inline std::string fixture_image(const std::string& name) {
  return std::string(RS_TEST_BINARY_DIR) + "/fixtures/symbolize/" + name;
}

inline std::string fixture_source(const std::string& rel) {
  return std::string(RS_FIXTURES_DIR) + "/symbolize/" + rel;
}

// 1-based line of the fixture source line holding marker.
inline int marker_line(const std::string& rel, const std::string& marker) {
  std::ifstream in(fixture_source(rel));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find(marker) != std::string::npos) return n;
  }
  ADD_FAILURE() << "marker " << marker << " not in " << rel;
  return -1;
}

// "file:line:col" where token starts on the line holding marker (columns count bytes from 1).
inline std::string marker_loc(const std::string& rel, const std::string& marker,
                              const std::string& token) {
  std::ifstream in(fixture_source(rel));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find(marker) != std::string::npos)
      return rel + ":" + std::to_string(n) + ":" + std::to_string(line.find(token) + 1);
  }
  ADD_FAILURE() << "marker " << marker << " not in " << rel;
  return {};
}

// Kallsyms text for an image: its function symbols and _stext (at .text) moved by offset.
inline std::string kallsyms_of(const Vmlinux& image, uint64_t offset) {
  std::ostringstream out;
  out << std::hex << image.text_start() + offset << " T _stext\n";
  image.for_each_code_symbol([&](const ElfSymbol& sym) {
    if (sym.is_function)
      out << sym.addr + offset << (sym.is_local ? " t " : " T ") << sym.name << "\n";
  });
  return out.str();
}

inline Kallsyms kallsyms_of_image(const std::string& name, uint64_t offset = kFakeKaslr) {
  return Kallsyms::parse_text(kallsyms_of(*Vmlinux::open(fixture_image(name)), offset));
}

// Link-time address of a function of an image, from its symbol table.
inline uint64_t symbol_addr(const Vmlinux& image, const std::string& name) {
  auto addrs = image.symbol_addrs({name});
  EXPECT_EQ(addrs.count(name), 1u) << name;
  return addrs.count(name) ? addrs[name].front() : 0;
}

// Runs the fixture, which prints the return address leaf_fn was called with (link-time: no PIE).
inline uint64_t fixture_return_addr(const std::string& name) {
  FILE* p = popen(fixture_image(name).c_str(), "r");
  unsigned long long addr = 0;
  EXPECT_TRUE(p && std::fscanf(p, "ret %llx", &addr) == 1);
  if (p) pclose(p);
  return addr;
}

}  // namespace retsnoop::test
