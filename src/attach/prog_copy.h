// Programs loaded by hand as copies of a template of the tracer object: its instructions, which
// libbpf already relocated against the shared maps, so each copy costs one verifier pass and no
// object load. fentry copies (a trampoline program has one target) and uprobe copies without
// BPF cookies (each carries its function id) are loaded here.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "attach/parallel_attach.h"
#include "attach/prog_btf.h"
#include "util/owned_fd.h"

struct bpf_program;

namespace retsnoop {

struct ProgTemplate {
  const char* name;
  const char* mechanism;  // in messages: "fentry", "uprobe"
  std::span<const bpf_insn> insns;
  bpf_prog_type prog_type;
  bpf_attach_type attach_type;
  CopyFuncInfo func_info;
};

// The loaded program prog as a template: its instructions, type, expected attach type and
// function records.
ProgTemplate template_of(bpf_program* prog, const char* mechanism);

// Where a copy of a trampoline program attaches: its target's BTF id, in vmlinux BTF
// (btf_obj_fd 0) or in the BTF object of a module. Other programs have no target (all 0), and
// so have the programs of a tracing multi link, loaded with its attach type in multi_type.
struct CopyTarget {
  uint32_t btf_id = 0;
  int btf_obj_fd = 0;
  std::optional<bpf_attach_type> multi_type;
};

// Loads insns (t's, or a copy of them with a mark replaced) as a program of t's type into out.
// func names the traced function in the -vv line of the verifier's statistics and load time. A
// rejection is "NAME copy rejected", with the verifier's last words when -v shows them.
AttachError load_copy(const ProgTemplate& t, std::span<const bpf_insn> insns,
                      const std::string& func, const CopyTarget& target, OwnedFd& out);

}  // namespace retsnoop
