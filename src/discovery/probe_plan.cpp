#include "discovery/probe_plan.h"

#include <algorithm>
#include <cstdio>

#include "discovery/glob.h"
#include "discovery/kallsyms.h"
#include "discovery/tracepoints.h"
#include "util/error.h"

namespace retsnoop {

namespace {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
  return buf;
}

// Module functions are in the part of kallsyms that discovery reads only on demand.
const KSym* find_function(Kallsyms& ksyms, const std::string& name) {
  std::vector<const KSym*> copies = ksyms.find_by_name(name);
  if (copies.empty() && !ksyms.complete()) {
    ksyms.load_rest();
    copies = ksyms.find_by_name(name);
  }
  return copies.empty() ? nullptr : copies.front();
}

// A kprobe past the end of its function would silently probe whatever follows it; the kernel
// only refuses offsets beyond the symbol it resolved, and kallsyms bounds the size from above.
void check_function(const ProbeSpec& p, Kallsyms& ksyms) {
  const KSym* sym = find_function(ksyms, p.name);
  if (!sym) throw UserError("probe '" + probe_label(p) + "': no kernel function '" + p.name + "'");
  uint64_t size = ksyms.extent(*sym);
  if (p.offset && size && p.offset >= size)
    throw UserError("probe '" + probe_label(p) + "': offset " + hex(p.offset) + " is outside " +
                    p.name + ", which is at most " + hex(size) + " bytes long");
}

// Loaded on first use: only specs of that kind need them.
class Catalog {
 public:
  explicit Catalog(const ProbeSources& src) : src_(src) {}

  const std::vector<TracepointName>& tracepoints() {
    if (!tps_loaded_) tps_ = list_tracepoints(src_.tracefs_dirs);
    tps_loaded_ = true;
    return tps_;
  }

  const std::vector<std::string>& raw_tracepoints() {
    if (!raw_loaded_) raw_ = list_raw_tracepoints(src_.vmlinux_btf);
    raw_loaded_ = true;
    return raw_;
  }

 private:
  const ProbeSources& src_;
  std::vector<TracepointName> tps_;
  std::vector<std::string> raw_;
  bool tps_loaded_ = false;
  bool raw_loaded_ = false;
};

std::vector<ProbeSpec> expand(const ProbeSpec& spec, Catalog& cat) {
  std::vector<ProbeSpec> out;
  if (spec.kind == InjectKind::Tracepoint) {
    for (const TracepointName& tp : cat.tracepoints()) {
      if (glob_match(spec.category, tp.category) && glob_match(spec.name, tp.name))
        out.push_back({InjectKind::Tracepoint, tp.category, tp.name});
    }
  } else {
    for (const std::string& name : cat.raw_tracepoints()) {
      if (glob_match(spec.name, name)) out.push_back({InjectKind::RawTracepoint, {}, name});
    }
  }
  if (out.empty()) throw UserError("probe '" + probe_label(spec) + "' matches no tracepoint");
  return out;
}

void add_unique(ProbeTable& table, ProbeSpec p) {
  if (std::find(table.begin(), table.end(), p) == table.end()) table.push_back(std::move(p));
}

}  // namespace

ProbeTable plan_probes(const std::vector<ProbeSpec>& specs, const ProbeSources& src,
                       Kallsyms& ksyms) {
  ProbeTable table;
  Catalog cat(src);
  for (const ProbeSpec& spec : specs) {
    if (spec.kind == InjectKind::Kprobe || spec.kind == InjectKind::Kretprobe) {
      check_function(spec, ksyms);
      add_unique(table, spec);
      continue;
    }
    for (ProbeSpec& p : expand(spec, cat)) add_unique(table, std::move(p));
  }
  return table;
}

std::string render_probes(const ProbeTable& probes) {
  if (probes.empty()) return {};
  std::string out = "Injected probes (" + std::to_string(probes.size()) + "):\n";
  for (const ProbeSpec& p : probes) out += "  " + probe_label(p) + "\n";
  return out;
}

}  // namespace retsnoop
