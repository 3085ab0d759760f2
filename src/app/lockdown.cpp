#include "app/lockdown.h"

#include <cerrno>

#include "discovery/file_text.h"
#include "util/errno_names.h"

namespace retsnoop {

namespace {

constexpr std::string_view kModeNames[] = {"none", "integrity", "confidentiality"};

}  // namespace

int parse_lockdown(std::string_view text) {
  for (size_t mode = 0; mode < std::size(kModeNames); ++mode) {
    std::string bracketed = "[" + std::string(kModeNames[mode]) + "]";
    if (text.find(bracketed) != std::string_view::npos) return static_cast<int>(mode);
  }
  return -EINVAL;
}

int read_lockdown(const char* path) {
  std::optional<std::string> text = read_text_file(path);
  return text ? parse_lockdown(*text) : -errno;
}

std::string lockdown_text(int mode) {
  if (mode < 0) return "unknown (" + errno_text(-mode) + ")";
  if (mode >= static_cast<int>(std::size(kModeNames))) return "unknown";
  return std::string(kModeNames[mode]);
}

}  // namespace retsnoop
