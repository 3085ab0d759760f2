#include "simfail_cases.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

#include "bpf_syscall.h"

namespace simfail {

Objects::~Objects() {
  for (int fd : fds_) close(fd);
}

namespace {

constexpr uint32_t kPageSize = 4096;
constexpr uint32_t kMiB = 1 << 20;
// Far beyond every map type a kernel knows: rejected before any allocation.
constexpr uint32_t kUnknownMapType = 1000;

Outcome create_map(Objects& objects, uint32_t type, uint32_t key_size, uint32_t value_size,
                   uint32_t max_entries, uint32_t flags = 0, const char* name = "") {
  int fd = bpf_map_create(type, key_size, value_size, max_entries, flags, name);
  if (fd < 0) return {.err = -fd};
  objects.keep(fd);
  return {};
}

Outcome lookup_missing_key(Objects& objects) {
  int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, sizeof(uint32_t), sizeof(uint32_t), 1);
  if (fd < 0) return {.err = -fd, .setup_failed = "BPF_MAP_CREATE"};
  objects.keep(fd);
  uint32_t key = 1;  // the only valid index is 0
  uint32_t value = 0;
  return {.err = -bpf_map_lookup(fd, &key, &value)};
}

constexpr bpf_insn kZeroR0 = {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0};
constexpr bpf_insn kIncrementR0 = {
    .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_0, .imm = 1};
constexpr bpf_insn kExit = {.code = BPF_JMP | BPF_EXIT};
// Enough straight-line instructions for thousands of verifier calls in one bpf() syscall, within
// the 4096 that every kernel accepts.
constexpr size_t kLongProgInsns = 4000;

Outcome load_prog(Objects& objects, std::span<const bpf_insn> insns) {
  int fd = bpf_prog_load_filter("simfail_obj", insns);
  if (fd < 0) return {.err = -fd};
  objects.keep(fd);
  return {};
}

// "r0 = 0; exit": the smallest program the verifier accepts.
Outcome load_trivial_prog(Objects& objects) {
  static constexpr bpf_insn insns[] = {kZeroR0, kExit};
  return load_prog(objects, insns);
}

// A lone "exit" reads r0 before anything wrote it: the verifier refuses it (EACCES) and, asked
// for a log, says why ("R0 !read_ok"), which the program does not print.
Outcome load_logged_refusal(Objects&) {
  static constexpr bpf_insn insns[] = {kExit};
  std::vector<char> log(64 * 1024);
  int fd = bpf_prog_load_filter("simfail_obj", insns, log);
  if (fd >= 0) close(fd);
  return {.err = fd < 0 ? -fd : 0};
}

// "r0 = 0; r0 += 1; ...; exit": the verifier checks every instruction on its single path.
Outcome load_long_prog(Objects& objects) {
  std::vector<bpf_insn> insns(kLongProgInsns, kIncrementR0);
  insns.front() = kZeroR0;
  insns.back() = kExit;
  return load_prog(objects, insns);
}

// A path under a directory that does not exist: open() fails with ENOENT on any root file system.
constexpr const char* kMissingPath = "/nonexistent-simfail-dir/missing-file";

Outcome open_missing_file() {
  int fd = open(kMissingPath, O_RDONLY);
  if (fd >= 0) close(fd);
  return {.err = fd < 0 ? errno : 0};
}

// getrlimit(): a cheap syscall whose do_prlimit() takes the task (a struct far larger than
// 1 KiB) by pointer, for argument capture benchmarks.
Outcome get_rlimit() {
  rlimit r;
  return {.err = getrlimit(RLIMIT_NOFILE, &r) == 0 ? 0 : errno};
}

// mmap() of zero bytes: do_mmap() refuses it with EINVAL. do_mmap() takes 8 arguments on Linux
// 6.1 and 9 on 6.12, more than x86-64 passes in registers: argument capture reads the rest from
// the stack.
Outcome map_zero_bytes() {
  void* p = mmap(nullptr, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return {.err = p == MAP_FAILED ? errno : 0};
}

// A tmpfs mount whose size option is not a number: shmem_parse_one() refuses it (EINVAL) and
// says why through the mount's fs_context log, "tmpfs: Bad value for 'size'", a kernel message.
// The option fails before anything is mounted, whatever the target.
Outcome mount_bad_tmpfs_size() {
  return {.err = mount("none", "/tmp", "tmpfs", 0, "size=bogus") == 0 ? 0 : errno};
}

Outcome sleep_in_syscall(time_t sec, long nsec) {
  timespec ts{.tv_sec = sec, .tv_nsec = nsec};
  return {.err = nanosleep(&ts, nullptr) == 0 ? 0 : errno};
}

constexpr Case kCases[] = {
    {"bpf-bad-map-max-entries-array", "array map with max_entries 0", true,
     [](Objects& o) { return create_map(o, BPF_MAP_TYPE_ARRAY, 4, 4, 0); }},
    {"bpf-bad-map-val-size-percpu-array", "per-CPU array map with 1 MiB values", true,
     [](Objects& o) { return create_map(o, BPF_MAP_TYPE_PERCPU_ARRAY, 4, kMiB, 1); }},
    {"bpf-bad-map-type", "map of a type no kernel knows", true,
     [](Objects& o) { return create_map(o, kUnknownMapType, 4, 4, 1); }},
    {"bpf-bad-map-create-flags", "array map with BPF_F_NO_PREALLOC, valid only for hash maps", true,
     [](Objects& o) { return create_map(o, BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_NO_PREALLOC); }},
    {"bpf-bad-map-key-size-array", "array map with 8-byte keys", true,
     [](Objects& o) { return create_map(o, BPF_MAP_TYPE_ARRAY, 8, 4, 1); }},
    {"bpf-bad-map-key-size-ringbuf", "ring buffer with a key", true,
     [](Objects& o) { return create_map(o, BPF_MAP_TYPE_RINGBUF, 4, 0, kPageSize); }},
    {"bpf-bad-map-max-entries-ringbuf", "ring buffer whose size is not a power of 2", true,
     [](Objects& o) { return create_map(o, BPF_MAP_TYPE_RINGBUF, 0, 0, kPageSize + 1); }},
    {"bpf-bad-map-lookup-key", "array map lookup of an index past its end", true,
     lookup_missing_key},
    // The name is checked after the map was allocated: map_create frees it again and fails, so
    // the failed name check hangs below map_create's failure (a stitched stack).
    {"bpf-bad-map-name", "array map named \"bad name!\"", true,
     [](Objects& o) { return create_map(o, BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, "bad name!"); }},
    {"bpf-good-map-array", "array map with 4 entries, created and closed", false,
     [](Objects& o) { return create_map(o, BPF_MAP_TYPE_ARRAY, 4, 4, 4); }},
    {"bpf-simple-obj", "load and verify the program \"r0 = 0; exit\"", false, load_trivial_prog},
    {"bpf-lone-exit", "load \"exit\" with a verifier log, which refuses it (R0 !read_ok)", true,
     load_logged_refusal},
    {"bpf-long-obj", "load and verify a straight-line program of 4000 instructions", false,
     load_long_prog},
    {"open-missing-file", "open() of /nonexistent-simfail-dir/missing-file", true,
     [](Objects&) { return open_missing_file(); }},
    {"syscall-getrlimit", "getrlimit(RLIMIT_NOFILE)", false, [](Objects&) { return get_rlimit(); }},
    {"mount-bad-tmpfs-size", "tmpfs mount with size=bogus, which the kernel logs (needs root)",
     true, [](Objects&) { return mount_bad_tmpfs_size(); }},
    {"mmap-zero-length", "anonymous mmap() of 0 bytes", true,
     [](Objects&) { return map_zero_bytes(); }},
    {"syscall-long-sleep", "nanosleep() for 1 s", false,
     [](Objects&) { return sleep_in_syscall(1, 0); }},
    {"syscall-short-sleep", "nanosleep() for 10 ms", false,
     [](Objects&) { return sleep_in_syscall(0, 10'000'000); }},
};

}  // namespace

std::span<const Case> all_cases() { return kCases; }

const Case* find_case(std::string_view name) {
  const auto* it = std::find_if(std::begin(kCases), std::end(kCases),
                                [&](const Case& c) { return name == c.name; });
  return it == std::end(kCases) ? nullptr : it;
}

}  // namespace simfail
