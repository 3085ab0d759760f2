#include "discovery/tracepoints.h"

#include <bpf/btf.h>
#include <linux/btf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string_view>

#include "discovery/btf_ptr.h"
#include "util/error.h"

namespace retsnoop {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> subdirs(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory(ec)) names.push_back(e.path().filename());
  }
  std::sort(names.begin(), names.end());
  return names;
}

constexpr std::string_view kBtfTracePrefix = "btf_trace_";

}  // namespace

std::vector<TracepointName> list_tracepoints(const std::vector<std::string>& tracefs_dirs) {
  for (const std::string& dir : tracefs_dirs) {
    fs::path events = fs::path(dir) / "events";
    std::error_code ec;
    if (!fs::is_directory(events, ec)) continue;
    std::vector<TracepointName> out;
    for (const std::string& cat : subdirs(events)) {
      for (std::string& name : subdirs(events / cat)) out.push_back({cat, std::move(name)});
    }
    return out;
  }
  throw UserError("cannot list tracepoints: no tracefs events directory (is tracefs mounted?)");
}

std::vector<std::string> list_raw_tracepoints(const std::string& btf_path) {
  BtfPtr b(btf__parse(btf_path.c_str(), nullptr));
  if (!b)
    throw UserError("cannot list raw tracepoints: cannot read BTF '" + btf_path +
                    "': " + std::strerror(errno));
  std::vector<std::string> out;
  for (uint32_t id = 1; id < btf__type_cnt(b.get()); ++id) {
    const btf_type* t = btf__type_by_id(b.get(), id);
    if (!btf_is_typedef(t)) continue;
    std::string_view name = btf__name_by_offset(b.get(), t->name_off);
    if (name.starts_with(kBtfTracePrefix)) out.emplace_back(name.substr(kBtfTracePrefix.size()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace retsnoop
