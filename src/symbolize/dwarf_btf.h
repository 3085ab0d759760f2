// A user-space function's prototype as BTF, made from its DWARF: the form -A's planner and
// renderer read for kernel functions. Every pointer is tagged "user" (as the kernel's __user
// pointers are), so that BPF reads through it from the process's memory.
#pragma once

#include <elfutils/libdw.h>

#include <map>
#include <set>
#include <string>

struct btf;

namespace retsnoop {

class DwarfBtfBuilder {
 public:
  // Adds to btf, which must outlive the builder.
  explicit DwarfBtfBuilder(struct btf* btf) : btf_(btf) {}

  // The BTF FUNC id of fn's prototype (a subprogram DIE, or a concrete instance of one) named
  // name; negative errno when a parameter's type cannot be expressed.
  int add_func(Dwarf_Die* fn, const std::string& name);

 private:
  int type_id(Dwarf_Die* die, int depth);
  int referenced(Dwarf_Die* die, int depth);
  int base(Dwarf_Die* die);
  int pointer(Dwarf_Die* die, int depth);
  int composite(Dwarf_Die* die, int depth);
  int enumeration(Dwarf_Die* die);
  int array(Dwarf_Die* die, int depth);
  int index_type();

  struct btf* btf_;
  std::map<Dwarf_Off, int> ids_;     // DIEs converted, by offset
  std::set<Dwarf_Off> in_progress_;  // structs and unions whose members are being converted
  int index_type_ = 0;
};

}  // namespace retsnoop
