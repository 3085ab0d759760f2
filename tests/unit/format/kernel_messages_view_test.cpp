#include "format/kernel_messages_view.h"

#include <gtest/gtest.h>

#include "fake_symbolizer.h"
#include "format/json_view.h"
#include "format/message_emitter.h"
#include "test_funcs.h"

namespace retsnoop::test {
namespace {

struct MessagesCase {
  TestFuncs funcs;
  FakeSymbolizer symbolizer{"messages.sym"};
  FormatOptions opts;
  Session session;

  MessagesCase() {
    session.messages = {
        {.kind = KernelMessageKind::Fs,
         .caller = 0xffffffff81300042,
         .prefix = "tmpfs",
         .fmt = "Bad value for '%s'",
         .args = {{.value = 0xffff888000001000, .str = "size"}}},
        {.kind = KernelMessageKind::Extack,
         .literal = true,
         .caller = 0xffffffff81400010,
         .fmt = "Unknown device type\x1b[2J"},
        {.kind = KernelMessageKind::Verifier, .literal = true, .fmt = "R0 !read_ok\n"},
    };
  }

  FormatContext ctx() { return {funcs.table, symbolizer, opts}; }
};

TEST(KernelMessagesView, OneAlignedRowPerMessageTextEscaped) {
  MessagesCase c;
  EXPECT_EQ(format_kernel_messages(c.session, c.ctx()),
            "KERNEL MESSAGES\n"
            "    shmem_parse_one  fs        tmpfs: Bad value for 'size'\n"
            "    __rtnl_newlink   extack    Unknown device type\\x1b[2J\n"
            "    [unknown]        verifier  R0 !read_ok\n");
}

TEST(KernelMessagesView, StackNamesTheFunctionPastThePlumbing) {
  MessagesCase c;
  c.session.messages = {
      {.kind = KernelMessageKind::Printk,
       .fmt = "Unable to find swap-space signature\n",
       .stack = {0xffffffff81500000, 0xffffffff81500110, 0xffffffff81500220, 0xffffffff81500330,
                 0xffffffff81600044}},
      {.kind = KernelMessageKind::Verifier,
       .literal = true,
       .fmt = "R0 !read_ok\n",
       .stack = {0xffffffffc0001000, 0xffffffffc0002000, 0xffffffff81700009, 0xffffffff81700100,
                 0xffffffff81700250}},
      {.kind = KernelMessageKind::Printk, .fmt = "x\n", .stack = {0xffffffff81500000}},
  };
  EXPECT_EQ(format_kernel_messages(c.session, c.ctx()),
            "KERNEL MESSAGES\n"
            "    __do_sys_swapon  printk    Unable to find swap-space signature\n"
            "    check_reg_arg    verifier  R0 !read_ok\n"
            "    [unknown]        printk    x\n");
  // The probed function is no return address; the frames above it are.
  EXPECT_EQ(c.symbolizer.queries[0], std::make_pair(uint64_t{0xffffffff81500000}, false));
  EXPECT_EQ(c.symbolizer.queries[1], std::make_pair(uint64_t{0xffffffff81500110}, true));
}

TEST(KernelMessagesView, PlumbingIsKnownByName) {
  EXPECT_TRUE(is_message_plumbing("vprintk_store"));
  EXPECT_TRUE(is_message_plumbing("_dev_err"));
  EXPECT_TRUE(is_message_plumbing("verbose"));
  EXPECT_FALSE(is_message_plumbing("read_swap_header"));
  EXPECT_FALSE(is_message_plumbing("_dev_error"));
}

TEST(KernelMessagesView, NoMessageNoBlock) {
  MessagesCase c;
  c.session.messages.clear();
  EXPECT_EQ(format_kernel_messages(c.session, c.ctx()), "");
}

TEST(KernelMessagesView, MaxLenCutsTheText) {
  MessagesCase c;
  c.opts.messages_max_len = 8;
  EXPECT_NE(format_kernel_messages(c.session, c.ctx()).find("tmpfs: B...\n"), std::string::npos);
}

TEST(KernelMessagesView, JsonCarriesTheMessages) {
  MessagesCase c;
  std::string j = format_session_json(c.session, c.ctx(), 0);
  EXPECT_NE(j.find(R"("messages":[{"function":"shmem_parse_one","source":"fs",)"
                   R"("text":"tmpfs: Bad value for 'size'")"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find(R"("source":"verifier","text":"R0 !read_ok")"), std::string::npos) << j;
}

}  // namespace
}  // namespace retsnoop::test
