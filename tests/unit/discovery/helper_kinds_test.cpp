#include "discovery/helper_kinds.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

// BTF says u64 for every BPF_CALL_x helper; the table gives their bpf_func_proto ret_type.
TEST(HelperKinds, ProtoReturnTypesOverrideU64) {
  EXPECT_EQ(bpf_helper_ret_kind("bpf_map_lookup_elem"),
            RetKind::Ptr);  // RET_PTR_TO_MAP_VALUE_OR_NULL
  EXPECT_EQ(bpf_helper_ret_kind("bpf_map_update_elem"), RetKind::Int64);  // RET_INTEGER
  EXPECT_EQ(bpf_helper_ret_kind("bpf_ringbuf_reserve"), RetKind::Ptr);
  EXPECT_EQ(bpf_helper_ret_kind("bpf_ringbuf_submit"), RetKind::Void);  // RET_VOID
  EXPECT_EQ(bpf_helper_ret_kind("bpf_get_stack"), RetKind::Int64);
}

TEST(HelperKinds, ValueHelpersAndOtherFunctionsAreNotListed) {
  EXPECT_EQ(bpf_helper_ret_kind("bpf_ktime_get_ns"), std::nullopt);
  EXPECT_EQ(bpf_helper_ret_kind("bpf_get_current_pid_tgid"), std::nullopt);
  EXPECT_EQ(bpf_helper_ret_kind("map_create"), std::nullopt);
  EXPECT_EQ(bpf_helper_ret_kind(""), std::nullopt);
}

}  // namespace
}  // namespace retsnoop
