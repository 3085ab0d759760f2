#include "app/command.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "util/error.h"
#include "util/fault_injection.h"

extern char** environ;

namespace retsnoop {

namespace {

bool is_executable_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string resolve_or_throw(const std::string& argv0) {
  auto path = resolve_command(argv0, command_search_path());
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

bool is_terminal(int fd) {
  termios t;
  return tcgetattr(fd, &t) == 0;
}

// The terminal retsnoop runs on is root's: what a command of another user leaves running must
// not read what root types there later. So its input comes from /dev/null and its output goes
// to the terminal through new descriptions opened write-only (the inherited one is usually
// read-write); O_NOCTTY keeps it from becoming the command's controlling terminal.
bool keep_terminal_write_only() {
  if (is_terminal(STDIN_FILENO)) {
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0 || dup2(null, STDIN_FILENO) < 0) return false;
    close(null);
  }
  char path[] = "/proc/self/fd/N";
  for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    if (!is_terminal(fd)) continue;
    path[sizeof(path) - 2] = char('0' + fd);
    int out = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (out < 0 || dup2(out, fd) < 0) return false;
    close(out);
  }
  return true;
}

[[noreturn]] void report_errno_and_exit(int err_fd, int status) {
  int err = errno;
  (void)!write(err_fd, &err, sizeof(err));
  _exit(status);
}

}  // namespace

std::string command_search_path() {
  const char* env_path = std::getenv("PATH");
  return env_path ? env_path : "/bin:/usr/bin";
}

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

std::unique_ptr<Command> Command::again() const {
  auto cmd = std::make_unique<Command>(argv_, user_);
  cmd->memlock_ = memlock_;
  cmd->nofile_ = nofile_;
  return cmd;
}

int wait_status_of(const siginfo_t& info) {
  if (info.si_code == CLD_EXITED) return W_EXITCODE(info.si_status, 0);
  return info.si_status | (info.si_code == CLD_DUMPED ? WCOREFLAG : 0);
}

// The child of another user leads its process group: what it started and left there goes with
// it. It is still unreaped here, so the group's id cannot have been given to anybody else.
Command::~Command() {
  if (pid_ < 0 || reaped_) return;
  if (!released_ || own_session()) {
    if (released_) kill(-pid_, SIGKILL);
    kill_and_reap();
    return;
  }
  waitpid(pid_, nullptr, WNOHANG);  // reaps a command that exited; one still running is left
}

void Command::kill_and_reap() {
  kill(pid_, SIGKILL);
  int st = 0;
  pid_t r;
  do r = waitpid(pid_, &st, 0);
  while (r < 0 && errno == EINTR);
  reaped_ = true;
  if (!status_ && r == pid_) status_ = st;
}

// Between fork and exec only async-signal-safe calls: retsnoop has other threads.
void Command::run_child(char* const* argv, char* const* envp, int go_fd, int err_fd, pid_t parent,
                        bool stop_before_exec) noexcept {
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
  if (user_ && (!keep_terminal_write_only() || setsid() < 0 || !change_user(*user_)))
    report_errno_and_exit(err_fd, 126);
  if (stop_before_exec) raise(SIGSTOP);
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
  bool stop_before_exec = fault_wanted(FaultPoint::CommandStop);
  pid_ = fork();
  if (pid_ < 0)
    throw UserError(std::string("cannot start the command: fork: ") + std::strerror(errno));
  if (pid_ == 0)
    run_child(argv.data(), envp.data(), go_read.get(), err_write.get(), parent, stop_before_exec);
  return pid_;
}

bool Command::release(StopSignal& stop, const AtExec& at_exec, std::chrono::milliseconds limit) {
  char go = at_exec ? 2 : 1;
  if (write(go_.get(), &go, 1) != 1)
    throw UserError(std::string("cannot start the command: ") + std::strerror(errno));
  released_ = true;
  go_.reset();
  Clock::time_point deadline = Clock::now() + limit;
  std::optional<int> err = wait_for_exec(stop, deadline);
  err_.reset();
  if (err && *err) throw UserError("cannot run '" + path_ + "': " + std::strerror(*err));
  if (err && (!at_exec || hold_at_exec(at_exec, stop, deadline))) return true;
  kill_and_reap();
  if (stop.requested()) return false;
  throw UserError("cannot start the command: it did not reach its exec within " +
                  std::to_string(limit.count() / 1000) + " s (stopped by its user?)");
}

// The child's errno when it could not exec, 0 once it did (its end of the pipe closed at the
// exec), nullopt when a stop signal or the deadline came first.
std::optional<int> Command::wait_for_exec(StopSignal& stop, Clock::time_point deadline) {
  pollfd fds[] = {{err_.get(), POLLIN, 0}, {stop.fd(), POLLIN, 0}};
  for (;;) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (stop.requested() || left.count() <= 0) return std::nullopt;
    if (poll(fds, 2, int(left.count())) < 0 && errno != EINTR) return std::nullopt;
    if (!fds[0].revents) continue;
    int err = 0;
    ssize_t n = read(err_.get(), &err, sizeof(err));
    if (n < 0 && errno == EINTR) continue;
    return n == ssize_t(sizeof(err)) ? err : 0;
  }
}

// A traced child stops with SIGTRAP right after a successful exec, its new image mapped and none
// of it run: a command that fails and exits at once cannot be gone before at_exec looks at it.
// false when a stop signal or the deadline came before the child stopped.
bool Command::hold_at_exec(const AtExec& at_exec, StopSignal& stop, Clock::time_point deadline) {
  constexpr auto kRetry = std::chrono::milliseconds(5);
  int st = 0;
  pid_t r;
  while ((r = waitpid(pid_, &st, WNOHANG)) == 0 || (r < 0 && errno == EINTR)) {
    if (stop.requested() || Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kRetry);
  }
  if (r != pid_) return true;
  if (!WIFSTOPPED(st)) {
    status_ = st;  // killed before it could stop
    reaped_ = true;
    return true;
  }
  at_exec(pid_);
  ptrace(PTRACE_DETACH, pid_, nullptr, nullptr);
  return true;
}

// WNOWAIT: the child stays a zombie until ~Command, which may still kill its process group.
std::optional<int> Command::exit_status() {
  if (status_ || pid_ < 0) return status_;
  siginfo_t info{};
  int r;
  do r = waitid(P_PID, id_t(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
  while (r < 0 && errno == EINTR);
  if (r == 0 && info.si_pid == pid_) status_ = wait_status_of(info);
  return status_;
}

}  // namespace retsnoop
