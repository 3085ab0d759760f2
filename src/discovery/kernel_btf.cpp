#include "discovery/kernel_btf.h"

#include <bpf/btf.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <unordered_set>

#include "discovery/btf_ptr.h"
#include "discovery/btf_types.h"
#include "discovery/helper_kinds.h"
#include "discovery/symbol_name.h"
#include "util/hash_index.h"
#include "util/log.h"

namespace retsnoop {

namespace {

RetKind classify_int(const struct btf_type* t) {
  uint8_t enc = btf_int_encoding(t);
  if (enc & BTF_INT_BOOL) return RetKind::Bool;
  if (!(enc & BTF_INT_SIGNED)) return RetKind::Unsigned;
  if (t->size == 4) return RetKind::Int32;
  if (t->size == 8) return RetKind::Int64;
  return t->size == 2 ? RetKind::Int16 : RetKind::Int8;
}

RetKind classify_enum(const struct btf_type* t) {
  if (t->size == 4) return RetKind::Int32;
  if (t->size == 8) return RetKind::Int64;
  return RetKind::Unsigned;
}

// GCC's ".constprop.N" only specializes arguments and ThinLTO's ".llvm.N" only renames, so the
// source function's return type still holds. ".isra.N" may drop the return value and ".part.N"
// is an outlined fragment: their source prototype says nothing about them.
bool clone_keeps_return_type(std::string_view name) {
  std::string_view suffix = name.substr(base_name(name).size());
  return suffix.starts_with(".constprop.") || suffix.starts_with(".llvm.");
}

// How results of a function returning BTF type type_id are judged (0 is void, and so is a type
// that does not resolve).
RetKind classify_return_type(const struct btf* btf, uint32_t type_id) {
  const struct btf_type* t = resolve_btf_type(btf, type_id).t;
  if (!t) return RetKind::Void;
  if (btf_is_ptr(t)) return RetKind::Ptr;
  if (btf_is_int(t)) return classify_int(t);
  if (btf_is_any_enum(t)) return classify_enum(t);
  return RetKind::Unsigned;  // structs, unions and floats by value cannot carry an errno
}

bool is_composite(const btf_type* t) { return btf_is_struct(t) || btf_is_union(t); }

// The composite type a member holds, through typedefs and qualifiers; null for anything else.
const btf_type* member_composite(const struct btf* b, const btf_member& m) {
  int id = btf__resolve_type(b, m.type);
  const btf_type* t = id > 0 ? btf__type_by_id(b, id) : nullptr;
  return t && is_composite(t) ? t : nullptr;
}

// The member called name of composite t, searched inside anonymous members too. Each composite
// is searched once: a malformed BTF may hold one inside itself, or in many members at once.
const btf_member* find_member(const struct btf* b, const btf_type* t, std::string_view name,
                              std::unordered_set<const btf_type*>& searched) {
  if (!searched.insert(t).second) return nullptr;
  const btf_member* m = btf_members(t);
  for (int i = 0; i < btf_vlen(t); ++i, ++m) {
    const char* mname = btf__name_by_offset(b, m->name_off);
    if (*mname) {
      if (name == mname) return m;
      continue;
    }
    if (const btf_type* anon = member_composite(b, *m))
      if (const btf_member* found = find_member(b, anon, name, searched)) return found;
  }
  return nullptr;
}

}  // namespace

struct KernelBtf::Source {
  BtfPtr btf;
  uint32_t first_id = 1;           // of its own types: a split BTF's start after its base's
  std::optional<HashIndex> funcs;  // FUNC ids by name, in id order; built on the first find()

  void index() {
    uint32_t cnt = btf__type_cnt(btf.get());
    funcs.emplace(cnt - first_id);
    for (uint32_t id = first_id; id < cnt; ++id) {
      const struct btf_type* t = btf__type_by_id(btf.get(), id);
      if (btf_is_func(t)) funcs->insert(hash_name(name_of(id)), id);
    }
  }

  std::string_view name_of(uint32_t id) const {
    return btf__name_by_offset(btf.get(), btf__type_by_id(btf.get(), id)->name_off);
  }

