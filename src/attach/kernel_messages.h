// The programs of bpf/messages.bpf.c: the kernel's own messages recorded inside the tracer's
// sessions, from each source the running kernel has. A source the kernel lacks, or refuses, costs
// that source only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "attach/link_ptr.h"
#include "attach/tracer_object.h"

struct rs_messages;

namespace retsnoop {

struct MessageSource;

// Whether the kernel has a function of this name (in kallsyms, or in its BTF).
using KernelFunctionCheck = std::function<bool(std::string_view)>;

// -V -v and --dry-run -v: one line per message source, its kernel function where this kernel has
// it, else why the source is off; all off when enabled (-C messages.enabled) is false. A source
// the kernel would refuse at load shows only at run time (-v).
std::string message_sources_report(const KernelFunctionCheck& in_kallsyms,
                                   const KernelFunctionCheck& in_btf, bool enabled);

struct KernelMessagesConfig {
  SessionMaps maps;
  bool atomic_fetch = true;          // the tracer keeps session_bits (KernelCaps::atomic_fetch)
  bool task_btf = true;              // KernelCaps::task_btf
  uint32_t max_count = 16;           // -C messages.max-count: messages kept per session
  KernelFunctionCheck has_function;  // kallsyms
  KernelFunctionCheck in_btf;        // vmlinux's BTF has the function (fexit needs it)
};

class KernelMessages {
 public:
  // Loads and attaches the programs of the sources cfg.has_function finds; with none, holds
  // nothing. -v names the sources in use and why the others are not.
  explicit KernelMessages(const KernelMessagesConfig& cfg);
  ~KernelMessages();
  KernelMessages(const KernelMessages&) = delete;
  KernelMessages& operator=(const KernelMessages&) = delete;

  // The source names (fs, extack, verifier) attached.
  const std::vector<std::string>& sources() const { return sources_; }
  // Messages past -C messages.max-count or that found the ring buffer full.
  uint64_t dropped() const;

 private:
  // Opens the object anew with wanted's programs only and loads it; log: libbpf's warnings.
  bool open_and_load(const KernelMessagesConfig& cfg,
                     const std::vector<const MessageSource*>& wanted, std::string& log);
  void attach(const std::vector<const MessageSource*>& wanted);
  std::vector<LinkPtr> attach_source(const MessageSource& src);

  rs_messages* skel_ = nullptr;
  std::vector<LinkPtr> links_;
  std::vector<std::string> sources_;
};

}  // namespace retsnoop
