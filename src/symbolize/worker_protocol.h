// The messages between retsnoop and its symbolizer worker (symbolizer_worker.h), one per
// SOCK_SEQPACKET packet. A file travels as a descriptor (SCM_RIGHTS) with the request that
// hands it over, so the worker never opens anything. What the worker sends back is read as
// untrusted: every length is checked against what the packet holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "symbolize/symbolizer.h"
#include "util/owned_fd.h"

namespace retsnoop {

enum class WorkerOp : uint32_t {
  Load = 1,       // fd: the file; reply: LoadReply
  DebugFile = 2,  // fd: a candidate debug file of handle; reply: status 1 when it was taken
  Lookup = 3,     // reply: a SymbolizedAddr
  Close = 4,      // no reply
  Crash = 5,      // test builds only (FaultPoint::SymbolizerCrash): the worker aborts
  Hang = 6,       // test builds only (FaultPoint::SymbolizerHang): the worker stops answering
  RetKind = 7,    // reply: u8, the RetKind of the function at offset, or kNoRetKind
  FuncBtf = 8,    // reply: blob, raw BTF of the prototype of the function at offset; i32, its id
};

// RetKind's reply when the file has no DWARF for the function.
constexpr uint8_t kNoRetKind = 0xff;

struct WorkerRequest {
  uint32_t op = 0;
  uint32_t handle = 0;
  uint64_t seq = 0;
  uint64_t offset = 0;
  uint32_t is_return_addr = 0;
  uint32_t pad = 0;
};

struct LoadReply {
  std::string build_id;  // hex, as ElfFile::build_id()
  bool wants_debug_file = false;
};

// The largest packet either side sends: a reply with every string at its cap fits.
constexpr size_t kMaxWorkerPacket = 256 << 10;
// Each string of a reply is cut at this many bytes, and a reply carries at most this many inline
// frames, so that a reply stays within one packet.
constexpr size_t kMaxReplyString = 4096;
constexpr size_t kMaxReplyInlines = 16;
// A blob (raw BTF of one prototype and the types it names) is cut at this many bytes: a cut one
// does not parse, and the function is then shown without types.
constexpr size_t kMaxReplyBlob = 192 << 10;

// A reply: the request's seq, a status, and a payload.
class ReplyWriter {
 public:
  ReplyWriter(uint64_t seq, int32_t status);
  void u8(uint8_t v) { raw(&v, 1); }
  void i32(int32_t v) { raw(&v, sizeof(v)); }
  void u64(uint64_t v) { raw(&v, sizeof(v)); }
  void str(std::string_view s);
  void blob(std::string_view s);
  void sym(const SymbolizedAddr& s);
  const std::string& bytes() const { return buf_; }

 private:
  void raw(const void* p, size_t n) { buf_.append(static_cast<const char*>(p), n); }
  void sized(std::string_view s, size_t cap);
  void loc(const SourceLoc& l);
  std::string buf_;
};

// Reads a reply; any read past its end makes ok() false for good.
class ReplyReader {
 public:
  explicit ReplyReader(std::string_view bytes) : rest_(bytes) {}
  uint8_t u8();
  int32_t i32();
  uint64_t u64();
  std::string str();
  std::string blob();
  SymbolizedAddr sym();
  bool ok() const { return ok_; }

 private:
  bool take(void* p, size_t n);
  std::string sized(size_t cap);
  SourceLoc loc();
  std::string_view rest_;
  bool ok_ = true;
};

// Sends one packet, with fd attached when it is >= 0. Never raises SIGPIPE. 0 or -errno.
int send_packet(int sock, const void* data, size_t size, int fd = -1);
// Receives one packet into buf (resized to what came) and the descriptor attached, if any.
// 0, -EPIPE at the peer's end, -EMSGSIZE for a packet too large or a descriptor cut off, or
// -errno.
int recv_packet(int sock, std::string& buf, OwnedFd* fd = nullptr);

}  // namespace retsnoop
