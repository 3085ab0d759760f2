#include "app/kernel_btf.h"

#include <bpf/btf.h>

#include <string>

#include "util/log.h"

namespace retsnoop {

namespace {

bool is_composite(const btf_type* t) { return btf_is_struct(t) || btf_is_union(t); }

// The composite type a member holds, through typedefs and qualifiers; null for anything else.
const btf_type* member_composite(const struct btf* b, const btf_member& m) {
  int id = btf__resolve_type(b, m.type);
  const btf_type* t = id > 0 ? btf__type_by_id(b, id) : nullptr;
  return t && is_composite(t) ? t : nullptr;
}

// The member called name of composite t, searched inside anonymous members too.
const btf_member* find_member(const struct btf* b, const btf_type* t, std::string_view name) {
  const btf_member* m = btf_members(t);
  for (int i = 0; i < btf_vlen(t); ++i, ++m) {
    const char* mname = btf__name_by_offset(b, m->name_off);
    if (mname && *mname) {
      if (name == mname) return m;
      continue;
    }
    if (const btf_type* anon = member_composite(b, *m))
      if (const btf_member* found = find_member(b, anon, name)) return found;
  }
  return nullptr;
}

}  // namespace

void KernelBtf::Deleter::operator()(struct btf* b) const { btf__free(b); }

KernelBtf::KernelBtf(std::string path) : path_(std::move(path)) {}
KernelBtf::~KernelBtf() = default;

const struct btf* KernelBtf::get() {
  if (!loaded_) {
    loaded_ = true;
    btf_.reset(btf__parse(path_.c_str(), nullptr));
    if (!btf_) logf(LOG_DEBUG, "%s: no BTF, features that need it read 'no'\n", path_.c_str());
  }
  return btf_.get();
}

int KernelBtf::type_id(int kind, const char* name) {
  const struct btf* b = get();
  int id = b ? btf__find_by_name_kind(b, name, kind) : 0;
  return id > 0 ? id : 0;
}

bool KernelBtf::has_member(int kind, const char* type, std::string_view path) {
  const struct btf* b = get();
  int id = b ? btf__find_by_name_kind(b, type, kind) : -1;
  const btf_type* t = id > 0 ? btf__type_by_id(b, id) : nullptr;
  while (t) {
    size_t dot = path.find('.');
    const btf_member* m = find_member(b, t, path.substr(0, dot));
    if (!m) return false;
    if (dot == std::string_view::npos) return true;
    path.remove_prefix(dot + 1);
    t = member_composite(b, *m);
  }
  return false;
}

}  // namespace retsnoop
