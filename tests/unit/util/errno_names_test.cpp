#include "util/errno_names.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace retsnoop {
namespace {

struct LibcErrno {
  const char* name;
  int value;
};

// Every canonical errno glibc's <errno.h> knows, with libc's own value: our table must agree.
#define LIBC(e) \
  { #e, e }
constexpr LibcErrno kLibc[] = {
    // clang-format off
    LIBC(EPERM), LIBC(ENOENT), LIBC(ESRCH), LIBC(EINTR), LIBC(EIO), LIBC(ENXIO), LIBC(E2BIG),
    LIBC(ENOEXEC), LIBC(EBADF), LIBC(ECHILD), LIBC(EAGAIN), LIBC(ENOMEM), LIBC(EACCES),
    LIBC(EFAULT), LIBC(ENOTBLK), LIBC(EBUSY), LIBC(EEXIST), LIBC(EXDEV), LIBC(ENODEV),
    LIBC(ENOTDIR), LIBC(EISDIR), LIBC(EINVAL), LIBC(ENFILE), LIBC(EMFILE), LIBC(ENOTTY),
    LIBC(ETXTBSY), LIBC(EFBIG), LIBC(ENOSPC), LIBC(ESPIPE), LIBC(EROFS), LIBC(EMLINK), LIBC(EPIPE),
    LIBC(EDOM), LIBC(ERANGE), LIBC(EDEADLK), LIBC(ENAMETOOLONG), LIBC(ENOLCK), LIBC(ENOSYS),
    LIBC(ENOTEMPTY), LIBC(ELOOP), LIBC(ENOMSG), LIBC(EIDRM), LIBC(ECHRNG), LIBC(EL2NSYNC),
    LIBC(EL3HLT), LIBC(EL3RST), LIBC(ELNRNG), LIBC(EUNATCH), LIBC(ENOCSI), LIBC(EL2HLT),
    LIBC(EBADE), LIBC(EBADR), LIBC(EXFULL), LIBC(ENOANO), LIBC(EBADRQC), LIBC(EBADSLT),
    LIBC(EBFONT), LIBC(ENOSTR), LIBC(ENODATA), LIBC(ETIME), LIBC(ENOSR), LIBC(ENONET),
    LIBC(ENOPKG), LIBC(EREMOTE), LIBC(ENOLINK), LIBC(EADV), LIBC(ESRMNT), LIBC(ECOMM),
    LIBC(EPROTO), LIBC(EMULTIHOP), LIBC(EDOTDOT), LIBC(EBADMSG), LIBC(EOVERFLOW), LIBC(ENOTUNIQ),
    LIBC(EBADFD), LIBC(EREMCHG), LIBC(ELIBACC), LIBC(ELIBBAD), LIBC(ELIBSCN), LIBC(ELIBMAX),
    LIBC(ELIBEXEC), LIBC(EILSEQ), LIBC(ERESTART), LIBC(ESTRPIPE), LIBC(EUSERS), LIBC(ENOTSOCK),
    LIBC(EDESTADDRREQ), LIBC(EMSGSIZE), LIBC(EPROTOTYPE), LIBC(ENOPROTOOPT),
    LIBC(EPROTONOSUPPORT), LIBC(ESOCKTNOSUPPORT), LIBC(EOPNOTSUPP), LIBC(EPFNOSUPPORT),
    LIBC(EAFNOSUPPORT), LIBC(EADDRINUSE), LIBC(EADDRNOTAVAIL), LIBC(ENETDOWN), LIBC(ENETUNREACH),
    LIBC(ENETRESET), LIBC(ECONNABORTED), LIBC(ECONNRESET), LIBC(ENOBUFS), LIBC(EISCONN),
    LIBC(ENOTCONN), LIBC(ESHUTDOWN), LIBC(ETOOMANYREFS), LIBC(ETIMEDOUT), LIBC(ECONNREFUSED),
    LIBC(EHOSTDOWN), LIBC(EHOSTUNREACH), LIBC(EALREADY), LIBC(EINPROGRESS), LIBC(ESTALE),
    LIBC(EUCLEAN), LIBC(ENOTNAM), LIBC(ENAVAIL), LIBC(EISNAM), LIBC(EREMOTEIO), LIBC(EDQUOT),
    LIBC(ENOMEDIUM), LIBC(EMEDIUMTYPE), LIBC(ECANCELED), LIBC(ENOKEY), LIBC(EKEYEXPIRED),
    LIBC(EKEYREVOKED), LIBC(EKEYREJECTED), LIBC(EOWNERDEAD), LIBC(ENOTRECOVERABLE),
    LIBC(ERFKILL), LIBC(EHWPOISON),
    // clang-format on
};
constexpr LibcErrno kLibcAliases[] = {LIBC(EWOULDBLOCK), LIBC(EDEADLOCK), LIBC(ENOTSUP)};
#undef LIBC

TEST(ErrnoNames, EveryLibcErrnoParsesToLibcValue) {
  for (const auto& e : kLibc) {
    EXPECT_EQ(errno_from_name(e.name), e.value) << e.name;
    EXPECT_EQ(errno_from_name(std::string("-") + e.name), e.value) << e.name;
  }
}

TEST(ErrnoNames, EveryLibcErrnoPrintsItsName) {
  for (const auto& e : kLibc) {
    const char* name = errno_name(e.value);
    ASSERT_NE(name, nullptr) << e.name;
    EXPECT_STREQ(name, e.name);
  }
}

TEST(ErrnoNames, LibcCoversOneTo133ExceptTheTwoHoles) {
  // 41 and 58 are unused in asm-generic/errno.h; everything else up to EHWPOISON is named.
  for (int v = 1; v <= 133; v++) {
    bool hole = v == 41 || v == 58;
    EXPECT_EQ(errno_name(v) == nullptr, hole) << v;
  }
  EXPECT_EQ(EHWPOISON, 133);
}

TEST(ErrnoNames, AliasesParseButPrintCanonical) {
  for (const auto& e : kLibcAliases) EXPECT_EQ(errno_from_name(e.name), e.value) << e.name;
  EXPECT_STREQ(errno_name(EWOULDBLOCK), "EAGAIN");
  EXPECT_STREQ(errno_name(EDEADLOCK), "EDEADLK");
  EXPECT_STREQ(errno_name(ENOTSUP), "EOPNOTSUPP");
}

TEST(ErrnoNames, KernelInternalCodes) {
  // Values from include/linux/errno.h; libc does not define them.
  const LibcErrno internal[] = {
      {"ERESTARTSYS", 512},
      {"ERESTARTNOINTR", 513},
      {"ERESTARTNOHAND", 514},
      {"ENOIOCTLCMD", 515},
      {"ERESTART_RESTARTBLOCK", 516},
      {"EPROBE_DEFER", 517},
      {"EOPENSTALE", 518},
      {"ENOPARAM", 519},
      {"EBADHANDLE", 521},
      {"ENOTSYNC", 522},
      {"EBADCOOKIE", 523},
      {"ENOTSUPP", 524},
      {"ETOOSMALL", 525},
      {"ESERVERFAULT", 526},
      {"EBADTYPE", 527},
      {"EJUKEBOX", 528},
      {"EIOCBQUEUED", 529},
      {"ERECALLCONFLICT", 530},
  };
  for (const auto& e : internal) {
    EXPECT_EQ(errno_from_name(e.name), e.value) << e.name;
    EXPECT_EQ(errno_from_name(std::string("-") + e.name), e.value) << e.name;
    EXPECT_STREQ(errno_name(e.value), e.name);
  }
  EXPECT_EQ(errno_name(520), nullptr);
  EXPECT_EQ(errno_name(531), nullptr);
}

TEST(ErrnoNames, NullIsZero) {
  EXPECT_EQ(errno_from_name("NULL"), 0);
  EXPECT_EQ(errno_from_name("-NULL"), 0);
}

TEST(ErrnoNames, UnknownNamesAndValues) {
  EXPECT_EQ(errno_from_name(""), std::nullopt);
  EXPECT_EQ(errno_from_name("-"), std::nullopt);
  EXPECT_EQ(errno_from_name("EFOO"), std::nullopt);
  EXPECT_EQ(errno_from_name("einval"), std::nullopt);  // names are case-sensitive like the kernel's
  EXPECT_EQ(errno_from_name("--EINVAL"), std::nullopt);
  EXPECT_EQ(errno_from_name("22"), std::nullopt);
  EXPECT_EQ(errno_name(0), nullptr);
  EXPECT_EQ(errno_name(-22), nullptr);
  EXPECT_EQ(errno_name(134), nullptr);
}

}  // namespace
}  // namespace retsnoop