  // The first FUNC called name, 0 if none.
  uint32_t find(std::string_view name) {
    if (!funcs) index();
    uint32_t found = 0;
    funcs->find(hash_name(name), [&](uint32_t id) {
      if (name_of(id) != name) return false;
      found = id;
      return true;
    });
    return found;
  }
};

KernelBtf::KernelBtf(std::string btf_dir) : dir_(std::move(btf_dir)) {}

KernelBtf::~KernelBtf() = default;

KernelBtf::Source* KernelBtf::vmlinux() {
  if (vmlinux_loaded_) return vmlinux_.get();
  vmlinux_loaded_ = true;
  std::string path = dir_ + "/vmlinux";
  BtfPtr btf(btf__parse(path.c_str(), nullptr));
  if (!btf) {
    logf(LOG_INFO, "no BTF at %s (%s): return types unknown, every function is judged as int\n",
         path.c_str(), std::strerror(errno));
    return nullptr;
  }
  vmlinux_ = std::make_unique<Source>(Source{std::move(btf), 1, std::nullopt});
  return vmlinux_.get();
}

bool KernelBtf::has_vmlinux() { return vmlinux() != nullptr; }

KernelBtf::Source* KernelBtf::source_for(std::string_view module) {
  if (module.empty() || !vmlinux()) return vmlinux();
  auto [it, fresh] = modules_.try_emplace(std::string(module));
  if (!fresh) return it->second.get();
  std::string path = dir_ + "/" + it->first;
  BtfPtr btf(btf__parse_split(path.c_str(), vmlinux_->btf.get()));
  if (!btf) {
    logf(LOG_DEBUG, "no BTF for module %s: %s\n", it->first.c_str(), std::strerror(errno));
    return nullptr;
  }
  uint32_t first_id = btf__type_cnt(vmlinux_->btf.get());
  it->second = std::make_unique<Source>(Source{std::move(btf), first_id, std::nullopt});
  return it->second.get();
}

FuncType KernelBtf::lookup(Source& src, std::string_view module, std::string_view name) {
  bool exact = true;
  uint32_t id = src.find(name);
  if (id == 0 && clone_keeps_return_type(name)) {
    id = src.find(base_name(name));
    exact = false;
  }
  if (id == 0) return {};
  const struct btf_type* func = btf__type_by_id(src.btf.get(), id);
  // libbpf loads no BTF whose FUNC lacks a prototype.
  const struct btf_type* proto = btf__type_by_id(src.btf.get(), func->type);
  FuncType out{classify_return_type(src.btf.get(), proto->type), true, exact ? id : 0,
               uint8_t(btf_vlen(proto))};
  if (module.empty()) out.ret = bpf_helper_ret_kind(name).value_or(out.ret);
  return out;
}

FuncType KernelBtf::func_type(std::string_view module, std::string_view name) {
  Source* src = source_for(module);
  return src ? lookup(*src, module, name) : FuncType{};
}

bool KernelBtf::has_func(std::string_view module, std::string_view name) {
  Source* src = source_for(module);
  return src && src->find(name) != 0;
}

const struct btf* KernelBtf::btf_of(std::string_view module) {
  Source* src = source_for(module);
  return src ? src->btf.get() : nullptr;
}

int KernelBtf::type_id(int kind, const char* name) {
  Source* src = vmlinux();
  int id = src ? btf__find_by_name_kind(src->btf.get(), name, kind) : 0;
  return id > 0 ? id : 0;
}

bool KernelBtf::has_member(int kind, const char* type, std::string_view path) {
  Source* src = vmlinux();
  const struct btf* b = src ? src->btf.get() : nullptr;
  int id = b ? btf__find_by_name_kind(b, type, kind) : -1;
  const btf_type* t = id > 0 ? btf__type_by_id(b, id) : nullptr;
  while (t) {
    size_t dot = path.find('.');
    std::unordered_set<const btf_type*> searched;
    const btf_member* m = find_member(b, t, path.substr(0, dot), searched);
    if (!m) return false;
    if (dot == std::string_view::npos) return true;
    path.remove_prefix(dot + 1);
    t = member_composite(b, *m);
  }
  return false;
}

bool KernelBtf::has_enumerator(const char* type, std::string_view name) {
  Source* src = vmlinux();
  const struct btf* b = src ? src->btf.get() : nullptr;
  int id = b ? btf__find_by_name_kind(b, type, BTF_KIND_ENUM) : -1;
  if (id <= 0) return false;
  const btf_type* t = btf__type_by_id(b, id);
  const struct btf_enum* e = btf_enum(t);
  for (uint16_t i = 0; i < btf_vlen(t); ++i)
    if (btf__name_by_offset(b, e[i].name_off) == name) return true;
  return false;
}

}  // namespace retsnoop
