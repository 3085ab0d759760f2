// rs-startup-floor: the kernel's own cost of what retsnoop's start-up does per traced function,
// with nothing of retsnoop: the smallest programs that load (return 0), an entry and an exit one
// attached per function, by single kprobes (the perf kprobe PMU, two programs shared by every
// function) or by fentry/fexit (two programs per function, as trampolines need). Prints "ready"
// once all are attached and holds them until killed: bench/startup.sh --bpf-floor times it from
// exec to that line in the same boot as retsnoop's own runs.
//
// Usage: rs-startup-floor kprobe|fentry FILE   (FILE: a function per line, its name last)
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace {

constexpr bpf_insn kReturnZero[] = {
    {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
    {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
};

std::vector<std::string> read_names(const char* path) {
  std::ifstream in(path);
  std::vector<std::string> names;
  std::string line, word, last;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    last.clear();
    while (words >> word) last = word;
    if (!last.empty()) names.push_back(last);
  }
  return names;
}

int read_int_file(const char* path, const char* prefix) {
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  std::string_view v(text);
  if (!v.starts_with(prefix)) return -1;
  return std::atoi(text.c_str() + std::strlen(prefix));
}

int load(bpf_prog_type type, bpf_attach_type attach, uint32_t btf_id) {
  LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach, .attach_btf_id = btf_id);
  return bpf_prog_load(type, "rs_floor", "GPL", kReturnZero, 2, &opts);
}

// One single kprobe (ret: kretprobe) on name running prog_fd, through the perf kprobe PMU.
bool attach_kprobe(int pmu, int ret_bit, const std::string& name, bool ret, int prog_fd) {
  perf_event_attr attr{};
  attr.size = sizeof(attr);
  attr.type = pmu;
  attr.config = ret ? 1ULL << ret_bit : 0;
  attr.config1 = reinterpret_cast<uintptr_t>(name.c_str());
  int fd = int(syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC));
  if (fd < 0) return false;
  return ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) == 0 &&
         ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) == 0;
}

size_t attach_kprobes(const std::vector<std::string>& names) {
  int pmu = read_int_file("/sys/bus/event_source/devices/kprobe/type", "");
  int ret_bit = read_int_file("/sys/bus/event_source/devices/kprobe/format/retprobe", "config:");
  int entry = load(BPF_PROG_TYPE_KPROBE, {}, 0);
  int exit = load(BPF_PROG_TYPE_KPROBE, {}, 0);
  if (pmu < 0 || ret_bit < 0 || entry < 0 || exit < 0) {
    std::fprintf(stderr, "rs-startup-floor: no perf kprobe PMU or kprobe program (%s)\n",
                 std::strerror(errno));
    return 0;
  }
  size_t n = 0;
  for (const auto& name : names)
    n += attach_kprobe(pmu, ret_bit, name, false, entry) &&
         attach_kprobe(pmu, ret_bit, name, true, exit);
  return n;
}

// Every function's BTF id by name: one pass over vmlinux BTF.
std::unordered_map<std::string, uint32_t> func_ids(const btf* b) {
  std::unordered_map<std::string, uint32_t> ids;
  uint32_t cnt = btf__type_cnt(b);
  for (uint32_t id = 1; id < cnt; ++id) {
    const btf_type* t = btf__type_by_id(b, id);
    if (btf_is_func(t)) ids.emplace(btf__name_by_offset(b, t->name_off), id);
  }
  return ids;
}

bool attach_trampoline(uint32_t btf_id, bpf_attach_type type) {
  int prog = load(BPF_PROG_TYPE_TRACING, type, btf_id);
  if (prog < 0) return false;
  int link = bpf_link_create(prog, 0, type, nullptr);
  if (link < 0) link = bpf_raw_tracepoint_open(nullptr, prog);
  return link >= 0;
}

size_t attach_fentry(const std::vector<std::string>& names) {
  btf* vmlinux = btf__load_vmlinux_btf();
  if (!vmlinux) {
    std::fprintf(stderr, "rs-startup-floor: no vmlinux BTF (%s)\n", std::strerror(errno));
    return 0;
  }
  auto ids = func_ids(vmlinux);
  size_t n = 0;
  for (const auto& name : names) {
    auto it = ids.find(name);
    n += it != ids.end() && attach_trampoline(it->second, BPF_TRACE_FENTRY) &&
         attach_trampoline(it->second, BPF_TRACE_FEXIT);
  }
  btf__free(vmlinux);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  std::string_view mode = argc == 3 ? argv[1] : "";
  if (mode != "kprobe" && mode != "fentry") {
    std::fprintf(stderr, "usage: rs-startup-floor kprobe|fentry FILE\n");
    return 2;
  }
  auto names = read_names(argv[2]);
  size_t n = mode == "kprobe" ? attach_kprobes(names) : attach_fentry(names);
  std::printf("attached %zu of %zu functions with %s\nready\n", n, names.size(), argv[1]);
  std::fflush(stdout);
  if (n == 0) return 1;
  for (;;) pause();
}
