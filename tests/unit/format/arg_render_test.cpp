#include "format/arg_render.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <cstring>

#include "synthetic_btf.h"

namespace retsnoop {
namespace {

using test_support::SyntheticBtf;
using Lines = std::vector<std::string>;

constexpr uint64_t kAttrAddr = 0xffff888100001000;

template <class T>
void put(std::vector<uint8_t>& buf, size_t off, T v) {
  if (buf.size() < off + sizeof(v)) buf.resize(off + sizeof(v));
  std::memcpy(buf.data() + off, &v, sizeof(v));
}

// A buffer holding each {offset, value} as an int.
std::vector<uint8_t> ints_at(std::initializer_list<std::pair<size_t, int32_t>> values) {
  std::vector<uint8_t> buf;
  for (auto [off, v] : values) put(buf, off, v);
  return buf;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

// One capture: slots, and per argument its length (or RS_ARG_ERR_*) and bytes.
struct Capture {
  CapturedArgs cap;
  Capture& slot(uint64_t v) {
    cap.slots.push_back(v);
    return *this;
  }
  Capture& arg(int32_t len, std::vector<uint8_t> data = {}) {
    cap.lens.push_back(len);
    cap.data.push_back(std::move(data));
    return *this;
  }
  Capture& bytes(std::vector<uint8_t> data) {
    int32_t len = int32_t(data.size());
    return arg(len, std::move(data));
  }
  Capture& none() { return arg(0); }
};

class ArgRender : public ::testing::Test {
 protected:
  SyntheticBtf b;
  int i32 = b.int_type("int", 4, BTF_INT_SIGNED);
  int u32 = b.typedef_of("__u32", b.typedef_of("u32", b.int_type("unsigned int", 4, 0)));
  int u64 = b.int_type("unsigned long", 8, 0);
  int s64 = b.int_type("long", 8, BTF_INT_SIGNED);
  int chr = b.int_type("char", 1, BTF_INT_SIGNED);
  int boolean = b.int_type("_Bool", 1, BTF_INT_BOOL);
  int i128 = b.int_type("unsigned __int128", 16, 0);
  int cchar_p = b.ptr(b.konst(chr));
  int attr = b.composite(false, "bpf_attr", 16,
                         {{"map_type", u32, 0},
                          {"key_size", u32, 32},
                          {"value_size", u32, 64},
                          {"max_entries", u32, 96}});

  ArgRenderOptions opts;

  FuncArgs plan(std::initializer_list<std::pair<const char*, int>> params) {
    return args_from_prototype(b.get(), b.proto(i32, params));
  }
  Lines lines(const FuncArgs& p, const Capture& c) { return arg_lines(p, c.cap, opts); }
  std::string compact(const FuncArgs& p, const Capture& c) {
    Lines l = lines(p, c);
    return l.empty() ? "" : l[0];
  }
  std::string json(const FuncArgs& p, const Capture& c) { return args_json(p, c.cap, opts); }

  // The bpf(BPF_MAP_CREATE) attr of a map with map_type 2, key 4, value 4 and no max_entries.
  static std::vector<uint8_t> attr_bytes() { return ints_at({{0, 2}, {4, 4}, {8, 4}, {12, 0}}); }
  FuncArgs attr_plan() { return plan({{"attr", b.ptr(attr)}, {"size", u32}}); }
  Capture attr_capture() { return Capture().slot(kAttrAddr).slot(72).bytes(attr_bytes()).none(); }
};

TEST_F(ArgRender, CompactSkipsZeroFields) {
  EXPECT_EQ(lines(attr_plan(), attr_capture()),
            Lines{"› attr=&{.map_type=2,.key_size=4,.value_size=4} size=72"});
}

TEST_F(ArgRender, MultilineOneArgumentPerLine) {
  opts.mode = ArgFmtMode::Multiline;
  EXPECT_EQ(lines(attr_plan(), attr_capture()),
            (Lines{"› attr = &{.map_type=2,.key_size=4,.value_size=4}", "› size = 72"}));
}

TEST_F(ArgRender, VerboseOneFieldPerLine) {
  opts.mode = ArgFmtMode::Verbose;
  opts.max_arg_width = 10;  // verbose never cuts
  EXPECT_EQ(lines(attr_plan(), attr_capture()),
            (Lines{"› attr = &{", "    .map_type = 2", "    .key_size = 4", "    .value_size = 4",
                   "  }", "› size = 72"}));
}

TEST_F(ArgRender, VerboseNestsStructsAndArraysOfStructs) {
  int inner = b.structure("inner", 8, {{"x", i32, 0}, {"y", i32, 32}});
  int outer = b.structure("outer", 32,
                          {{"id", i32, 0},
                           {"in", inner, 32},
                           {"list", b.array(inner, 2), 96},
                           {"nums", b.array(i32, 1), 224}});
  std::vector<uint8_t> d = ints_at({{0, 1}, {4, 2}, {12, 3}, {24, 4}, {28, 5}});
  opts.mode = ArgFmtMode::Verbose;
  EXPECT_EQ(lines(plan({{"o", b.ptr(outer)}}), Capture().slot(kAttrAddr).bytes(d)),
            (Lines{"› o = &{", "    .id = 1", "    .in = {", "      .x = 2", "    }",
                   "    .list = [", "      {", "        .x = 3", "      }", "      {",
                   "        .y = 4", "      }", "    ]", "    .nums = [5]", "  }"}));
}

TEST_F(ArgRender, WidthCutsEachValueInCompactAndMultiline) {
  opts.max_arg_width = 10;
  EXPECT_EQ(compact(attr_plan(), attr_capture()), "› attr=&{.map_typ... size=72");
  opts.mode = ArgFmtMode::Multiline;
  EXPECT_EQ(lines(attr_plan(), attr_capture())[0], "› attr = &{.map_typ...");
  opts.max_arg_width = 0;
  EXPECT_EQ(lines(attr_plan(), attr_capture())[0],
            "› attr = &{.map_type=2,.key_size=4,.value_size=4}");
}

TEST_F(ArgRender, ZeroScalarsPrintAllZeroStructsAreEmpty) {
  int small = b.structure("small", 8, {{"a", i32, 0}, {"b", i32, 32}});
  FuncArgs p = plan({{"attr", b.ptr(attr)}, {"flags", u32}, {"s", small}});
  Capture c =
      Capture().slot(kAttrAddr).slot(0).slot(0).bytes(std::vector<uint8_t>(16)).none().none();
  EXPECT_EQ(compact(p, c), "› attr=&{} flags=0 s={}");
  EXPECT_EQ(json(p, c), R"({"attr":{"addr":18446612686365003776,"value":{}},"flags":0,"s":{}})");
}

TEST_F(ArgRender, NullUnreadableAndOverBudgetPointers) {
  FuncArgs p = plan(
      {{"a", b.ptr(attr)}, {"b", b.ptr(attr)}, {"c", b.ptr(attr)}, {"s", cchar_p}, {"t", cchar_p}});
  Capture c = Capture()
                  .slot(0)
                  .slot(0xdead000000000100)
                  .slot(kAttrAddr)
                  .slot(0)
                  .slot(0x7ffd0000)
                  .none()
                  .arg(RS_ARG_ERR_FAULT)
                  .arg(RS_ARG_ERR_BUDGET)
                  .none()
                  .arg(RS_ARG_ERR_FAULT);
  EXPECT_EQ(compact(p, c),
            "› a=NULL b=&<unreadable 0xdead000000000100> c=&<over budget 0xffff888100001000> "
            "s=NULL t=&<unreadable 0x7ffd0000>");
  EXPECT_EQ(
      json(p, c),
      R"({"a":{"addr":0,"value":null},"b":{"addr":16045481047390945536,"value":"<unreadable>"},)"
      R"("c":{"addr":18446612686365003776,"value":"<over budget>"},"s":null,)"
      R"("t":{"addr":2147287040,"value":"<unreadable>"}})");
}

TEST_F(ArgRender, RawPointerValuesOnRequest) {
  opts.limits.capture_raw_ptrs = true;
  FuncArgs p = plan({{"attr", b.ptr(attr)}, {"name", cchar_p}, {"none", b.ptr(attr)}});
  Capture c = Capture()
                  .slot(kAttrAddr)
                  .slot(0x1000)
                  .slot(0)
                  .bytes(attr_bytes())
                  .bytes(bytes_of(std::string("x\0", 2)))
                  .none();
  EXPECT_EQ(compact(p, c),
            "› attr=(0xffff888100001000)&{.map_type=2,.key_size=4,.value_size=4} name=(0x1000)'x' "
            "none=NULL");
}

TEST_F(ArgRender, StringsAreQuotedEscapedAndMarkedWhenCut) {
  FuncArgs p = plan({{"path", cchar_p}, {"cut", cchar_p}, {"empty", cchar_p}});
  std::string esc = std::string("a\tb\nc\\d'e\x01\xff", 11);
  esc.push_back('\0');
  esc += "after the NUL";
  Capture c =
      Capture().slot(0x1000).slot(0x2000).slot(0x3000).bytes(bytes_of(esc)).bytes(bytes_of("abc"));
  c.bytes(std::vector<uint8_t>{0});
  EXPECT_EQ(compact(p, c), R"(› path='a\tb\nc\\d\'e\x01\xff' cut='abc'... empty='')");
  EXPECT_EQ(
      json(p, c),
      // Bytes that are not UTF-8 become U+FFFD, as everywhere in --json, written as an
      // escape like everything past ASCII.
      R"({"cut":{"truncated":true,"value":"abc"},"empty":"","path":"a\tb\nc\\d'e\u0001\ufffd"})");
}

TEST_F(ArgRender, DataShorterThanTheTypeIsMarked) {
  std::vector<uint8_t> d = attr_bytes();
  d.resize(6);  // key_size is cut in half
  Capture c = Capture().slot(kAttrAddr).slot(72).bytes(d).none();
  EXPECT_EQ(compact(attr_plan(), c), "› attr=&{.map_type=2,...} size=72");
  EXPECT_EQ(
      json(attr_plan(), c),
      R"({"attr":{"addr":18446612686365003776,"truncated":true,"value":{"map_type":2}},"size":72})");
  opts.mode = ArgFmtMode::Verbose;
  EXPECT_EQ(lines(attr_plan(), c),
            (Lines{"› attr = &{", "    .map_type = 2", "    ...", "  }", "› size = 72"}));
}

TEST_F(ArgRender, ScalarPointeeThatDidNotFit) {
  FuncArgs p = plan({{"v", b.ptr(u64)}, {"w", b.ptr(u64)}});
  std::vector<uint8_t> whole;
  put<uint64_t>(whole, 0, 42);
  Capture c = Capture().slot(0x1000).slot(0x2000).bytes(whole).bytes({1, 2});
  EXPECT_EQ(compact(p, c), "› v=&42 w=&...");
  EXPECT_EQ(json(p, c),
            R"({"v":{"addr":4096,"value":42},"w":{"addr":8192,"truncated":true,"value":null}})");
}

TEST_F(ArgRender, RecursiveListHeadPointersPrintAsAddresses) {
  // struct list_head { struct list_head *next, *prev; }: the pointer refers to the next id.
  int lh_ptr = b.ptr(int(btf__type_cnt(b.get())) + 1);
  int list_head = SyntheticBtf::checked(btf__add_struct(b.get(), "list_head", 16));
  ASSERT_EQ(list_head, lh_ptr + 1);
  SyntheticBtf::ok(btf__add_field(b.get(), "next", lh_ptr, 0, 0));
  SyntheticBtf::ok(btf__add_field(b.get(), "prev", lh_ptr, 64, 0));
  int cb = b.ptr(b.proto(0, {{"x", i32}}));
  int item = b.structure(
      "item", 40, {{"id", i32, 0}, {"node", list_head, 64}, {"fn", cb, 192}, {"fn2", cb, 256}});
  std::vector<uint8_t> d;
  put<int32_t>(d, 0, 7);
  put<uint64_t>(d, 8, 0xffff888100002000);
  put<uint64_t>(d, 16, 0xffff888100003000);
  put<uint64_t>(d, 24, 0xffffffff81000010);
  put<uint64_t>(d, 32, 0xffffffff81000020);
  opts.name_addr = [](uint64_t addr) -> std::optional<std::string> {
    if (addr == 0xffffffff81000010) return "do_something";
    return std::nullopt;
  };
  FuncArgs p = plan({{"it", b.ptr(item)}, {"head", b.ptr(list_head)}, {"cb", cb}, {"cb2", cb}});
  Capture c = Capture()
                  .slot(kAttrAddr)
                  .slot(0x2000)
                  .slot(0xffffffff81000010)
                  .slot(0xffffffff81000030)
                  .bytes(d)
                  .bytes(std::vector<uint8_t>(d.begin() + 8, d.begin() + 24))
                  .none()
                  .none();
  EXPECT_EQ(
      compact(p, c),
      "› it=&{.id=7,.node={.next=0xffff888100002000,.prev=0xffff888100003000},.fn=&do_something,"
      ".fn2=0xffffffff81000020} head=&{.next=0xffff888100002000,.prev=0xffff888100003000} "
      "cb=&do_something cb2=0xffffffff81000030");
  EXPECT_EQ(
      json(p, c),
      R"({"cb":{"addr":18446744071578845200,"symbol":"do_something"},"cb2":18446744071578845232,)"
      R"("head":{"addr":8192,"value":{"next":18446612686365007872,"prev":18446612686365011968}},)"
      R"("it":{"addr":18446612686365003776,"value":{"fn":{"addr":18446744071578845200,"symbol":"do_something"},)"
      R"("fn2":18446744071578845216,"id":7,"node":{"next":18446612686365007872,"prev":18446612686365011968}}}})");
}

TEST_F(ArgRender, FlexibleArrayMemberPrintsNothing) {
  int flex = b.structure("flex", 4, {{"n", i32, 0}, {"data", b.array(i32, 0), 32}});
  std::vector<uint8_t> d = ints_at({{0, 3}});
  FuncArgs p = plan({{"f", b.ptr(flex)}});
  Capture c = Capture().slot(0x1000).bytes(d);
  EXPECT_EQ(compact(p, c), "› f=&{.n=3}");
  EXPECT_EQ(json(p, c), R"({"f":{"addr":4096,"value":{"n":3}}})");
}

TEST_F(ArgRender, BitfieldsSmallAndWideSignedAndUnsigned) {
  int uint = b.int_type("unsigned int", 4, 0);
  int bits = b.structure("bits", 16,
                         {{"a", uint, 0, 3},
                          {"b", i32, 3, 5},
                          {"c", uint, 8, 24},
                          {"big", u64, 32, 40},
                          {"flag", boolean, 72, 1},
                          {"zero", uint, 73, 7}});
  unsigned __int128 v = 5 | (uint64_t(-3 & 0x1f) << 3) | (uint64_t(0x123456) << 8);
  v |= (unsigned __int128)0x12345678abULL << 32;
  v |= (unsigned __int128)1 << 72;
  std::vector<uint8_t> d(16);
  std::memcpy(d.data(), &v, 16);
  FuncArgs p = plan({{"bits", b.ptr(bits)}});
  Capture c = Capture().slot(0x1000).bytes(d);
  EXPECT_EQ(compact(p, c), "› bits=&{.a=5,.b=-3,.c=1193046,.big=0x12345678ab,.flag=true}");
  EXPECT_EQ(
      json(p, c),
      R"({"bits":{"addr":4096,"value":{"a":5,"b":-3,"big":78187493547,"c":1193046,"flag":true}}})");
}

TEST_F(ArgRender, IntBitsPastTheValueReadAsZero) {
  // Malformed BTF (tests/fuzz/btf_fuzz): an int whose bit offset lies past its bytes.
  int odd = b.int_type("odd", 4, 0);
  auto* t = const_cast<struct btf_type*>(btf__type_by_id(b.get(), odd));
  *reinterpret_cast<uint32_t*>(t + 1) |= 200u << 16;
  EXPECT_EQ(compact(plan({{"x", odd}}), Capture().slot(7)), "› x=0");
}

TEST_F(ArgRender, AnonymousMembersAreFlattened) {
  int un = b.composite(true, nullptr, 8, {{"x", i32, 0}, {"y", u64, 0}});
  int st = b.structure(nullptr, 1, {{"tag", chr, 0}});
  int anon = b.structure("anon", 24, {{"kind", i32, 0}, {nullptr, un, 64}, {nullptr, st, 128}});
  std::vector<uint8_t> d(24);
  put<int32_t>(d, 0, 1);
  put<uint64_t>(d, 8, 5);
  d[16] = 'A';
  FuncArgs p = plan({{"a", b.ptr(anon)}});
  Capture c = Capture().slot(0x1000).bytes(d);
  EXPECT_EQ(compact(p, c), "› a=&{.kind=1,.x=5,.y=5,.tag='A'}");
  EXPECT_EQ(json(p, c), R"({"a":{"addr":4096,"value":{"kind":1,"tag":65,"x":5,"y":5}}})");
}

TEST_F(ArgRender, EnumsOfEverySizeByName) {
  int e1 = b.enumeration("e1", 1, {{"E1_A", 1}, {"E1_B", 2}});
  int e2 = b.enumeration("e2", 2, {{"E2_A", 1}});
  int e4 = b.enumeration("e4", 4, {{"E4_NEG", -1}, {"E4_A", 1}});
  int e8 = SyntheticBtf::checked(btf__add_enum64(b.get(), "e8", 8, false));
  SyntheticBtf::ok(btf__add_enum64_value(b.get(), "E8_BIG", 0x100000000ULL));
  FuncArgs p = plan({{"a", e1}, {"b", e2}, {"c", e4}, {"d", e8}, {"e", e4}, {"f", e8}});
  // Registers carry garbage above the enum's size.
  Capture c = Capture()
                  .slot(0xab02)
                  .slot(300)
                  .slot(0xdeadbeefffffffff)
                  .slot(0x100000000)
                  .slot(0xfffffffb)
                  .slot(7);
  EXPECT_EQ(compact(p, c), "› a=E1_B b=300 c=E4_NEG d=E8_BIG e=-5 f=7");
  EXPECT_EQ(json(p, c), R"({"a":"E1_B","b":300,"c":"E4_NEG","d":"E8_BIG","e":-5,"f":7})");
}

TEST_F(ArgRender, ScalarsBoolsCharsAndWideIntegers) {
  FuncArgs p = plan({{"w", i128}, {"neg", s64}, {"big", u64}, {"c", chr}, {"nc", chr}});
  Capture c = Capture().slot(1).slot(2).slot(uint64_t(-12)).slot(~0ULL).slot('\'').slot(7);
  EXPECT_EQ(compact(p, c), R"(› w=0x20000000000000001 neg=-12 big=0xffffffffffffffff c='\'' nc=7)");
  EXPECT_EQ(json(p, c),
            R"({"big":18446744073709551615,"c":39,"nc":7,"neg":-12,"w":"0x20000000000000001"})");
  FuncArgs narrow = plan({{"w", i128}});
  EXPECT_EQ(compact(narrow, Capture().slot(0xff).slot(0)), "› w=0xff");
}

TEST_F(ArgRender, StructsByValueInTwoSlots) {
  int twelve = b.structure("twelve", 12, {{"a", i32, 0}, {"b", i32, 32}, {"c", i32, 64}});
  FuncArgs p = plan({{"t", twelve}, {"n", i32}, {"ok", boolean}, {"no", boolean}});
  Capture c =
      Capture().slot(0x0000000200000001).slot(0xdead000000000003).slot(9).slot(1).slot(0x100);
  EXPECT_EQ(compact(p, c), "› t={.a=1,.b=2,.c=3} n=9 ok=true no=false");
  EXPECT_EQ(json(p, c), R"({"n":9,"no":false,"ok":true,"t":{"a":1,"b":2,"c":3}})");
}

TEST_F(ArgRender, ArraysElideTrailingZerosAndNest) {
  int name = b.array(chr, 8);
  int row = b.array(i32, 3);
  int s = b.structure(
      "arrs", 52, {{"v", b.array(i32, 5), 0}, {"m", b.array(row, 2), 160}, {"name", name, 352}});
  std::vector<uint8_t> d(52);
  for (int i = 0; i < 3; ++i) put<int32_t>(d, 4 * i, i + 1);
  for (int i = 0; i < 4; ++i) put<int32_t>(d, 20 + 4 * i, 10 + i);
  std::memcpy(d.data() + 44, "abc", 4);
  FuncArgs p = plan({{"s", b.ptr(s)}});
  Capture c = Capture().slot(0x1000).bytes(d);
  EXPECT_EQ(compact(p, c), "› s=&{.v=[1,2,3],.m=[[10,11,12],[13]],.name='abc'}");
  EXPECT_EQ(json(p, c),
            R"({"s":{"addr":4096,"value":{"m":[[10,11,12],[13]],"name":"abc","v":[1,2,3]}}})");
}

TEST_F(ArgRender, HugeAndCutArraysStayBounded) {
  int empty = b.structure("empty", 0, {});
  int holder = b.structure("holder", 4, {{"n", i32, 0}, {"e", b.array(empty, 0x7fffffff), 32}});
  FuncArgs p = plan({{"ints", b.ptr(b.array(i32, 0x3fffffff))}, {"h", b.ptr(holder)}});
  std::vector<uint8_t> d;
  for (int i = 0; i < 3; ++i) put<int32_t>(d, 4 * i, i + 1);
  d.resize(14);
  std::vector<uint8_t> h = ints_at({{0, 1}});
  Capture c = Capture().slot(0x1000).slot(0x2000).bytes(d).bytes(h);
  EXPECT_EQ(compact(p, c), "› ints=&[1,2,3,...] h=&{.n=1}");
  EXPECT_EQ(
      json(p, c),
      R"({"h":{"addr":8192,"value":{"n":1}},"ints":{"addr":4096,"truncated":true,"value":[1,2,3]}})");
}

TEST_F(ArgRender, DepthLimitStopsSelfContainingTypes) {
  // Malformed BTF: a struct holding itself by value would recurse forever without the limit.
  int self = SyntheticBtf::checked(btf__add_struct(b.get(), "self", 4));
  SyntheticBtf::ok(btf__add_field(b.get(), "x", i32, 0, 0));
  SyntheticBtf::ok(btf__add_field(b.get(), "in", self, 0, 0));
  std::vector<uint8_t> d = ints_at({{0, 1}});
  std::string want = "{...}";
  for (int i = 0; i < 17; ++i) want.insert(0, "{.x=1,.in=").append("}");
  opts.max_arg_width = 0;
  EXPECT_EQ(compact(plan({{"s", b.ptr(self)}}), Capture().slot(0x1000).bytes(d)), "› s=&" + want);
}

TEST_F(ArgRender, NotesForUncapturedAndVariadicArguments) {
  int proto = SyntheticBtf::checked(btf__add_func_proto(b.get(), i32));
  for (uint32_t i = 0; i < RS_MAX_ARG_SLOTS + 2; ++i)
    SyntheticBtf::ok(btf__add_func_param(b.get(), ("a" + std::to_string(i)).c_str(), i32));
  FuncArgs many = args_from_prototype(b.get(), proto);
  Capture c;
  for (uint32_t i = 0; i < RS_MAX_ARG_SLOTS; ++i) c.slot(i).none();
  Lines l = lines(many, c);
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[1], "› ... (2 more arguments not captured)");

  FuncArgs printf_like = plan({{"fmt", cchar_p}, {nullptr, 0}});
  EXPECT_EQ(lines(printf_like, Capture().slot(0x1000).bytes(bytes_of(std::string("%d\n\0", 4)))),
            (Lines{R"(› fmt='%d\n')", "› ... (variadic arguments not captured)"}));
  printf_like.uncaptured = 1;
  EXPECT_EQ(lines(printf_like, Capture().slot(0).none())[1],
            "› ... (1 more argument and variadic arguments not captured)");
  EXPECT_EQ(lines(plan({}), Capture()), Lines{});
}

TEST_F(ArgRender, RawSlotsInHex) {
  FuncArgs raw = raw_func_args("no BTF prototype");
  Capture c;
  for (uint32_t i = 0; i < arg_register_slots(); ++i) c.slot(i == 0 ? kAttrAddr : i - 1);
  std::string want = "› arg0=0xffff888100001000";
  std::string want_json = R"({"arg0":18446612686365003776)";
  for (uint32_t i = 1; i < arg_register_slots(); ++i) {
    want += " arg" + std::to_string(i) + "=0x" + std::to_string(i - 1);
    want_json += ",\"arg" + std::to_string(i) + "\":" + std::to_string(i - 1);
  }
  EXPECT_EQ(lines(raw, c), Lines{want});
  EXPECT_EQ(json(raw, c), want_json + "}");
}

TEST_F(ArgRender, RenderArgsGivesNamesAndValues) {
  std::vector<RenderedArg> r = render_args(attr_plan(), attr_capture().cap, opts);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].name, "attr");
  EXPECT_EQ(r[0].value, "&{.map_type=2,.key_size=4,.value_size=4}");
  EXPECT_EQ(r[1].name, "size");
  EXPECT_EQ(r[1].value, "72");
}

TEST_F(ArgRender, QualifiedAndTypedefPointers) {
  int attr_t = b.typedef_of("attr_t", b.typedef_of("attr_inner_t", attr));
  int cv = SyntheticBtf::checked(btf__add_volatile(b.get(), b.konst(attr_t)));
  int cptr = b.konst(b.ptr(cv));  // const volatile attr_t *const
  EXPECT_EQ(compact(plan({{"attr", cptr}, {"size", u32}}), attr_capture()),
            "› attr=&{.map_type=2,.key_size=4,.value_size=4} size=72");
}

TEST_F(ArgRender, LargeStructByValueReadThroughItsAddress) {
  // arm64 passes a struct over 16 bytes by reference; the plan reads it like a pointer.
  int big = b.structure("big", 24, {{"a", u64, 0}, {"b", u64, 64}, {"c", u64, 128}});
  FuncArgs p;
  p.btf = b.get();
  p.args.push_back({"big", uint32_t(big), {RS_ARG_PTR, 0, 0, 1, 24}});
  std::vector<uint8_t> d;
  put<uint64_t>(d, 0, 1);
  put<uint64_t>(d, 16, 3);
  EXPECT_EQ(compact(p, Capture().slot(0x1000).bytes(d)), "› big={.a=1,.c=3}");
  EXPECT_EQ(compact(p, Capture().slot(0x1000).arg(RS_ARG_ERR_FAULT)), "› big=&<unreadable 0x1000>");
}

TEST_F(ArgRender, VerboseKeepsScalarsAndStringsOnTheirLine) {
  opts.mode = ArgFmtMode::Verbose;
  FuncArgs p = plan({{"name", cchar_p}, {"n", i32}, {"e", b.ptr(attr)}});
  EXPECT_EQ(lines(p, Capture()
                         .slot(0x1000)
                         .slot(5)
                         .slot(0x2000)
                         .bytes(bytes_of("ab"))
                         .none()
                         .bytes(std::vector<uint8_t>(16))),
            (Lines{"› name = 'ab'...", "› n = 5", "› e = &{}"}));
}

TEST_F(ArgRender, JsonOfTheAttrExample) {
  EXPECT_EQ(
      json(attr_plan(), attr_capture()),
      R"({"attr":{"addr":18446612686365003776,"value":{"key_size":4,"map_type":2,"value_size":4}},"size":72})");
}

}  // namespace
}  // namespace retsnoop
