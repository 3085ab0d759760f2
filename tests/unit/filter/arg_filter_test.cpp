// --arg-filter end to end in user space: expressions compiled against a synthetic BTF prototype
// and run by the very interpreter BPF runs (src/bpf/arg_filter.h), over host memory laid out as
// the BTF says.
#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "discovery/func_args.h"
#include "discovery/syscall_args.h"
#include "filter/arg_filter_compiler.h"
#include "filter/arg_filter_listing.h"
#include "synthetic_btf.h"
#include "util/error.h"

namespace {

// Addresses below a page fault, as NULL and its neighbours do in the kernel.
bool unreadable(uint64_t addr) { return addr < 4096; }

int read_mem(void* dst, uint32_t size, uint64_t addr) {
  if (unreadable(addr)) return -14;
  std::memcpy(dst, reinterpret_cast<const void*>(addr), size);
  return 0;
}

long read_str(void* dst, uint32_t size, uint64_t addr) {
  if (unreadable(addr)) return -14;
  const char* s = reinterpret_cast<const char*>(addr);
  uint32_t n = 0;
  while (n + 1 < size && s[n]) ++n;
  std::memcpy(dst, s, n);
  static_cast<char*>(dst)[n] = '\0';
  return n + 1;
}

}  // namespace

#define RS_FILTER_READ(dst, size, addr, user) read_mem((dst), (size), (addr))
#define RS_FILTER_READ_STR(dst, size, addr, user) read_str((dst), (size), (addr))
#include "bpf/arg_filter.h"

namespace retsnoop {
namespace {

using test_support::SyntheticBtf;

// The host twins of the synthetic types below.
struct HName {
  const char* name;
  char inl[8];
};
struct HAttr {
  uint32_t map_type;
  int32_t key_size;
  HName n;
  HName* np;
  uint32_t bits;  // flags:3, rest:5
};
static_assert(sizeof(HName) == 16 && sizeof(HAttr) == 40);

class ArgFilter : public ::testing::Test {
 protected:
  SyntheticBtf b;
  int i32 = b.int_type("int", 4, BTF_INT_SIGNED);
  int u32 = b.int_type("unsigned int", 4, 0);
  int chr = b.int_type("char", 1, BTF_INT_SIGNED);
  int kind =
      b.enumeration("bpf_map_type", 4, {{"BPF_MAP_TYPE_HASH", 1}, {"BPF_MAP_TYPE_ARRAY", 2}});
  int cstr = b.ptr(b.konst(chr));
  int name = b.structure("name", 16, {{"name", cstr, 0}, {"inl", b.array(chr, 8), 64}});
  int attr = b.structure("attr", 40,
                         {{"map_type", u32, 0},
                          {"key_size", i32, 32},
                          {"n", name, 64},
                          {"np", b.ptr(name), 192},
                          {"flags", u32, 256, 3},
                          {"rest", u32, 259, 5}});
  int proto = b.proto(i32, {{"attr", b.ptr(attr)}, {"fd", i32}, {"path", cstr}});
  FuncArgs args = args_from_prototype(b.get(), b.func("f", proto));

  HName inner{"inner-name", "inl"};
  HAttr a{2, 4, {"outer", "xyz"}, &inner, 5 | (9 << 3)};

  // Runs exprs over a call f(attr, fd, path).
  bool run(std::initializer_list<std::string> exprs, const HAttr* attr_arg, int64_t fd = 3,
           const char* path = "/etc/passwd") {
    ArgFilterCompiler c{std::vector<std::string>(exprs)};
    ArgFilterProgram p = c.compile(args);
    EXPECT_EQ(p.missing, "");
    EXPECT_GT(p.prog.cnt, 0u);
    rs_u64 slots[RS_MAX_ARG_SLOTS] = {reinterpret_cast<uint64_t>(attr_arg),
                                      static_cast<uint64_t>(fd), reinterpret_cast<uint64_t>(path)};
    rs_filter_scratch sc{};
    return rs_filter_run(&p.prog, slots, &sc);
  }

  bool run(const std::string& expr) { return run({expr}, &a); }

