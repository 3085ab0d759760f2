// A classic tracepoint's tracefs format file (-J tp:... with -A), and the record bytes its hits
// capture laid out as the file says; read as a system call's sys_enter format too, its
// parameters' C types parsed. Input: the format text, a NUL, then the record.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "captured_render.h"
#include "discovery/btf_type_text.h"
#include "discovery/probe_args_plan.h"
#include "discovery/syscall_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t* nul = static_cast<const uint8_t*>(std::memchr(data, 0, size));
  size_t text_size = nul ? size_t(nul - data) : size;
  std::string_view format(reinterpret_cast<const char*>(data), text_size);
  std::span<const uint8_t> record(data + text_size, size - text_size);
  if (!record.empty()) record = record.subspan(1);

  retsnoop::FuncArgs plan = retsnoop::plan_tp_args(format);
  retsnoop::fuzz::render_every_way(plan, retsnoop::fuzz::capture_of(plan, record));
  if (auto params = retsnoop::parse_syscall_format(format))
    for (const retsnoop::SyscallParam& p : *params) retsnoop::parse_c_type(p.type);
  return 0;
}
