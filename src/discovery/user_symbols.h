// The functions of a user-space ELF file (an executable or a shared library) that uprobes can
// attach to, with the file offsets a uprobe is placed at.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace retsnoop {

struct UserSymbol {
  std::string name;     // without a symbol version ("memcpy", not "memcpy@@GLIBC_2.14")
  uint64_t offset = 0;  // in the file, where the function's first instruction is
  uint64_t vaddr = 0;   // link-time address
  uint64_t size = 0;
};

// Defined FUNC symbols with a size of .symtab, else of .dynsym; IFUNC resolvers, PLT stubs and
// symbols outside every executable segment are left out. Sorted by offset, the aliases of one
// function by name, those without a leading '_' first. Throws UserError "<path>: <why>" when the
// file is not a regular ELF file of the host's architecture or cannot be read.
std::vector<UserSymbol> read_user_symbols(const std::string& path);

// At most this many functions are taken from a file, so that a crafted symbol table costs no
// more than that; the largest libraries have a few hundred thousand.
inline constexpr size_t kMaxUserSymbols = size_t(1) << 21;

}  // namespace retsnoop
