// Our own table instead of strerrorname_np(): it must carry the kernel-internal codes (512-530)
// that user-space libc never sees, and the numbers must be the kernel's even when we are built
// against a libc for another architecture.
#include "util/errno_names.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <span>

namespace retsnoop {
namespace {

struct ErrnoEntry {
  int value;
  const char* name;
};

// Sorted by value so printing can binary-search; numbers from asm-generic/errno-base.h,
// asm-generic/errno.h (as used by x86-64) and include/linux/errno.h.
constexpr ErrnoEntry kErrnos[] = {
    // clang-format off
    {1, "EPERM"},                  {2, "ENOENT"},                 {3, "ESRCH"},
    {4, "EINTR"},                  {5, "EIO"},                    {6, "ENXIO"},
    {7, "E2BIG"},                  {8, "ENOEXEC"},                {9, "EBADF"},
    {10, "ECHILD"},                {11, "EAGAIN"},                {12, "ENOMEM"},
    {13, "EACCES"},                {14, "EFAULT"},                {15, "ENOTBLK"},
    {16, "EBUSY"},                 {17, "EEXIST"},                {18, "EXDEV"},
    {19, "ENODEV"},                {20, "ENOTDIR"},               {21, "EISDIR"},
    {22, "EINVAL"},                {23, "ENFILE"},                {24, "EMFILE"},
    {25, "ENOTTY"},                {26, "ETXTBSY"},               {27, "EFBIG"},
    {28, "ENOSPC"},                {29, "ESPIPE"},                {30, "EROFS"},
    {31, "EMLINK"},                {32, "EPIPE"},                 {33, "EDOM"},
    {34, "ERANGE"},                {35, "EDEADLK"},               {36, "ENAMETOOLONG"},
    {37, "ENOLCK"},                {38, "ENOSYS"},                {39, "ENOTEMPTY"},
    {40, "ELOOP"},                 {42, "ENOMSG"},                {43, "EIDRM"},
    {44, "ECHRNG"},                {45, "EL2NSYNC"},              {46, "EL3HLT"},
    {47, "EL3RST"},                {48, "ELNRNG"},                {49, "EUNATCH"},
    {50, "ENOCSI"},                {51, "EL2HLT"},                {52, "EBADE"},
    {53, "EBADR"},                 {54, "EXFULL"},                {55, "ENOANO"},
    {56, "EBADRQC"},               {57, "EBADSLT"},               {59, "EBFONT"},
    {60, "ENOSTR"},                {61, "ENODATA"},               {62, "ETIME"},
    {63, "ENOSR"},                 {64, "ENONET"},                {65, "ENOPKG"},
    {66, "EREMOTE"},               {67, "ENOLINK"},               {68, "EADV"},
    {69, "ESRMNT"},                {70, "ECOMM"},                 {71, "EPROTO"},
    {72, "EMULTIHOP"},             {73, "EDOTDOT"},               {74, "EBADMSG"},
    {75, "EOVERFLOW"},             {76, "ENOTUNIQ"},              {77, "EBADFD"},
    {78, "EREMCHG"},               {79, "ELIBACC"},               {80, "ELIBBAD"},
    {81, "ELIBSCN"},               {82, "ELIBMAX"},               {83, "ELIBEXEC"},
    {84, "EILSEQ"},                {85, "ERESTART"},              {86, "ESTRPIPE"},
    {87, "EUSERS"},                {88, "ENOTSOCK"},              {89, "EDESTADDRREQ"},
    {90, "EMSGSIZE"},              {91, "EPROTOTYPE"},            {92, "ENOPROTOOPT"},
    {93, "EPROTONOSUPPORT"},       {94, "ESOCKTNOSUPPORT"},       {95, "EOPNOTSUPP"},
    {96, "EPFNOSUPPORT"},          {97, "EAFNOSUPPORT"},          {98, "EADDRINUSE"},
    {99, "EADDRNOTAVAIL"},         {100, "ENETDOWN"},             {101, "ENETUNREACH"},
    {102, "ENETRESET"},            {103, "ECONNABORTED"},         {104, "ECONNRESET"},
    {105, "ENOBUFS"},              {106, "EISCONN"},              {107, "ENOTCONN"},
    {108, "ESHUTDOWN"},            {109, "ETOOMANYREFS"},         {110, "ETIMEDOUT"},
    {111, "ECONNREFUSED"},         {112, "EHOSTDOWN"},            {113, "EHOSTUNREACH"},
    {114, "EALREADY"},             {115, "EINPROGRESS"},          {116, "ESTALE"},
    {117, "EUCLEAN"},              {118, "ENOTNAM"},              {119, "ENAVAIL"},
    {120, "EISNAM"},               {121, "EREMOTEIO"},            {122, "EDQUOT"},
    {123, "ENOMEDIUM"},            {124, "EMEDIUMTYPE"},          {125, "ECANCELED"},
    {126, "ENOKEY"},               {127, "EKEYEXPIRED"},          {128, "EKEYREVOKED"},
    {129, "EKEYREJECTED"},         {130, "EOWNERDEAD"},           {131, "ENOTRECOVERABLE"},
    {132, "ERFKILL"},              {133, "EHWPOISON"},
    // Kernel-internal: never reach user space, but they are what a traced function returns.
    {512, "ERESTARTSYS"},          {513, "ERESTARTNOINTR"},       {514, "ERESTARTNOHAND"},
    {515, "ENOIOCTLCMD"},          {516, "ERESTART_RESTARTBLOCK"},{517, "EPROBE_DEFER"},
    {518, "EOPENSTALE"},           {519, "ENOPARAM"},             {521, "EBADHANDLE"},
    {522, "ENOTSYNC"},             {523, "EBADCOOKIE"},           {524, "ENOTSUPP"},
    {525, "ETOOSMALL"},            {526, "ESERVERFAULT"},         {527, "EBADTYPE"},
    {528, "EJUKEBOX"},             {529, "EIOCBQUEUED"},          {530, "ERECALLCONFLICT"},
    // clang-format on
};

constexpr bool by_value(const ErrnoEntry& a, const ErrnoEntry& b) { return a.value < b.value; }
static_assert(std::is_sorted(std::begin(kErrnos), std::end(kErrnos), by_value));

// Second names the kernel defines as the same number; printing always uses the canonical one.
constexpr ErrnoEntry kAliases[] = {
    {11, "EWOULDBLOCK"},
    {35, "EDEADLOCK"},
    {95, "ENOTSUP"},
};

std::optional<int> find_in(std::span<const ErrnoEntry> table, std::string_view name) {
  auto it =
      std::find_if(table.begin(), table.end(), [&](const ErrnoEntry& e) { return name == e.name; });
  if (it == table.end()) return std::nullopt;
  return it->value;
}

}  // namespace

std::optional<int> errno_from_name(std::string_view name) {
  if (name.starts_with('-')) name.remove_prefix(1);
  if (name == "NULL") return 0;
  if (auto value = find_in(kErrnos, name)) return value;
  return find_in(kAliases, name);
}

const char* errno_name(int err) {
  const auto* it = std::lower_bound(std::begin(kErrnos), std::end(kErrnos), err,
                                    [](const ErrnoEntry& e, int v) { return e.value < v; });
  return it != std::end(kErrnos) && it->value == err ? it->name : nullptr;
}

std::string errno_text(int err) {
  const char* name = errno_name(err);
  return name ? name : std::strerror(err);
}

}  // namespace retsnoop