  std::string error(const std::string& expr) {
    try {
      ArgFilterCompiler c({expr});
      ArgFilterProgram p = c.compile(args);
      EXPECT_EQ(p.prog.cnt, 0u);
      return p.error;
    } catch (const UserError& e) {
      return e.what();  // a syntax error: before any prototype
    }
  }
};

TEST_F(ArgFilter, ComparesMembersWithEnumConstantsAndIntegers) {
  EXPECT_TRUE(run("attr->map_type == BPF_MAP_TYPE_ARRAY"));
  EXPECT_FALSE(run("attr->map_type == BPF_MAP_TYPE_HASH"));
  EXPECT_TRUE(run("attr->map_type != 1 && attr->key_size >= 4"));
  EXPECT_TRUE(run("2 == attr->map_type"));
  EXPECT_TRUE(run("4 <= attr->key_size"));
  EXPECT_FALSE(run("attr->key_size > 4"));
}

TEST_F(ArgFilter, SignednessFollowsTheType) {
  HAttr neg = a;
  neg.key_size = -1;
  EXPECT_TRUE(run({"attr->key_size < 0"}, &neg));
  EXPECT_TRUE(run({"fd < 0"}, &a, -9));
  EXPECT_FALSE(run({"fd < 0"}, &a, 9));
  neg.map_type = 0xffffffffu;
  // As in C, -1 converts to the member's unsigned type.
  EXPECT_TRUE(run({"attr->map_type == -1"}, &neg));
}

TEST_F(ArgFilter, FollowsPointersAndEmbeddedStructs) {
  EXPECT_TRUE(run("attr->np->name == \"inner-name\""));
  EXPECT_TRUE(run("attr->n.name == \"outer\""));
  EXPECT_TRUE(run("(*attr).n.name == \"outer\""));
  EXPECT_TRUE(run("attr->n.inl == \"xyz\""));
  EXPECT_FALSE(run("attr->n.inl == \"xy\""));
  EXPECT_TRUE(run("attr->n.inl == \"xy*\""));
  EXPECT_TRUE(run("attr->n.inl[1] == 121"));  // 'y'
  EXPECT_TRUE(run("attr->np->name != \"inner\""));
  EXPECT_TRUE(run("attr->np->name == \"inner*\""));
}

TEST_F(ArgFilter, StringArgumentsAndNullPointers) {
  EXPECT_TRUE(run({"path == \"/etc/*\""}, &a));
  EXPECT_FALSE(run({"path == \"/etc/*\""}, &a, 3, "/tmp/x"));
  EXPECT_FALSE(run({"path == \"/etc/*\""}, &a, 3, nullptr));  // NULL matches no string
  EXPECT_TRUE(run({"path == NULL"}, &a, 3, nullptr));
}

TEST_F(ArgFilter, ReadsBitFields) {
  EXPECT_TRUE(run("attr->flags == 5"));
  EXPECT_TRUE(run("attr->rest == 9"));
  EXPECT_TRUE(run("attr->flags & 4"));
  EXPECT_FALSE(run("attr->flags & 2"));
}

TEST_F(ArgFilter, ShortCircuitsAndAFailedReadIsFalse) {
  EXPECT_TRUE(run({"attr == NULL || attr->key_size == 4"}, nullptr));
  EXPECT_FALSE(run({"attr->key_size == 4"}, nullptr));  // the read faults
  EXPECT_FALSE(run({"!(attr->key_size == 4)"}, nullptr));
  EXPECT_TRUE(run({"attr != NULL && attr->key_size == 4"}, &a));
  EXPECT_FALSE(run({"attr && attr->key_size == 5"}, &a));
}

TEST_F(ArgFilter, EveryExpressionMustHold) {
  EXPECT_TRUE(run({"fd == 3", "attr->map_type == 2"}, &a));
  EXPECT_FALSE(run({"fd == 3", "attr->map_type == 1"}, &a));
  EXPECT_FALSE(run({"fd == 4", "attr->map_type == 2"}, &a));
}

TEST_F(ArgFilter, PrecedenceIsCs) {
  // & binds looser than ==, as in C: fd & (1 == 1).
  EXPECT_TRUE(run({"fd & 1 == 1"}, &a, 3));
  EXPECT_FALSE(run({"fd & 1 == 1"}, &a, 2));
  EXPECT_TRUE(run({"fd == 1 || fd == 3 && attr->key_size == 4"}, &a, 3));
  EXPECT_TRUE(run({"!fd == 0"}, &a, 3));
}

TEST_F(ArgFilter, APrototypeWithoutANameOpensNoSession) {
  ArgFilterCompiler c({"attr->map_type == 2 && filp == NULL"});
  ArgFilterProgram p = c.compile(args);
  EXPECT_EQ(p.missing, "filp");
  EXPECT_EQ(p.prog.cnt, 0u);
}

TEST_F(ArgFilter, TypeErrorsNameTheColumn) {
  EXPECT_EQ(error("attr->map_typ == 1"),
            "--arg-filter 'attr->map_typ == 1': at column 7: struct attr has no member 'map_typ'");
  EXPECT_EQ(error("attr->n == 1"),
            "--arg-filter 'attr->n == 1': at column 1: struct name cannot be compared: name one "
            "of its members");
  EXPECT_EQ(error("fd->x == 1"),
            "--arg-filter 'fd->x == 1': at column 5: '->' needs a pointer to a struct or union, "
            "not int");
  EXPECT_EQ(error("attr->key_size == \"x\""),
            "--arg-filter 'attr->key_size == \"x\"': at column 1: a string compares with a char "
            "array or a char pointer, not int");
  EXPECT_EQ(error("attr->n.inl[8] == 1"),
            "--arg-filter 'attr->n.inl[8] == 1': at column 12: index 8 is past the array's 8 "
            "elements");
  EXPECT_EQ(error("path < \"a\""),
            "--arg-filter 'path < \"a\"': at column 6: strings compare only with == and !=");
}

// A malformed BTF that nests 64 anonymous members of the level below at each of 12 levels: the
// lookup searches each type once (64^12 paths otherwise) and still finds the leaf at the bottom.
TEST(ArgFilterBtf, AnonymousMembersAreSearchedOncePerType) {
  SyntheticBtf b;
  int i32 = b.int_type("int", 4, BTF_INT_SIGNED);
  int level = b.structure("leaf", 4, {{"leaf", i32, 0}});
  for (int depth = 0; depth < 12; ++depth) {
    int below = level;
    level = btf__add_union(b.get(), nullptr, 4);
    ASSERT_GT(level, 0);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(btf__add_field(b.get(), nullptr, below, 0, 0), 0);
  }
  int top = b.structure("top", 4, {{"", level, 0}});
  FuncArgs args = args_from_prototype(b.get(), b.func("g", b.proto(i32, {{"p", b.ptr(top)}})));

  ArgFilterProgram found = ArgFilterCompiler({"p->leaf == 1"}).compile(args);
  EXPECT_EQ(found.error, "");
  EXPECT_GT(found.prog.cnt, 0u);
  ArgFilterProgram missing = ArgFilterCompiler({"p->none == 1"}).compile(args);
  EXPECT_NE(missing.error.find("struct top has no member 'none'"), std::string::npos)
      << missing.error;
}

TEST_F(ArgFilter, SyntaxErrorsNameTheColumn) {
  EXPECT_EQ(error("attr->map_type =="),
            "--arg-filter 'attr->map_type ==': at column 18: expected an operand at the end");
  EXPECT_EQ(error("(fd == 1"), "--arg-filter '(fd == 1': at column 9: expected ')' at the end");
  EXPECT_EQ(error("fd = 1"), "--arg-filter 'fd = 1': at column 4: unexpected character '='");
  EXPECT_EQ(error("path == \"abc"),
            "--arg-filter 'path == \"abc': at column 9: unterminated string");
  EXPECT_EQ(error("fd == 1\x1b[1m"),
            "--arg-filter 'fd == 1\\x1b[1m': at column 8: unexpected character '\\x1b'");
}

TEST_F(ArgFilter, ListsTheProgram) {
  ArgFilterCompiler c({"attr->map_type == BPF_MAP_TYPE_ARRAY", "path == \"/etc*\""});
  ArgFilterProgram p = c.compile(args);
  EXPECT_EQ(render_arg_filter(p.prog, "  "),
            "    0  arg    0\n"
            "    1  load   4\n"
            "    2  const  2\n"
            "    3  cmp    ==\n"
            "    4  jfalse +2\n"
            "    5  arg    2\n"
            "    6  str    \"/etc*\"\n");
}

TEST_F(ArgFilter, RawSlotsCompareAsIntegers) {
  FuncArgs raw = raw_func_args("no BTF prototype");
  ArgFilterCompiler c({"arg1 == 3"});
  ArgFilterProgram p = c.compile(raw);
  ASSERT_EQ(p.missing, "");
  rs_u64 slots[RS_MAX_ARG_SLOTS] = {0, 3};
  rs_filter_scratch sc{};
  EXPECT_TRUE(rs_filter_run(&p.prog, slots, &sc));
  slots[1] = 4;
  EXPECT_FALSE(rs_filter_run(&p.prog, slots, &sc));
}

// A system call wrapper's program names the system call's arguments, and BPF reads its slots
// from the saved user registers (slots_from); the slots themselves are the call's arguments.
TEST_F(ArgFilter, SystemCallWrappersFilterOnTheSystemCallsArguments) {
  b.enumeration("bpf_cmd", 4, {{"BPF_MAP_CREATE", 0}, {"BPF_PROG_LOAD", 5}});
  BtfTypeText types(b.get());
  std::vector<SyscallParam> params = {
      {"cmd", "int"}, {"uattr", "struct attr __user *"}, {"size", "unsigned int"}};
  FuncArgs sys = syscall_args_from_params(b.get(), types, "bpf", params);
  ASSERT_NE(sys.args[1].type_id, 0u);
  EXPECT_EQ(btf__type_by_id(b.get(), sys.args[1].type_id)->type, static_cast<uint32_t>(attr));
  ArgFilterCompiler c({"cmd == BPF_MAP_CREATE", "uattr->map_type == BPF_MAP_TYPE_ARRAY"});
  ArgFilterProgram p = c.compile(sys);
  ASSERT_EQ(p.missing, "");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.prog.slots_from, RS_SLOTS_SYSCALL_REGS);
  EXPECT_EQ(p.prog.stack_slots, 0);
  rs_u64 slots[RS_MAX_ARG_SLOTS] = {0, reinterpret_cast<uint64_t>(&a), 144};
  rs_filter_scratch sc{};
  EXPECT_TRUE(rs_filter_run(&p.prog, slots, &sc));
  slots[0] = 5;
  EXPECT_FALSE(rs_filter_run(&p.prog, slots, &sc));
  // The wrapper's own parameter is not among the names.
  EXPECT_EQ(ArgFilterCompiler({"regs != 0"}).compile(sys).missing, "regs");
  // Other functions read their own slots.
  EXPECT_EQ(ArgFilterCompiler({"fd == 3"}).compile(args).prog.slots_from, RS_SLOTS_OWN);
}

}  // namespace
}  // namespace retsnoop
