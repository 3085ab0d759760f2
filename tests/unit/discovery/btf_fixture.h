// A throwaway /sys/kernel/btf look-alike for discovery tests: "vmlinux" is the BTF fixture ELF
// built by fixtures.cmake, "kvm" a split BTF on top of it written here with libbpf's BTF writer.
#pragma once

#include <bpf/btf.h>
#include <gtest/gtest.h>
#include <linux/btf.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace retsnoop::test_support {

inline const std::string kFixtureVmlinuxBtf =
    std::string(RS_TEST_BINARY_DIR) + "/discovery_btf/vmlinux";

class BtfDir {
 public:
  BtfDir() {
    char tmpl[] = "/tmp/rs_btf_XXXXXX";
    path_ = mkdtemp(tmpl);
    std::filesystem::copy_file(kFixtureVmlinuxBtf, path_ + "/vmlinux");
    write_kvm_module();
  }
  ~BtfDir() { std::filesystem::remove_all(path_); }
  BtfDir(const BtfDir&) = delete;
  BtfDir& operator=(const BtfDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  // kvm_read_guest returns int, kvm_get_vcpu a pointer; both refer to vmlinux's "int".
  void write_kvm_module() {
    struct btf* base = btf__parse(kFixtureVmlinuxBtf.c_str(), nullptr);
    ASSERT_NE(base, nullptr) << "missing BTF fixture " << kFixtureVmlinuxBtf;
    struct btf* mod = btf__new_empty_split(base);
    int int_id = btf__find_by_name_kind(base, "int", BTF_KIND_INT);
    ASSERT_GT(int_id, 0);
    int int_proto = btf__add_func_proto(mod, int_id);
    btf__add_func(mod, "kvm_read_guest", BTF_FUNC_GLOBAL, int_proto);
    int ptr_proto = btf__add_func_proto(mod, btf__add_ptr(mod, int_id));
    btf__add_func(mod, "kvm_get_vcpu", BTF_FUNC_GLOBAL, ptr_proto);
    __u32 size = 0;
    const void* raw = btf__raw_data(mod, &size);
    std::ofstream(path_ + "/kvm", std::ios::binary).write(static_cast<const char*>(raw), size);
    btf__free(mod);
    btf__free(base);
  }

  std::string path_;
};

}  // namespace retsnoop::test_support
