// A mapped file as retsnoop holds it for -U: the descriptor it opened (safely, as root), read by
// the symbolizer worker on the first lookup. A file the worker died or hung on is never sent
// again: its frames show the file and offset only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "symbolize/elf_file.h"
#include "symbolize/worker_client.h"
#include "util/owned_fd.h"

namespace retsnoop {

class WorkerElfFile {
 public:
  // debug_roots: as ElfFile's, searched here for the debug file the worker asks for. name: the
  // path the memory map gave, for warnings.
  WorkerElfFile(std::shared_ptr<WorkerClient> worker, OwnedFd fd,
                std::vector<ElfFile::Dir> debug_roots, std::string name);
  ~WorkerElfFile();
  WorkerElfFile(const WorkerElfFile&) = delete;
  WorkerElfFile& operator=(const WorkerElfFile&) = delete;

  // As ElfFile::lookup(); nothing found when the worker cannot read the file. Not thread-safe.
  SymbolizedAddr lookup(uint64_t off, bool is_return_addr);
  // As ElfFile::ret_kind(); nullopt as well when the worker cannot read the file.
  std::optional<RetKind> ret_kind(uint64_t off);
  // As ElfFile::func_btf(); the raw BTF is the worker's, to be parsed as untrusted.
  std::optional<FuncBtfBlob> func_btf(uint64_t off);
  bool broken() const { return broken_; }

 private:
  int load();
  // Runs ask(handle) against the current worker, loading the file into it first when needed;
  // gives the file up when that fails.
  void ask(const std::function<int()>& ask);
  void find_debug_file(const std::string& build_id);
  void give_up(int err);

  std::shared_ptr<WorkerClient> worker_;
  OwnedFd fd_;
  std::vector<ElfFile::Dir> debug_roots_;
  std::string name_;
  WorkerClient::Handle handle_;
  OwnedFd debug_fd_;  // the debug file the worker took, sent again to a new worker
  bool debug_searched_ = false;
  bool broken_ = false;
};

}  // namespace retsnoop
