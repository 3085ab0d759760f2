// The ring buffer's records: BPF writes them, but a record the assembler misreads (a length it
// trusts, a part for a session it never saw) must cost a malformed count, not memory safety.
// The input is a sequence of records, each a little-endian 16-bit length and that many bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "events/session_assembler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  retsnoop::SessionAssembler assembler;
  for (size_t at = 0; at + 2 <= size;) {
    size_t len = data[at] | (size_t{data[at + 1]} << 8);
    at += 2;
    if (len > size - at) len = size - at;
    // A copy of its own, so that ASan sees a read past the record's end.
    std::vector<uint8_t> record(data + at, data + at + len);
    at += len;
    assembler.consume(record.data(), record.size());
  }
  return 0;
}
