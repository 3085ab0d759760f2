#include "attach/load_diagnosis.h"

#include <bpf/libbpf.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <vector>

namespace retsnoop {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string_view after(std::string_view s, std::string_view prefix) {
  size_t at = s.find(prefix);
  return at == std::string_view::npos ? std::string_view() : s.substr(at + prefix.size());
}

// "libbpf: prog 'NAME': ..." -> NAME.
std::string_view quoted_after(std::string_view line, std::string_view prefix) {
  std::string_view rest = after(line, prefix);
  size_t end = rest.find('\'');
  return end == std::string_view::npos ? std::string_view() : rest.substr(0, end);
}

// Verifier lines that summarize rather than explain.
bool is_summary(std::string_view line) {
  return line.empty() || line.starts_with("processed ") || line.starts_with("verification time") ||
         line.starts_with("stack depth") || line.starts_with("-- END") ||
         line.find("BEGIN PROG LOAD LOG") != std::string_view::npos;
}

// The verifier's last explaining line in the log of prog, searching back from line index end.
std::string_view verifier_reason(const std::vector<std::string_view>& lines, size_t end) {
  for (size_t i = end; i-- > 0;) {
    std::string_view l = trim(lines[i]);
    if (l.find("BEGIN PROG LOAD LOG") != std::string_view::npos) break;
    if (!is_summary(l)) return l;
  }
  return {};
}

}  // namespace

std::string load_failure_cause(std::string_view warnings) {
  std::vector<std::string_view> lines = split_lines(warnings);
  for (std::string_view l : lines) {
    if (l.find("extern (") != std::string_view::npos) {
      std::string_view name = quoted_after(l, "'");
      std::string_view why = after(after(l, "extern ("), "': ");
      if (!name.empty()) return "extern '" + std::string(name) + "': " + std::string(trim(why));
    }
  }
  for (std::string_view l : lines) {
    std::string_view name = quoted_after(l, "map '");
    std::string_view why = after(l, "': failed to create: ");
    if (!name.empty() && !why.empty())
      return "map '" + std::string(name) + "': cannot create it: " + std::string(trim(why));
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("-- END PROG LOAD LOG --") == std::string_view::npos) continue;
    std::string_view reason = verifier_reason(lines, i);
    std::string_view name;
    for (size_t j = i + 1; j-- > 0 && name.empty();)
      if (lines[j].find("BEGIN PROG LOAD LOG") != std::string_view::npos)
        name = quoted_after(lines[j], "prog '");
    if (!reason.empty())
      return "prog '" + std::string(name) + "': the verifier refused it: " + std::string(reason);
  }
  for (std::string_view l : lines) {
    std::string_view name = quoted_after(l, "prog '");
    std::string_view why = after(l, "': BPF program load failed: ");
    if (!name.empty() && !why.empty())
      return "prog '" + std::string(name) + "': the kernel refused it: " + std::string(trim(why));
  }
  return {};
}

namespace {

// libbpf has one print callback for the process: the active collector's text and the printer
// it stands in front of.
std::string* g_sink = nullptr;
libbpf_print_fn_t g_previous = nullptr;

// Verifier logs of refused programs can run to megabytes; their end holds the reason.
constexpr size_t kMaxKept = 1u << 20;

int collect(libbpf_print_level level, const char* fmt, va_list ap) {
  if (level == LIBBPF_WARN && g_sink && g_sink->size() < kMaxKept) {
    va_list copy;
    va_copy(copy, ap);
    int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    if (n > 0) {
      std::string msg(size_t(n), '\0');
      va_copy(copy, ap);
      std::vsnprintf(msg.data(), msg.size() + 1, fmt, copy);
      va_end(copy);
      // A verifier log's reason is at its end.
      if (msg.size() > kMaxKept) msg.erase(0, msg.size() - kMaxKept);
      g_sink->append(msg);
    }
  }
  return g_previous ? g_previous(level, fmt, ap) : 0;
}

}  // namespace

LibbpfWarnings::LibbpfWarnings() {
  g_sink = &text_;
  g_previous = libbpf_set_print(collect);
}

LibbpfWarnings::~LibbpfWarnings() {
  libbpf_set_print(g_previous);
  g_sink = nullptr;
  g_previous = nullptr;
}

}  // namespace retsnoop
