#include "symbolize/user_debug_info.h"

#include <fcntl.h>

#include <bpf/btf.h>

#include <utility>

#include "util/error.h"
#include "util/regular_file.h"

namespace retsnoop {

namespace {

// A path that is no longer a regular file since planning read it has no debug information.
OwnedFd open_regular(const std::string& path) {
  try {
    return open_regular_file(path, "debug information");
  } catch (const UserError&) {
    return OwnedFd();
  }
}

}  // namespace

WorkerUserDebugInfo::WorkerUserDebugInfo(const std::string& host_root, WorkerOptions worker)
    : worker_(std::make_shared<WorkerClient>(std::move(worker))),
      host_root_(std::make_shared<const OwnedFd>(
          open(host_root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC))) {}

// The files go first: each closes its handle in the worker, which then goes.
WorkerUserDebugInfo::~WorkerUserDebugInfo() {
  files_.clear();
  worker_->shutdown();
}

WorkerElfFile* WorkerUserDebugInfo::file(const std::string& path) {
  auto [it, added] = files_.try_emplace(path);
  if (added) {
    if (OwnedFd fd = open_regular(path))
      it->second = std::make_unique<WorkerElfFile>(worker_, std::move(fd),
                                                   std::vector<ElfFile::Dir>{host_root_}, path);
  }
  return it->second.get();
}

std::optional<RetKind> WorkerUserDebugInfo::ret_kind(const std::string& path, uint64_t off) {
  WorkerElfFile* f = file(path);
  return f ? f->ret_kind(off) : std::nullopt;
}

std::optional<FuncArgs> WorkerUserDebugInfo::func_args(const std::string& path, uint64_t off) {
  WorkerElfFile* f = file(path);
  std::optional<FuncBtfBlob> blob = f ? f->func_btf(off) : std::nullopt;
  if (!blob || blob->func_id <= 0) return std::nullopt;
  std::shared_ptr<const struct btf> btf(
      btf__new(blob->raw.data(), uint32_t(blob->raw.size())),
      [](const struct btf* b) { btf__free(const_cast<struct btf*>(b)); });
  if (!btf || uint32_t(blob->func_id) >= btf__type_cnt(btf.get())) return std::nullopt;
  FuncArgs args = args_from_prototype(btf.get(), uint32_t(blob->func_id));
  if (!args.raw_reason.empty()) return std::nullopt;
  args.btf_owner = std::move(btf);
  return args;
}

}  // namespace retsnoop
