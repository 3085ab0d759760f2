// When the kernel refuses the BPF object, the reason is in libbpf's warnings: an extern it could
// not resolve, a map it could not create, or the verifier's last word on a program. The user gets
// that reason in one line instead of a bare errno.
#pragma once

#include <string>
#include <string_view>

namespace retsnoop {

// The cause named by libbpf's warnings of a failed load (one message per line, as libbpf prints
// them, verifier logs included), e.g. "prog 'rs_kentry': the verifier refused it: unknown func
// bpf_get_attach_cookie#174"; empty when they name none.
std::string load_failure_cause(std::string_view libbpf_warnings);

// Collects libbpf's warnings while alive (they still go to the log as before), so that a failed
// load can name its cause. One at a time: libbpf has a single print callback.
class LibbpfWarnings {
 public:
  LibbpfWarnings();
  ~LibbpfWarnings();
  LibbpfWarnings(const LibbpfWarnings&) = delete;
  LibbpfWarnings& operator=(const LibbpfWarnings&) = delete;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace retsnoop
