#include "attach/online_cpus.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

#include "util/error.h"

namespace retsnoop {

namespace {

constexpr const char* kOnlinePath = "/sys/devices/system/cpu/online";

[[noreturn]] void bad_list(std::string_view text) {
  throw UserError("unexpected CPU list '" + std::string(text) + "' in " + kOnlinePath);
}

int parse_cpu(std::string_view text, std::string_view whole) {
  int cpu = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), cpu);
  if (ec != std::errc() || end != text.data() + text.size() || cpu < 0) bad_list(whole);
  return cpu;
}

// "N" or "N-M" appended to cpus.
void add_range(std::string_view range, std::string_view whole, std::vector<int>& cpus) {
  size_t dash = range.find('-');
  int first = parse_cpu(range.substr(0, dash), whole);
  int last = dash == std::string_view::npos ? first : parse_cpu(range.substr(dash + 1), whole);
  if (last < first || (!cpus.empty() && first <= cpus.back())) bad_list(whole);
  for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
}

}  // namespace

std::vector<int> parse_cpu_list(std::string_view text) {
  std::string_view list = text.substr(0, text.find_last_not_of('\n') + 1);
  std::vector<int> cpus;
  while (!list.empty()) {
    size_t comma = list.find(',');
    add_range(list.substr(0, comma), text, cpus);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (comma != std::string_view::npos && list.empty()) bad_list(text);
  }
  if (cpus.empty()) bad_list(text);
  return cpus;
}

std::vector<int> online_cpus() {
  std::ifstream in(kOnlinePath);
  if (!in) throw UserError(std::string("cannot read ") + kOnlinePath);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_cpu_list(text.str());
}

}  // namespace retsnoop
