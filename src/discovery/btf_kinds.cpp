#include "discovery/btf_kinds.h"

#include <bpf/btf.h>

#include <cerrno>
#include <cstring>

#include "discovery/helper_kinds.h"
#include "discovery/symbol_name.h"
#include "util/hash_index.h"
#include "util/log.h"

namespace retsnoop {

namespace {

struct BtfDeleter {
  void operator()(struct btf* b) const { btf__free(b); }
};
using BtfPtr = std::unique_ptr<struct btf, BtfDeleter>;

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

// How results of a function returning BTF type type_id are judged (0 is void).
RetKind classify_return_type(const struct btf* btf, uint32_t type_id) {
  const struct btf_type* t = type_id ? btf__type_by_id(btf, type_id) : nullptr;
  while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
    type_id = t->type;
    t = type_id ? btf__type_by_id(btf, type_id) : nullptr;
  }
  if (!t) return RetKind::Void;
  if (btf_is_ptr(t)) return RetKind::Ptr;
  if (btf_is_int(t)) return classify_int(t);
  if (btf_is_any_enum(t)) return classify_enum(t);
  return RetKind::Unsigned;  // structs, unions and floats by value cannot carry an errno
}

}  // namespace

struct BtfFuncs::Source {
  BtfPtr btf;
  HashIndex funcs;  // FUNC ids by name, in id order

  // One pass over this BTF's own types (a split BTF starts after its base's).
  void index(uint32_t first_id) {
    uint32_t cnt = btf__type_cnt(btf.get());
    funcs = HashIndex(cnt - first_id);
    for (uint32_t id = first_id; id < cnt; ++id) {
      const struct btf_type* t = btf__type_by_id(btf.get(), id);
      if (btf_is_func(t)) funcs.insert(hash_name(name_of(id)), id);
    }
  }

  std::string_view name_of(uint32_t id) const {
    return btf__name_by_offset(btf.get(), btf__type_by_id(btf.get(), id)->name_off);
  }

  // The first FUNC called name, 0 if none.
  uint32_t find(std::string_view name) const {
    uint32_t found = 0;
    funcs.find(hash_name(name), [&](uint32_t id) {
      if (name_of(id) != name) return false;
      found = id;
      return true;
    });
    return found;
  }
};

BtfFuncs::BtfFuncs(std::string btf_dir) : dir_(std::move(btf_dir)) {
  std::string path = dir_ + "/vmlinux";
  BtfPtr btf(btf__parse(path.c_str(), nullptr));
  if (!btf) {
    logf(LOG_INFO, "no BTF at %s (%s): return types unknown, every function is judged as int\n",
         path.c_str(), std::strerror(errno));
    return;
  }
  vmlinux_ = std::make_unique<Source>(Source{std::move(btf), {}});
  vmlinux_->index(1);
}

BtfFuncs::~BtfFuncs() = default;

bool BtfFuncs::has_vmlinux() const { return vmlinux_ != nullptr; }

BtfFuncs::Source* BtfFuncs::source_for(std::string_view module) {
  if (module.empty() || !vmlinux_) return vmlinux_.get();
  auto [it, fresh] = modules_.try_emplace(std::string(module));
  if (!fresh) return it->second.get();
  std::string path = dir_ + "/" + it->first;
  BtfPtr btf(btf__parse_split(path.c_str(), vmlinux_->btf.get()));
  if (!btf) {
    logf(LOG_DEBUG, "no BTF for module %s: %s\n", it->first.c_str(), std::strerror(errno));
    return nullptr;
  }
  it->second = std::make_unique<Source>(Source{std::move(btf), {}});
  it->second->index(btf__type_cnt(vmlinux_->btf.get()));
  return it->second.get();
}

FuncType BtfFuncs::lookup(Source& src, std::string_view module, std::string_view name) {
  bool exact = true;
  uint32_t id = src.find(name);
  if (id == 0 && clone_keeps_return_type(name)) {
    id = src.find(base_name(name));
    exact = false;
  }
  if (id == 0) return {};
  const struct btf_type* func = btf__type_by_id(src.btf.get(), id);
  const struct btf_type* proto = btf__type_by_id(src.btf.get(), func->type);
  FuncType out{classify_return_type(src.btf.get(), proto->type), true, exact ? id : 0};
  if (module.empty()) out.ret = bpf_helper_ret_kind(name).value_or(out.ret);
  return out;
}

FuncType BtfFuncs::func_type(std::string_view module, std::string_view name) {
  Source* src = source_for(module);
  return src ? lookup(*src, module, name) : FuncType{};
}

bool BtfFuncs::has_func(std::string_view module, std::string_view name) {
  Source* src = source_for(module);
  return src && src->find(name) != 0;
}

}  // namespace retsnoop
