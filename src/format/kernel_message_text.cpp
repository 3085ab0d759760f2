#include "format/kernel_message_text.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace retsnoop {

namespace {

// A hostile format must not make a message megabytes long.
constexpr int kMaxWidth = 256;

struct Spec {
  std::string flags;
  int width = -1;
  int precision = -1;
  int length = 0;  // bits of the argument: 8, 16, 32 or 64
  char conv = 0;
};

// Reads a run of digits or a '*', which takes the next argument.
int read_number(std::string_view fmt, size_t& i, const std::vector<KernelMessageArg>& args,
                size_t& next_arg) {
  if (i < fmt.size() && fmt[i] == '*') {
    ++i;
    int v = next_arg < args.size() ? int(int32_t(args[next_arg].value)) : 0;
    ++next_arg;
    return std::clamp(v, 0, kMaxWidth);
  }
  int v = 0;
  for (; i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i])); ++i)
    v = std::min(v * 10 + (fmt[i] - '0'), kMaxWidth);
  return v;
}

int read_length(std::string_view fmt, size_t& i) {
  int bits = 32;
  while (i < fmt.size()) {
    char c = fmt[i];
    if (c == 'h')
      bits = bits == 16 ? 8 : 16;
    else if (c == 'l' || c == 'z' || c == 't' || c == 'j' || c == 'L' || c == 'q')
      bits = 64;
    else
      break;
    ++i;
  }
  return bits;
}

// Parses the conversion at fmt[start] == '%'; i ends after it.
Spec parse_spec(std::string_view fmt, size_t start, size_t& i,
                const std::vector<KernelMessageArg>& args, size_t& next_arg) {
  Spec s;
  i = start + 1;
  while (i < fmt.size() && std::string_view("-+ #0").find(fmt[i]) != std::string_view::npos)
    s.flags += fmt[i++];
  if (i < fmt.size() && (fmt[i] == '*' || std::isdigit(static_cast<unsigned char>(fmt[i]))))
    s.width = read_number(fmt, i, args, next_arg);
  if (i < fmt.size() && fmt[i] == '.') {
    ++i;
    s.precision = read_number(fmt, i, args, next_arg);
  }
  s.length = read_length(fmt, i);
  if (i < fmt.size()) s.conv = fmt[i++];
  return s;
}

std::string printf_spec(const Spec& s, const char* length, char conv) {
  std::string out = "%" + s.flags;
  if (s.width >= 0) out += std::to_string(s.width);
  if (s.precision >= 0) out += "." + std::to_string(s.precision);
  return out + length + conv;
}

uint64_t truncated(uint64_t v, int bits) { return bits == 64 ? v : v & ((1ull << bits) - 1); }

int64_t sign_extended(uint64_t v, int bits) {
  if (bits == 64) return int64_t(v);
  uint64_t sign = 1ull << (bits - 1);
  return int64_t((truncated(v, bits) ^ sign) - sign);
}

template <typename T>
std::string snprintf_text(const std::string& spec, T v) {
  char buf[2 * kMaxWidth + 64];
  int n = std::snprintf(buf, sizeof(buf), spec.c_str(), v);
  return std::string(buf, n < 0 ? 0 : std::min<size_t>(n, sizeof(buf) - 1));
}

std::string string_arg(const Spec& s, const KernelMessageArg& a) {
  std::string text = a.value == 0 ? "(null)" : a.str ? *a.str : "(efault)";
  if (s.precision >= 0 && text.size() > size_t(s.precision)) text.resize(s.precision);
  if (s.width > 0 && text.size() < size_t(s.width)) {
    std::string pad(s.width - text.size(), ' ');
    text = s.flags.find('-') != std::string::npos ? text + pad : pad + text;
  }
  return text;
}

// One conversion with its argument; nullopt for what is copied as written.
std::optional<std::string> convert(const Spec& s, const KernelMessageArg& a) {
  switch (s.conv) {
    case 's': return string_arg(s, a);
    case 'd':
    case 'i':
      return snprintf_text(printf_spec(s, "ll", 'd'), (long long)sign_extended(a.value, s.length));
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      return snprintf_text(printf_spec(s, "ll", s.conv),
                           (unsigned long long)truncated(a.value, s.length));
    case 'c': return snprintf_text(printf_spec(s, "", 'c'), int(uint8_t(a.value)));
    default: return std::nullopt;
  }
}

bool takes_argument(char conv) {
  return std::string_view("sdiuxXocp").find(conv) != std::string_view::npos;
}

}  // namespace

std::string expand_kernel_format(std::string_view fmt, const std::vector<KernelMessageArg>& args) {
  std::string out;
  size_t next_arg = 0;
  for (size_t i = 0; i < fmt.size();) {
    if (fmt[i] != '%') {
      out += fmt[i++];
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out += '%';
      i += 2;
      continue;
    }
    size_t start = i;
    Spec s = parse_spec(fmt, start, i, args, next_arg);
    // The kernel's %p extensions are the letters and digits after it.
    if (s.conv == 'p')
      while (i < fmt.size() && std::isalnum(static_cast<unsigned char>(fmt[i]))) ++i;
    std::string_view raw = fmt.substr(start, i - start);
    if (!takes_argument(s.conv) || next_arg >= args.size()) {
      out += raw;
      continue;
    }
    std::optional<std::string> text = convert(s, args[next_arg++]);
    out += text ? *text : std::string(raw);
  }
  return out;
}

std::string kernel_message_text(const KernelMessage& m, size_t max_len) {
  std::string text = m.literal ? m.fmt : expand_kernel_format(m.fmt, m.args);
  if (!m.prefix.empty()) text = m.prefix + ": " + text;
  // The verifier's lines end with the newline it writes to its log.
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (text.size() > max_len) {
    text.resize(max_len);
    text += "...";
  }
  return text;
}

const char* kernel_message_kind_name(KernelMessageKind kind) {
  switch (kind) {
    case KernelMessageKind::Fs: return "fs";
    case KernelMessageKind::Extack: return "extack";
    case KernelMessageKind::Verifier: return "verifier";
    case KernelMessageKind::Printk: return "printk";
    case KernelMessageKind::Unknown: break;
  }
  return "unknown";
}

}  // namespace retsnoop
