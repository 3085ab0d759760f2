#include "format/stack_fingerprint.h"

#include <gtest/gtest.h>

#include "example_sessions.h"

namespace retsnoop::test {
namespace {

// The kernel of another host, or of another boot: every address moved by the KASLR offset.
class ShiftedSymbolizer : public Symbolizer {
 public:
  ShiftedSymbolizer(Symbolizer& inner, uint64_t shift) : inner_(inner), shift_(shift) {}
  SymbolizedAddr symbolize(uint64_t addr, bool is_return_addr) override {
    return inner_.symbolize(addr - shift_, is_return_addr);
  }

 private:
  Symbolizer& inner_;
  uint64_t shift_;
};

constexpr uint64_t kKaslrShift = 0x1e600000;

std::string fingerprint(const Session& s, const FuncTable& funcs, Symbolizer& sym) {
  FormatOptions opts;
  return stack_fingerprint(stack_signature(s, {funcs, sym, opts}));
}

Session shifted(Session s, uint64_t shift) {
  for (uint64_t& addr : s.kstack) addr += shift;
  return s;
}

TEST(StackFingerprint, SignatureNamesFramesAndTracedCalls) {
  ExampleCase c = percpu_array_case();
  FormatOptions opts;
  StackSignature sig = stack_signature(c.session, {c.funcs.table, c.symbolizer, opts});
  ASSERT_EQ(sig.frames.size(), 6u);
  EXPECT_EQ(sig.frames.front(), "entry_SYSCALL_64_after_hwframe");
  EXPECT_EQ(sig.frames[2], "__x64_sys_bpf");
  EXPECT_EQ(sig.frames.back(), "bpf_map_alloc_percpu");
  EXPECT_EQ(sig.result, "[-ENOMEM]");
}

TEST(StackFingerprint, SameStackAtOtherAddressesHasSameFingerprint) {
  ExampleCase c = percpu_array_case();
  ShiftedSymbolizer other_host(c.symbolizer, kKaslrShift);
  std::string here = fingerprint(c.session, c.funcs.table, c.symbolizer);
  std::string there = fingerprint(shifted(c.session, kKaslrShift), c.funcs.table, other_host);
  EXPECT_EQ(here, there);
  EXPECT_EQ(here.size(), 16u);
  EXPECT_EQ(here.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(StackFingerprint, TimesDurationsAndTaskDoNotMatter) {
  ExampleCase c = percpu_array_case();
  Session other = c.session;
  other.pid = other.tid = 99;
  other.task_comm = "other";
  other.start_ns += 1000;
  other.calls[1].dur_ns = 5;
  EXPECT_EQ(fingerprint(c.session, c.funcs.table, c.symbolizer),
            fingerprint(other, c.funcs.table, c.symbolizer));
}

TEST(StackFingerprint, DifferentResultHasDifferentFingerprint) {
  ExampleCase c = percpu_array_case();
  Session einval = c.session;
  einval.calls.front().res = -22;
  EXPECT_NE(fingerprint(c.session, c.funcs.table, c.symbolizer),
            fingerprint(einval, c.funcs.table, c.symbolizer));
}

TEST(StackFingerprint, DifferentStackHasDifferentFingerprint) {
  ExampleCase c = percpu_array_case();
  Session shorter = c.session;
  shorter.calls.pop_back();
  EXPECT_NE(fingerprint(c.session, c.funcs.table, c.symbolizer),
            fingerprint(shorter, c.funcs.table, c.symbolizer));
}

// Frame boundaries are part of the hash: "ab" + "c" is not "a" + "bc".
TEST(StackFingerprint, FrameBoundariesCount) {
  EXPECT_NE(stack_fingerprint({{"ab", "c"}, "[-EINVAL]"}),
            stack_fingerprint({{"a", "bc"}, "[-EINVAL]"}));
  EXPECT_NE(stack_fingerprint({{"a"}, "b"}), stack_fingerprint({{"a", "b"}, ""}));
}

// The value is part of the output contract: log stores keep fingerprints across versions.
TEST(StackFingerprint, IsStable) {
  EXPECT_EQ(stack_fingerprint({{"__x64_sys_bpf", "__sys_bpf"}, "[-EINVAL]"}), "f8bfead8f34ec858");
  EXPECT_EQ(stack_fingerprint({{}, ""}), "af63bd4c8601b7df");
}

}  // namespace
}  // namespace retsnoop::test
