#include "discovery/traceable.h"

#include <cerrno>
#include <charconv>
#include <cstring>

#include "util/file_text.h"
#include "util/log.h"
#include "util/text_lines.h"
#include "util/strings.h"

namespace retsnoop {

namespace {

// Since 6.0 the kernel lists ftrace records it could not map to a symbol (typically weak functions
// overridden at link time) under this placeholder; they are not functions one can attach to.
constexpr std::string_view kInvalidPrefix = "__ftrace_invalid_address___";

void add_line(std::string_view line, std::vector<TraceableFunc>& out, uint64_t addr = 0) {
  line = trim_right(line);
  size_t sp = line.find(' ');
  std::string_view name = line.substr(0, sp);
  if (name.empty() || name.starts_with(kInvalidPrefix)) return;
  std::string_view mod;
  if (sp != std::string_view::npos) {
    mod = line.substr(sp + 1);
    if (mod.size() >= 2 && mod.front() == '[' && mod.back() == ']')
      mod = mod.substr(1, mod.size() - 2);
  }
  out.push_back({name, mod, addr});
}

// "ADDR rest": rest goes to add_line() with the address; a line without one is skipped.
void add_addr_line(std::string_view line, std::vector<TraceableFunc>& out) {
  uint64_t addr = 0;
  auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), addr, 16);
  size_t pos = end - line.data();
  if (ec != std::errc() || addr == 0 || pos >= line.size() || line[pos] != ' ') return;
  add_line(line.substr(pos + 1), out, addr);
}

std::optional<TraceableList> read_list(const std::string& path, bool with_addrs) {
  std::optional<std::string> text = read_text_file(path);
  if (!text) {
    logf(LOG_DEBUG, "%s: %s\n", path.c_str(), std::strerror(errno));
    return std::nullopt;
  }
  auto held = std::make_unique<const std::string>(std::move(*text));
  std::vector<TraceableFunc> funcs = with_addrs ? parse_available_filter_functions_addrs(*held)
                                                : parse_available_filter_functions(*held);
  return TraceableList{std::move(held), std::move(funcs), with_addrs};
}

}  // namespace

std::vector<TraceableFunc> parse_available_filter_functions(std::string_view text) {
  std::vector<TraceableFunc> out;
  for_each_line(text, [&](std::string_view line) { add_line(line, out); });
  return out;
}

std::vector<TraceableFunc> parse_available_filter_functions_addrs(std::string_view text) {
  std::vector<TraceableFunc> out;
  for_each_line(text, [&](std::string_view line) { add_addr_line(line, out); });
  return out;
}

std::optional<TraceableList> read_traceable_functions(const std::vector<std::string>& tracefs_dirs) {
  for (const std::string& dir : tracefs_dirs) {
    // All zero when the kernel hides addresses: skipped, so the plain list is read instead.
    auto list = read_list(dir + "/available_filter_functions_addrs", true);
    if (list && !list->funcs.empty()) return list;
    list = read_list(dir + "/available_filter_functions", false);
    if (list) return list;
  }
  return std::nullopt;
}

}  // namespace retsnoop
