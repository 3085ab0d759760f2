#include "discovery/host_identity.h"

#include <gtest/gtest.h>
#include <sys/utsname.h>

namespace retsnoop {
namespace {

TEST(HostIdentity, NameAndReleaseFromUnameBootIdFromProc) {
  HostIdentity id = read_host_identity(std::string(RS_FIXTURES_DIR) + "/discovery/host_identity");
  utsname u{};
  ASSERT_EQ(uname(&u), 0);
  EXPECT_EQ(id.host, u.nodename);
  EXPECT_EQ(id.kernel_release, u.release);
  EXPECT_EQ(id.boot_id, "6f1c0c52-aaaa-bbbb-cccc-444455556666");
}

TEST(HostIdentity, MissingBootIdStaysEmpty) {
  EXPECT_EQ(read_host_identity("/nonexistent").boot_id, "");
}

}  // namespace
}  // namespace retsnoop
