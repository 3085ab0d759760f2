#include "discovery/probe_args_plan.h"

#include <bpf/btf.h>

#include <algorithm>
#include <optional>
#include <string>

namespace retsnoop {

namespace {

FuncArgs no_args(std::string reason) {
  FuncArgs out;
  out.raw_reason = std::move(reason);
  return out;
}

// The kernel's prototype typedef has no parameter names; the __bpf_trace_NAME function that the
// kernel generates for the tracepoint has the same parameters, named.
uint32_t named_proto(const struct btf* btf, std::string_view name, uint32_t typedef_proto) {
  std::string func = "__bpf_trace_" + std::string(name);
  int id = btf__find_by_name_kind(btf, func.c_str(), BTF_KIND_FUNC);
  if (id <= 0) return typedef_proto;
  uint32_t proto = btf__type_by_id(btf, id)->type;
  const struct btf_type* t = btf__type_by_id(btf, proto);
  bool same =
      t && btf_is_func_proto(t) && btf_vlen(t) == btf_vlen(btf__type_by_id(btf, typedef_proto));
  return same ? proto : typedef_proto;
}

// The FUNC_PROTO a btf_trace_NAME typedef points to; 0 when it is not one.
uint32_t raw_tp_proto(const struct btf* btf, std::string_view name) {
  std::string type = "btf_trace_" + std::string(name);
  int id = btf ? btf__find_by_name_kind(btf, type.c_str(), BTF_KIND_TYPEDEF) : -1;
  if (id <= 0) return 0;
  const struct btf_type* t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
  if (!t || !btf_is_ptr(t)) return 0;
  uint32_t proto = t->type;
  t = btf__type_by_id(btf, proto);
  return t && btf_is_func_proto(t) && btf_vlen(t) > 0 ? named_proto(btf, name, proto) : 0;
}

// A PTR to struct pt_regs (function prototypes take them); 0 when there is none.
uint32_t pt_regs_ptr(const struct btf* btf, uint32_t regs) {
  for (uint32_t id = 1; id < btf__type_cnt(btf); ++id) {
    const struct btf_type* t = btf__type_by_id(btf, id);
    if (btf_is_ptr(t) && t->type == regs) return id;
  }
  return 0;
}

}  // namespace

FuncArgs plan_kprobe_args(const struct btf* vmlinux) {
  int regs = vmlinux ? btf__find_by_name_kind(vmlinux, "pt_regs", BTF_KIND_STRUCT) : -1;
  uint32_t ptr = regs > 0 ? pt_regs_ptr(vmlinux, regs) : 0;
  if (!ptr) return no_args("no struct pt_regs pointer in BTF");
  FuncArgs plan;
  plan.btf = vmlinux;
  ArgInfo a{"regs", ptr, {}};
  a.spec.kind = RS_ARG_PTR;
  a.spec.flags = RS_ARG_KERNEL;
  a.spec.slots = 1;
  a.spec.size = static_cast<uint32_t>(btf__resolve_size(vmlinux, regs));
  plan.args.push_back(std::move(a));
  return plan;
}

FuncArgs plan_raw_tp_args(const struct btf* vmlinux, std::string_view name) {
  uint32_t proto = raw_tp_proto(vmlinux, name);
  if (!proto) return no_args("no BTF prototype btf_trace_" + std::string(name));
  FuncArgs plan = args_from_prototype(vmlinux, proto);
  if (!plan.raw_reason.empty()) return no_args(plan.raw_reason);
  // The register plan counts the private data parameter; BPF's slot array starts after it.
  plan.args.erase(plan.args.begin());
  for (ArgInfo& a : plan.args) {
    bool unnamed = a.name == "arg" + std::to_string(a.spec.slot);
    --a.spec.slot;
    if (unnamed) a.name = "arg" + std::to_string(a.spec.slot);
  }
  return plan;
}

FuncArgs plan_tp_args(std::string_view format) {
  std::vector<TpField> fields = parse_tp_format(format);
  if (fields.empty()) return no_args("no fields in the tracepoint's format");
  FuncArgs plan;
  ArgInfo record{"record", 0, {}};
  record.spec.kind = RS_ARG_PTR;
  record.spec.flags = RS_ARG_KERNEL;
  record.spec.slots = 1;
  for (const TpField& f : fields) record.spec.size = std::max(record.spec.size, f.offset + f.size);
  plan.args.push_back(std::move(record));
  for (TpField& f : fields) {
    if (f.loc == TpLoc::Fixed) continue;
    if (plan.args.size() == RS_MAX_ARG_SLOTS) {
      ++plan.uncaptured;
      continue;
    }
    ArgInfo a{f.name, 0, {}};
    a.spec.kind = RS_ARG_DATA_LOC;
    a.spec.flags = RS_ARG_KERNEL | (f.loc == TpLoc::Relative ? RS_ARG_REL_LOC : 0);
    a.spec.slots = 1;
    a.spec.size = f.offset;
    f.capture = static_cast<uint32_t>(plan.args.size());
    plan.args.push_back(std::move(a));
  }
  // Located fields without a capture are not shown; capture 0 is the record's fixed part.
  std::erase_if(fields, [](const TpField& f) { return f.loc != TpLoc::Fixed && f.capture == 0; });
  plan.tp_fields = std::move(fields);
  return plan;
}

std::vector<FuncArgs> plan_probe_args(const struct btf* vmlinux, const ProbeTable& probes,
                                      const std::vector<std::string>& tracefs_dirs) {
  std::vector<FuncArgs> plans;
  plans.reserve(probes.size());
  std::optional<FuncArgs> regs;  // the same for every kprobe: planned once
  for (const ProbeSpec& p : probes) {
    switch (p.kind) {
      case InjectKind::RawTracepoint: plans.push_back(plan_raw_tp_args(vmlinux, p.name)); break;
      case InjectKind::Kprobe:
      case InjectKind::Kretprobe:
        if (!regs) regs = plan_kprobe_args(vmlinux);
        plans.push_back(*regs);
        break;
      case InjectKind::Tracepoint: {
        std::optional<std::string> format = read_tp_format(tracefs_dirs, p.category, p.name);
        plans.push_back(format ? plan_tp_args(*format)
                               : no_args("no format file for " + probe_label(p)));
        break;
      }
    }
  }
  return plans;
}

}  // namespace retsnoop
