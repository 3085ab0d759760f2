// Questions to the running kernel's BTF: a type's id, does a type have a member. Kernel fixes
// without a feature probe of their own are recognized by the types they introduced. The BTF is
// parsed on the first question only (about 5 MB: it costs start-up time when nobody asks).
#pragma once

#include <memory>
#include <string>
#include <string_view>

struct btf;

namespace retsnoop {

class KernelBtf {
 public:
  // path: raw BTF or an ELF with a .BTF section.
  explicit KernelBtf(std::string path = "/sys/kernel/btf/vmlinux");
  ~KernelBtf();
  KernelBtf(const KernelBtf&) = delete;
  KernelBtf& operator=(const KernelBtf&) = delete;

  // kind is BTF_KIND_STRUCT, BTF_KIND_FUNC, ... 0 when there is no such type, or no BTF.
  int type_id(int kind, const char* name);
  // path is "member" or "member.submember"; anonymous struct and union members are looked
  // through, as C does.
  bool has_member(int kind, const char* type, std::string_view path);

 private:
  const struct btf* get();

  struct Deleter {
    void operator()(struct btf* b) const;
  };
  const std::string path_;
  std::unique_ptr<struct btf, Deleter> btf_;
  bool loaded_ = false;
};

}  // namespace retsnoop
