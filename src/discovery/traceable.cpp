#include "discovery/traceable.h"

#include <cerrno>
#include <cstring>

#include "util/file_text.h"
#include "util/log.h"
#include "util/strings.h"
#include "util/text_lines.h"

namespace retsnoop {

namespace {

// Since 6.0 the kernel lists ftrace records it could not map to a symbol (typically weak functions
// overridden at link time) under this placeholder; they are not functions one can attach to.
constexpr std::string_view kInvalidPrefix = "__ftrace_invalid_address___";

void add_line(std::string_view line, std::vector<TraceableFunc>& out) {
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
  out.push_back({name, mod});
}

}  // namespace

std::vector<TraceableFunc> parse_available_filter_functions(std::string_view text) {
  std::vector<TraceableFunc> out;
  for_each_line(text, [&](std::string_view line) { add_line(line, out); });
  return out;
}

std::optional<TraceableList> read_traceable_functions(
    const std::vector<std::string>& tracefs_dirs) {
  for (const std::string& dir : tracefs_dirs) {
    std::string path = dir + "/available_filter_functions";
    std::optional<std::string> text = read_text_file(path);
    if (text) {
      auto held = std::make_unique<const std::string>(std::move(*text));
      std::vector<TraceableFunc> funcs = parse_available_filter_functions(*held);
      return TraceableList{std::move(held), std::move(funcs)};
    }
    logf(LOG_DEBUG, "%s: %s\n", path.c_str(), std::strerror(errno));
  }
  return std::nullopt;
}

}  // namespace retsnoop
