#include "app/command.h"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "util/error.h"

extern char** environ;

namespace retsnoop {

namespace {

// The shell's search path when PATH is unset (glibc's execvp uses the same).
constexpr const char* kDefaultPath = "/bin:/usr/bin";

bool is_executable_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string resolve_or_throw(const std::string& argv0) {
  const char* env_path = std::getenv("PATH");
  auto path = resolve_command(argv0, env_path ? env_path : kDefaultPath);
  if (path) return *path;
  if (argv0.find('/') != std::string::npos)
    throw UserError("cannot run '" + argv0 + "': not an executable file");
  throw UserError("command not found: '" + argv0 + "' (searched PATH)");
}

// What retsnoop changed in itself must not reach the command: SIGPIPE ignored, the stop signals
// blocked and handled. exec keeps both the mask and ignored dispositions.
void reset_signals() {
  for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
}

bool change_user(const CommandUser& u) {
  return setgroups(u.groups.size(), u.groups.data()) == 0 && setgid(u.gid) == 0 &&
         setuid(u.uid) == 0;
}

[[noreturn]] void report_errno_and_exit(int err_fd, int status) {
  int err = errno;
  (void)!write(err_fd, &err, sizeof(err));
  _exit(status);
}

}  // namespace

std::optional<std::string> resolve_command(const std::string& argv0, const std::string& path_list) {
  if (argv0.empty()) return std::nullopt;
  if (argv0.find('/') != std::string::npos)
    return is_executable_file(argv0) ? std::optional(argv0) : std::nullopt;
  size_t start = 0;
  while (start <= path_list.size()) {
    size_t end = path_list.find(':', start);
    if (end == std::string::npos) end = path_list.size();
    std::string dir = path_list.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + argv0;
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

Command::Command(std::vector<std::string> argv, std::optional<CommandUser> user)
    : argv_(std::move(argv)), path_(resolve_or_throw(argv_.at(0))), user_(std::move(user)) {
  getrlimit(RLIMIT_MEMLOCK, &memlock_);
  getrlimit(RLIMIT_NOFILE, &nofile_);
}

Command::~Command() {
  if (pid_ < 0 || status_) return;
  if (!released_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    return;
  }
  exit_status();  // reaps a command that exited; one still running is left to its work
}

// Between fork and exec only async-signal-safe calls: retsnoop has other threads.
void Command::run_child(char* const* argv, char* const* envp, int go_fd, int err_fd,
                        pid_t parent) noexcept {
  // A retsnoop killed before it released the child never sends the go byte, and the child's own
  // copy of the pipe's write end keeps its read from seeing EOF: it would wait forever. So it
  // dies with retsnoop until released; the parent PID, checked once the signal is set, tells
  // whether retsnoop died before (the child was reparented).
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
  reset_signals();
  char go = 0;
  if (read(go_fd, &go, 1) != 1) _exit(127);  // retsnoop gave up before releasing it
  // Released, the command is left to its work however retsnoop ends (~Command).
  prctl(PR_SET_PDEATHSIG, 0);
  if (setrlimit(RLIMIT_MEMLOCK, &memlock_) || setrlimit(RLIMIT_NOFILE, &nofile_))
    report_errno_and_exit(err_fd, 126);
  if (user_ && (setsid() < 0 || !change_user(*user_))) report_errno_and_exit(err_fd, 126);
  // Read from the go pipe: the byte says whether release() holds the command at its exec.
  if (go == 2 && ptrace(PTRACE_TRACEME, 0, nullptr, nullptr)) report_errno_and_exit(err_fd, 126);
  execve(path_.c_str(), argv, envp);
  report_errno_and_exit(err_fd, 127);
}

pid_t Command::start() {
  // Built before fork: the child must not allocate.
  std::vector<char*> argv;
  argv.reserve(argv_.size() + 1);
  for (auto& a : argv_) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  env = command_environment(env, user_);
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  int go[2], err[2];
  if (pipe2(go, O_CLOEXEC)) throw UserError(std::string("pipe: ") + std::strerror(errno));
  OwnedFd go_read(go[0]);
  go_ = OwnedFd(go[1]);
  if (pipe2(err, O_CLOEXEC)) throw UserError(std::string("pipe: ") + std::strerror(errno));
  err_ = OwnedFd(err[0]);
  OwnedFd err_write(err[1]);
  pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0)
    throw UserError(std::string("cannot start the command: fork: ") + std::strerror(errno));
  if (pid_ == 0) run_child(argv.data(), envp.data(), go_read.get(), err_write.get(), parent);
  return pid_;
}

void Command::release(const AtExec& at_exec) {
  char go = at_exec ? 2 : 1;
  if (write(go_.get(), &go, 1) != 1)
    throw UserError(std::string("cannot start the command: ") + std::strerror(errno));
  released_ = true;
  go_.reset();
  int err = 0;
  ssize_t n;
  do n = read(err_.get(), &err, sizeof(err));
  while (n < 0 && errno == EINTR);
  err_.reset();
  if (n == sizeof(err)) throw UserError("cannot run '" + path_ + "': " + std::strerror(err));
  if (at_exec) hold_at_exec(at_exec);
}

// A traced child stops with SIGTRAP right after a successful exec, its new image mapped and none
// of it run: a command that fails and exits at once cannot be gone before at_exec looks at it.
void Command::hold_at_exec(const AtExec& at_exec) {
  int st = 0;
  pid_t r;
  do r = waitpid(pid_, &st, 0);
  while (r < 0 && errno == EINTR);
  if (r != pid_) return;
  if (!WIFSTOPPED(st)) {
    status_ = st;  // killed before it could stop
    return;
  }
  at_exec(pid_);
  ptrace(PTRACE_DETACH, pid_, nullptr, nullptr);
}

std::optional<int> Command::exit_status() {
  if (status_ || pid_ < 0) return status_;
  int st = 0;
  pid_t r;
  do r = waitpid(pid_, &st, WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == pid_) status_ = st;
  return status_;
}

}  // namespace retsnoop
