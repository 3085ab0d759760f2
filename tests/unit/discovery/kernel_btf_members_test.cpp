#include "discovery/kernel_btf.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>
#include <linux/btf.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace retsnoop {
namespace {

// A kernel-like BTF where members hide inside anonymous structs and unions, as in union
// bpf_attr and struct bpf_link_info:
//   struct bpf_prog { int active; };
//   struct tp_args { long cookie; };
//   union bpf_attr { struct { struct tp_args raw_tracepoint; }; int flags; };
class BtfFile {
 public:
  BtfFile() {
    struct btf* b = btf__new_empty();
    int int_id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
    int long_id = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
    btf__add_struct(b, "bpf_prog", 4);
    btf__add_field(b, "active", int_id, 0, 0);
    int tp_args = btf__add_struct(b, "tp_args", 8);
    btf__add_field(b, "cookie", long_id, 0, 0);
    int anon = btf__add_struct(b, nullptr, 8);
    btf__add_field(b, "raw_tracepoint", tp_args, 0, 0);
    btf__add_union(b, "bpf_attr", 8);
    btf__add_field(b, nullptr, anon, 0, 0);
    btf__add_field(b, "flags", int_id, 0, 0);
    __u32 size = 0;
    const void* raw = btf__raw_data(b, &size);
    std::filesystem::create_directory(dir_);
    std::ofstream(dir_ + "/vmlinux", std::ios::binary).write(static_cast<const char*>(raw), size);
    btf__free(b);
  }
  ~BtfFile() { std::filesystem::remove_all(dir_); }
  // A directory laid out like /sys/kernel/btf.
  const std::string& path() const { return dir_; }

 private:
  std::string dir_ = "/tmp/rs_kernel_btf_test." + std::to_string(getpid());
};

TEST(KernelBtfMembers, FindsTypesByKind) {
  BtfFile f;
  KernelBtf btf(f.path());
  EXPECT_GT(btf.type_id(BTF_KIND_STRUCT, "bpf_prog"), 0);
  EXPECT_GT(btf.type_id(BTF_KIND_UNION, "bpf_attr"), 0);
  EXPECT_EQ(btf.type_id(BTF_KIND_STRUCT, "bpf_attr"), 0);
  EXPECT_EQ(btf.type_id(BTF_KIND_STRUCT, "bpf_tramp_image"), 0);
}

TEST(KernelBtfMembers, FindsMembersThroughAnonymousOnes) {
  BtfFile f;
  KernelBtf btf(f.path());
  EXPECT_TRUE(btf.has_member(BTF_KIND_STRUCT, "bpf_prog", "active"));
  EXPECT_TRUE(btf.has_member(BTF_KIND_UNION, "bpf_attr", "flags"));
  EXPECT_TRUE(btf.has_member(BTF_KIND_UNION, "bpf_attr", "raw_tracepoint"));
  EXPECT_TRUE(btf.has_member(BTF_KIND_UNION, "bpf_attr", "raw_tracepoint.cookie"));
  EXPECT_FALSE(btf.has_member(BTF_KIND_UNION, "bpf_attr", "raw_tracepoint.name"));
  EXPECT_FALSE(btf.has_member(BTF_KIND_UNION, "bpf_attr", "flags.cookie"));
  EXPECT_FALSE(btf.has_member(BTF_KIND_STRUCT, "bpf_prog", "stats"));
  EXPECT_FALSE(btf.has_member(BTF_KIND_STRUCT, "bpf_link_info", "kprobe_multi.missed"));
}

TEST(KernelBtfMembers, NoBtfAnswersNo) {
  KernelBtf btf("/nonexistent/btf");
  EXPECT_EQ(btf.type_id(BTF_KIND_STRUCT, "bpf_prog"), 0);
  EXPECT_FALSE(btf.has_member(BTF_KIND_STRUCT, "bpf_prog", "active"));
}

}  // namespace
}  // namespace retsnoop
