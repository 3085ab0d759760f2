#include "symbolize/worker_elf_file.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "util/log.h"
#include "util/root_confined_open.h"
#include "util/text_escape.h"

namespace retsnoop {

namespace {

// The worker's answer is untrusted: only a plausible hex build id becomes a path.
bool is_build_id(const std::string& id) {
  if (id.size() < 3 || id.size() > 128) return false;
  return std::all_of(id.begin(), id.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// The first file lost is reported always, the others under -v.
std::atomic<bool> reported_once{false};

}  // namespace

WorkerElfFile::WorkerElfFile(std::shared_ptr<WorkerClient> worker, OwnedFd fd,
                             std::vector<ElfFile::Dir> debug_roots, std::string name)
    : worker_(std::move(worker)),
      fd_(std::move(fd)),
      debug_roots_(std::move(debug_roots)),
      name_(std::move(name)) {}

WorkerElfFile::~WorkerElfFile() { worker_->close(handle_); }

void WorkerElfFile::give_up(int err) {
  broken_ = true;
  fd_.reset();
  debug_fd_.reset();
  if (err == -ECANCELED) return;  // the run is stopping, or symbolization was given up
  const char* why = err == -ETIMEDOUT ? "took too long reading it"
                    : err == -EPIPE   ? "died reading it"
                                      : std::strerror(-err);
  int level = reported_once.exchange(true) ? LOG_INFO : LOG_WARN;
  std::string name;
  append_escaped(name, name_, '\'');
  logf(level, "cannot symbolize '%s': the -U symbolizer worker %s%s\n", name.c_str(), why,
       level == LOG_WARN ? " (other files: -v)" : "");
}

// The debug file is looked for in each root, as ElfFile does, and opened here: the worker opens
// nothing.
void WorkerElfFile::find_debug_file(const std::string& build_id) {
  debug_searched_ = true;
  if (!is_build_id(build_id)) return;
  std::string path = build_id_debug_path(build_id);
  for (const ElfFile::Dir& root : debug_roots_) {
    if (!root || !*root) continue;
    OwnedFd fd = open_regular_in_root(root->get(), path);
    if (!fd) continue;
    bool taken = false;
    if (int err = worker_->add_debug_file(handle_, fd.get(), taken)) {
      give_up(err);
      return;
    }
    if (taken) {
      debug_fd_ = std::move(fd);
      return;
    }
  }
}

// Into the current worker: the file, then its debug file, the one found before or searched for.
int WorkerElfFile::load() {
  LoadReply reply;
  if (int err = worker_->load(fd_.get(), handle_, reply)) return err;
  if (debug_fd_) {
    bool taken = false;
    return worker_->add_debug_file(handle_, debug_fd_.get(), taken);
  }
  if (reply.wants_debug_file && !debug_searched_) find_debug_file(reply.build_id);
  return broken_ ? -ECANCELED : 0;
}

void WorkerElfFile::ask(const std::function<int()>& ask) {
  // A handle of a worker lost since (on another file) is loaded again, once.
  for (int attempt = 0; attempt < 3 && !broken_; ++attempt) {
    int err = handle_.generation ? ask() : -ESTALE;
    if (!err) return;
    if (err == -ESTALE && !(err = load())) continue;
    if (!broken_) give_up(err);
  }
}

SymbolizedAddr WorkerElfFile::lookup(uint64_t off, bool is_return_addr) {
  SymbolizedAddr out;
  ask([&] { return worker_->lookup(handle_, off, is_return_addr, out); });
  return out;
}

std::optional<RetKind> WorkerElfFile::ret_kind(uint64_t off) {
  std::optional<RetKind> out;
  ask([&] { return worker_->ret_kind(handle_, off, out); });
  return out;
}

std::optional<FuncBtfBlob> WorkerElfFile::func_btf(uint64_t off) {
  std::optional<FuncBtfBlob> out;
  ask([&] { return worker_->func_btf(handle_, off, out); });
  return out;
}

}  // namespace retsnoop
