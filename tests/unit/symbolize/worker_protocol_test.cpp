#include "symbolize/worker_protocol.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>

namespace retsnoop {
namespace {

SymbolizedAddr sample() {
  SymbolizedAddr s;
  s.found = true;
  s.name = "ns::f(int)";
  s.offset = 0x1c;
  s.loc = {"/src/a.cpp", 12, 3};
  s.inlines.push_back({"g", {"/src/g.h", 4, 1}});
  return s;
}

TEST(WorkerProtocol, ReplyRoundTrip) {
  ReplyWriter w(42, -5);
  w.sym(sample());
  ReplyReader r(w.bytes());
  EXPECT_EQ(r.u64(), 42u);
  EXPECT_EQ(r.i32(), -5);
  SymbolizedAddr s = r.sym();
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(s.found);
  EXPECT_EQ(s.name, "ns::f(int)");
  EXPECT_EQ(s.offset, 0x1cu);
  EXPECT_EQ(s.loc.file, "/src/a.cpp");
  EXPECT_EQ(s.loc.line, 12);
  ASSERT_EQ(s.inlines.size(), 1u);
  EXPECT_EQ(s.inlines[0].loc.file, "/src/g.h");
}

// Every cut of a valid reply is refused, never read past.
TEST(WorkerProtocol, TruncatedReplyIsRefused) {
  ReplyWriter w(1, 0);
  w.sym(sample());
  for (size_t n = 0; n < w.bytes().size(); ++n) {
    ReplyReader r(std::string_view(w.bytes()).substr(0, n));
    r.u64();
    r.i32();
    r.sym();
    EXPECT_FALSE(r.ok()) << n;
  }
}

TEST(WorkerProtocol, LengthsBeyondTheCapsAreRefused) {
  std::string bytes(12, '\0');
  uint8_t found = 1;
  uint32_t huge = kMaxReplyString + 1;
  bytes.append(reinterpret_cast<const char*>(&found), 1);
  bytes.append(reinterpret_cast<const char*>(&huge), 4);
  bytes.append(huge, 'x');
  ReplyReader r(bytes);
  r.u64();
  r.i32();
  r.sym();
  EXPECT_FALSE(r.ok());
}

TEST(WorkerProtocol, LongStringsAreCutWhenWritten) {
  SymbolizedAddr s;
  s.name.assign(kMaxReplyString * 3, 'n');
  s.inlines.resize(kMaxReplyInlines + 5);
  ReplyWriter w(1, 0);
  w.sym(s);
  EXPECT_LE(w.bytes().size(), kMaxWorkerPacket);
  ReplyReader r(w.bytes());
  r.u64();
  r.i32();
  SymbolizedAddr got = r.sym();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(got.name.size(), kMaxReplyString);
  EXPECT_EQ(got.inlines.size(), kMaxReplyInlines);
}

TEST(WorkerProtocol, PacketCarriesADescriptor) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
  OwnedFd a(sv[0]), b(sv[1]);
  OwnedFd file(open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(file);
  WorkerRequest req{uint32_t(WorkerOp::Load), 0, 9};
  ASSERT_EQ(send_packet(a.get(), &req, sizeof(req), file.get()), 0);
  std::string buf;
  OwnedFd got;
  ASSERT_EQ(recv_packet(b.get(), buf, &got), 0);
  ASSERT_EQ(buf.size(), sizeof(req));
  ASSERT_TRUE(got);
  struct stat st1, st2;
  ASSERT_EQ(fstat(file.get(), &st1), 0);
  ASSERT_EQ(fstat(got.get(), &st2), 0);
  EXPECT_EQ(st1.st_ino, st2.st_ino);
  a.reset();
  EXPECT_EQ(recv_packet(b.get(), buf), -EPIPE);
}

}  // namespace
}  // namespace retsnoop
