#include "discovery/line_plan_report.h"

#include <cinttypes>
#include <cstdio>

#include "util/text_escape.h"

namespace retsnoop {

namespace {

size_t function_count(const LinePlan& plan) {
  size_t n = 0;
  for (size_t i = 0; i < plan.probes.size(); ++i)
    n += i == 0 || plan.probes[i].func_addr != plan.probes[i - 1].func_addr;
  return n;
}

std::string probe_line(const LineProbe& p) {
  char off[32];
  std::snprintf(off, sizeof(off), "+0x%" PRIx64, p.addr - p.func_addr);
  return "  " + escaped(p.func) + off + "  " + escaped(p.file) + ":" + std::to_string(p.line) +
         "\n";
}

}  // namespace

std::string render_line_plan(const LinePlan& plan, int verbosity) {
  if (plan.probes.empty() || verbosity < 1) return "";
  std::string out = "Line probes (" + std::to_string(plan.probes.size()) + ") in " +
                    std::to_string(function_count(plan)) + " functions:\n";
  for (const LineProbe& p : plan.probes) out += probe_line(p);
  return out;
}

}  // namespace retsnoop
