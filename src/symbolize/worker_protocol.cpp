#include "symbolize/worker_protocol.h"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace retsnoop {

ReplyWriter::ReplyWriter(uint64_t seq, int32_t status) {
  u64(seq);
  i32(status);
}

void ReplyWriter::sized(std::string_view s, size_t cap) {
  s = s.substr(0, cap);
  uint32_t n = uint32_t(s.size());
  raw(&n, sizeof(n));
  raw(s.data(), s.size());
}

void ReplyWriter::str(std::string_view s) { sized(s, kMaxReplyString); }

void ReplyWriter::blob(std::string_view s) { sized(s, kMaxReplyBlob); }

void ReplyWriter::loc(const SourceLoc& l) {
  str(l.file);
  i32(l.line);
  i32(l.col);
}

void ReplyWriter::sym(const SymbolizedAddr& s) {
  u8(s.found);
  str(s.name);
  u64(s.offset);
  str(s.module);
  str(s.dwarf_name);
  loc(s.loc);
  size_t n = std::min(s.inlines.size(), kMaxReplyInlines);
  u8(uint8_t(n));
  for (size_t i = 0; i < n; ++i) {
    str(s.inlines[i].name);
    loc(s.inlines[i].loc);
  }
}

bool ReplyReader::take(void* p, size_t n) {
  if (!ok_ || rest_.size() < n) {
    ok_ = false;
    std::memset(p, 0, n);
    return false;
  }
  std::memcpy(p, rest_.data(), n);
  rest_.remove_prefix(n);
  return true;
}

uint8_t ReplyReader::u8() {
  uint8_t v;
  take(&v, sizeof(v));
  return v;
}

int32_t ReplyReader::i32() {
  int32_t v;
  take(&v, sizeof(v));
  return v;
}

uint64_t ReplyReader::u64() {
  uint64_t v;
  take(&v, sizeof(v));
  return v;
}

std::string ReplyReader::str() { return sized(kMaxReplyString); }

std::string ReplyReader::blob() { return sized(kMaxReplyBlob); }

std::string ReplyReader::sized(size_t cap) {
  uint32_t n;
  if (!take(&n, sizeof(n)) || n > cap || n > rest_.size()) {
    ok_ = false;
    return {};
  }
  std::string s(rest_.substr(0, n));
  rest_.remove_prefix(n);
  return s;
}

SourceLoc ReplyReader::loc() {
  SourceLoc l;
  l.file = str();
  l.line = i32();
  l.col = i32();
  return l;
}

SymbolizedAddr ReplyReader::sym() {
  SymbolizedAddr s;
  s.found = u8() != 0;
  s.name = str();
  s.offset = u64();
  s.module = str();
  s.dwarf_name = str();
  s.loc = loc();
  size_t n = u8();
  if (n > kMaxReplyInlines) ok_ = false;
  for (size_t i = 0; ok_ && i < n; ++i) {
    InlineFrame f;
    f.name = str();
    f.loc = loc();
    s.inlines.push_back(std::move(f));
  }
  return s;
}

int send_packet(int sock, const void* data, size_t size, int fd) {
  iovec iov{const_cast<void*>(data), size};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  if (fd >= 0) {
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
  }
  ssize_t n;
  do {
    n = sendmsg(sock, &msg, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return -errno;
  return size_t(n) == size ? 0 : -EMSGSIZE;
}

// Every descriptor that came is owned, so none leaks, even those beyond the first.
static int take_fds(msghdr& msg, OwnedFd* fd) {
  int count = 0;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < n; ++i) {
      int got;
      std::memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      OwnedFd owned(got);
      if (fd && count++ == 0) *fd = std::move(owned);
    }
  }
  return count;
}

int recv_packet(int sock, std::string& buf, OwnedFd* fd) {
  buf.resize(kMaxWorkerPacket);
  iovec iov{buf.data(), buf.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(4 * sizeof(int))];
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t n;
  do {
    n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return -errno;
  int fds = take_fds(msg, fd);
  if (n == 0 && fds == 0) return -EPIPE;
  if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) return -EMSGSIZE;
  buf.resize(size_t(n));
  return 0;
}

}  // namespace retsnoop
