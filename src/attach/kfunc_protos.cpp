#include "attach/kfunc_protos.h"

#include <bpf/btf.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"

namespace retsnoop {

namespace {

struct Param {
  std::string name;
  uint32_t type = 0;
};

struct DeclaredProto {
  uint32_t ret = 0;
  std::vector<Param> params;
};

DeclaredProto declared_proto(const btf* b, const btf_type* proto) {
  DeclaredProto out;
  out.ret = proto->type;
  const btf_param* p = btf_params(proto);
  for (unsigned i = 0; i < btf_vlen(proto); ++i)
    out.params.push_back({btf__name_by_offset(b, p[i].name_off), p[i].type});
  return out;
}

bool is_pointer(const btf* b, uint32_t type) {
  int id = btf__resolve_type(b, type);
  return id > 0 && btf_is_ptr(btf__type_by_id(b, id));
}

[[noreturn]] void fail(const std::string& name, const std::string& why) {
  throw UserError("kfunc '" + name + "': " + why);
}

// Adds the prototype with the kernel's parameter count: ours cut short, or ours followed by
// untyped pointers for the kernel's extra ones. Returns its type id.
uint32_t add_matching_proto(btf* b, const std::string& name, const DeclaredProto& ours,
                            const btf* kernel, const btf_type* kernel_proto) {
  unsigned want = btf_vlen(kernel_proto);
  const btf_param* kp = btf_params(kernel_proto);
  uint32_t void_ptr = 0;
  for (unsigned i = ours.params.size(); i < want; ++i)
    if (!is_pointer(kernel, kp[i].type))
      fail(name,
           "this kernel added parameter " + std::to_string(i + 1) + ", which is not a pointer");
  if (want > ours.params.size()) {
    int id = btf__add_ptr(b, 0);
    if (id < 0) fail(name, std::string("cannot add a pointer type: ") + std::strerror(-id));
    void_ptr = id;
  }
  int proto = btf__add_func_proto(b, ours.ret);
  if (proto < 0) fail(name, std::string("cannot add a prototype: ") + std::strerror(-proto));
  for (unsigned i = 0; i < want; ++i) {
    bool declared = i < ours.params.size();
    std::string pname =
        declared && !ours.params[i].name.empty() ? ours.params[i].name : "arg" + std::to_string(i);
    int err = btf__add_func_param(b, pname.c_str(), declared ? ours.params[i].type : void_ptr);
    if (err) fail(name, std::string("cannot add a parameter: ") + std::strerror(-err));
  }
  return proto;
}

}  // namespace

std::vector<KfuncProtoChange> match_kfunc_protos(btf* b, const btf* kernel) {
  std::vector<KfuncProtoChange> changes;
  if (!b || !kernel) return changes;
  // Types added below get ids past the original ones: only those are candidates.
  uint32_t count = btf__type_cnt(b);
  for (uint32_t id = 1; id < count; ++id) {
    const btf_type* t = btf__type_by_id(b, id);
    // A FUNC keeps its linkage where other kinds keep their member count.
    if (!btf_is_func(t) || btf_vlen(t) != BTF_FUNC_EXTERN) continue;
    std::string name = btf__name_by_offset(b, t->name_off);
    int kid = btf__find_by_name_kind(kernel, name.c_str(), BTF_KIND_FUNC);
    if (kid < 0) continue;  // weak externs stay unresolved; a strong one fails at load by name
    const btf_type* kproto = btf__type_by_id(kernel, btf__type_by_id(kernel, kid)->type);
    DeclaredProto ours = declared_proto(b, btf__type_by_id(b, t->type));
    if (ours.params.size() == btf_vlen(kproto)) continue;
    uint32_t proto = add_matching_proto(b, name, ours, kernel, kproto);
    // Adding types may move them: look the function up again. libbpf reads an extern's
    // prototype through its FUNC at load.
    const_cast<btf_type*>(btf__type_by_id(b, id))->type = proto;
    changes.push_back({name, unsigned(ours.params.size()), btf_vlen(kproto)});
  }
  return changes;
}

}  // namespace retsnoop
