#include "discovery/syscall_format.h"

#include <algorithm>
#include <cctype>

#include "discovery/tp_format.h"

namespace retsnoop {

namespace {

constexpr uint32_t kArgsOffset = 16;  // struct syscall_trace_enter: trace_entry, int nr, args[]
constexpr size_t kMaxNameLen = 64;

bool is_identifier(std::string_view s) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  return !s.empty() && s.size() <= kMaxNameLen &&
         !std::isdigit(static_cast<unsigned char>(s.front())) && std::ranges::all_of(s, word);
}

}  // namespace

std::optional<std::string_view> syscall_of_wrapper(std::string_view func) {
  for (std::string_view prefix : {"__x64_sys_", "__arm64_sys_"}) {
    if (!func.starts_with(prefix)) continue;
    std::string_view name = func.substr(prefix.size());
    if (is_identifier(name)) return name;
  }
  return std::nullopt;
}

std::optional<std::vector<SyscallParam>> parse_syscall_format(std::string_view text) {
  std::vector<TpField> fields = parse_tp_format(text);
  if (fields.empty() || fields.front().name != "__syscall_nr") return std::nullopt;
  std::vector<SyscallParam> params;
  for (size_t i = 1; i < fields.size(); ++i) {
    const TpField& f = fields[i];
    // Kernels that copy user strings into the event add fields of their own after the
    // arguments: located ones, named with two underscores.
    if (f.loc != TpLoc::Fixed || f.name.starts_with("__")) break;
    uint32_t want = kArgsOffset + 8 * static_cast<uint32_t>(params.size());
    if (params.size() == kMaxSyscallArgs || f.offset != want || f.size != 8 || f.elem_size != 0 ||
        !is_identifier(f.name))
      return std::nullopt;
    params.push_back({f.name, f.type});
  }
  return params;
}

}  // namespace retsnoop
