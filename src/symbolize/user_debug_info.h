// User-space functions' failure rules and prototypes from their binaries' DWARF, read by the
// sandboxed symbolizer worker: a binary and its debug file are as hostile as any other file a
// user controls, and DWARF is the largest parser retsnoop runs on them. The prototypes come
// back as BTF, which libbpf checks as it parses it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "discovery/user_plan.h"
#include "symbolize/worker_client.h"
#include "symbolize/worker_elf_file.h"

namespace retsnoop {

class WorkerUserDebugInfo : public UserDebugInfo {
 public:
  // host_root: where debug files are looked for (/usr/lib/debug/.build-id/ under it).
  explicit WorkerUserDebugInfo(const std::string& host_root = "/", WorkerOptions worker = {});
  ~WorkerUserDebugInfo() override;
  WorkerUserDebugInfo(const WorkerUserDebugInfo&) = delete;
  WorkerUserDebugInfo& operator=(const WorkerUserDebugInfo&) = delete;

  // A file that cannot be opened as a regular file, or that the worker cannot read, has none.
  std::optional<RetKind> ret_kind(const std::string& path, uint64_t off) override;
  std::optional<FuncArgs> func_args(const std::string& path, uint64_t off) override;

 private:
  WorkerElfFile* file(const std::string& path);

  std::shared_ptr<WorkerClient> worker_;
  ElfFile::Dir host_root_;
  std::map<std::string, std::unique_ptr<WorkerElfFile>> files_;  // nullptr: could not be opened
};

}  // namespace retsnoop
