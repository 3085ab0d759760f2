#include "attach/uprobe_links.h"

#include <bpf/libbpf.h>

#include <cerrno>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attach/imm_mark.h"
#include "attach/probe_pmu.h"
#include "attach/prog_copy.h"
#include "bpf/func_mark.h"
#include "util/errno_names.h"
#include "util/error.h"
#include "util/log.h"

namespace retsnoop {

namespace {

// Offsets and cookies of one binary's functions, as a multi link takes them.
struct BinaryTargets {
  std::vector<unsigned long> offsets;
  std::vector<__u64> cookies;
};

std::map<std::string, BinaryTargets> by_binary(const FuncTable& funcs) {
  std::map<std::string, BinaryTargets> out;
  for (size_t id = 0; id < funcs.size(); ++id) {
    if (!funcs[id].is_user()) continue;
    BinaryTargets& t = out[funcs[id].binary];
    t.offsets.push_back(funcs[id].file_offset);
    t.cookies.push_back(id);
  }
  return out;
}

[[noreturn]] void refused(const std::string& what, int err) {
  throw UserError("cannot attach uprobes to " + what + ": " + errno_text(err),
                  "retsnoop -V -v shows how this kernel attaches user-space functions");
}

UprobePmu the_uprobe_pmu() {
  std::optional<UprobePmu> pmu = uprobe_pmu();
  if (!pmu)
    throw UserError("cannot attach uprobes: the kernel has no uprobe PMU (" + errno_text(errno) +
                    ")");
  return *pmu;
}

}  // namespace

const char* uprobe_mode_name(UprobeMode mode) {
  switch (mode) {
    case UprobeMode::Multi: return "uprobe-multi";
    case UprobeMode::Single: return "uprobe";
    case UprobeMode::ByMark: return "uprobe (one program per function)";
    case UprobeMode::None: break;
  }
  return "none";
}

UprobeLinks::UprobeLinks(TracerObject& obj, const FuncTable& funcs) {
  if (obj.uprobe_mode() == UprobeMode::Multi)
    attach_multi(obj, funcs);
  else if (obj.uprobe_mode() == UprobeMode::Single)
    attach_single(obj, funcs);
  else if (obj.uprobe_mode() == UprobeMode::ByMark)
    attach_by_mark(obj, funcs);
  if (functions_)
    logf(LOG_INFO, "attached %zu user-space functions with %s\n", functions_,
         uprobe_mode_name(obj.uprobe_mode()));
}

void UprobeLinks::attach_multi(TracerObject& obj, const FuncTable& funcs) {
  for (const auto& [path, t] : by_binary(funcs)) {
    for (bool ret : {false, true}) {
      LIBBPF_OPTS(bpf_uprobe_multi_opts, opts, .offsets = t.offsets.data(),
                  .cookies = t.cookies.data(), .cnt = t.offsets.size(), .retprobe = ret);
      bpf_program* prog = ret ? obj.uprobe_exit_prog() : obj.uprobe_entry_prog();
      // -1: every process that maps the binary, now or later.
      LinkPtr link(bpf_program__attach_uprobe_multi(prog, -1, path.c_str(), nullptr, &opts));
      if (!link) refused(path, errno);
      links_.push_back(std::move(link));
    }
    functions_ += t.offsets.size();
  }
}

void UprobeLinks::attach_single(TracerObject& obj, const FuncTable& funcs) {
  for (size_t id = 0; id < funcs.size(); ++id) {
    const FuncInfo& f = funcs[id];
    if (!f.is_user()) continue;
    for (bool ret : {false, true}) {
      LIBBPF_OPTS(bpf_uprobe_opts, opts, .bpf_cookie = id, .retprobe = ret);
      bpf_program* prog = ret ? obj.uprobe_exit_prog() : obj.uprobe_entry_prog();
      LinkPtr link(
          bpf_program__attach_uprobe_opts(prog, -1, f.binary.c_str(), f.file_offset, &opts));
      if (!link) refused(f.binary + ":" + f.name, errno);
      links_.push_back(std::move(link));
    }
    ++functions_;
  }
}

// Both copies of a function are loaded before either is attached: a rejected copy leaves no
// function traced on entry only.
void UprobeLinks::attach_by_mark(TracerObject& obj, const FuncTable& funcs) {
  UprobePmu pmu = the_uprobe_pmu();
  const ProgTemplate templates[] = {template_of(obj.uprobe_entry_prog(), "uprobe"),
                                    template_of(obj.uprobe_exit_prog(), "uprobe")};
  for (size_t id = 0; id < funcs.size(); ++id) {
    const FuncInfo& f = funcs[id];
    if (!f.is_user()) continue;
    std::string what = f.binary + ":" + f.name;
    CopyProbe probes[2];
    for (int ret : {0, 1}) {
      std::vector<bpf_insn> insns =
          with_mark_replaced(templates[ret].insns, RS_FUNC_MARK, rs_func_mark_value(id, 0));
      AttachError e = load_copy(templates[ret], insns, what, {}, probes[ret].prog);
      if (e.err) refused(what + ": " + e.what, -e.err);
    }
    for (int ret : {0, 1}) {
      probes[ret].event = open_uprobe_at(pmu, f.binary, f.file_offset, ret != 0);
      if (!probes[ret].event) refused(what, errno);
      if (int err = attach_copy_to(probes[ret].event.get(), probes[ret].prog.get()))
        refused(what, -err);
      copies_.push_back(std::move(probes[ret]));
    }
    ++functions_;
  }
}

}  // namespace retsnoop
