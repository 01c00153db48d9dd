#include "core/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): kill, sigset_t are POSIX
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace arena {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string signal_description(int sig) {
  const char* name = sigabbrev_np(sig);
  const char* desc = strsignal(sig);
  std::string s = name ? std::string("SIG") + name : "signal " + std::to_string(sig);
  if (desc) s += std::string(" (") + desc + ")";
  return s;
}

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_s,
                          const std::filesystem::path& cwd, size_t max_output) {
  ProcessResult r;
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) throw InternalError(std::string("pipe: ") + strerror(errno));
  // Made before the fork: the child may only make async-signal-safe calls (another thread of
  // the judge may hold the allocator's lock at the fork: the runner pool's, for one).
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string cannot_run = "cannot run '" + (argv.empty() ? std::string() : argv[0]) + "': ";
  double start = now_seconds();
  pid_t pid = fork();
  if (pid < 0) throw InternalError(std::string("fork: ") + strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    // Above 0-2 first: were the pipe numbered 1 itself, dup2 onto it would keep close-on-exec.
    const int out = fcntl(pipefd[1], F_DUPFD, 16);
    dup2(out, 1);
    dup2(out, 2);
    close(out);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    execvp(args[0], args.data());
    const char* why = strerrordesc_np(errno);
    (void)!write(1, cannot_run.data(), cannot_run.size());
    if (why != nullptr) (void)!write(1, why, strlen(why));
    (void)!write(1, "\n", 1);
    _exit(127);
  }
  setpgid(pid, pid);
  close(pipefd[1]);
  char buf[65536];
  bool cut = false;
  for (;;) {
    double left = timeout_s - (now_seconds() - start);
    if (left <= 0) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p{pipefd[0], POLLIN, 0};
    int rc = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) continue;
    ssize_t n = read(pipefd[0], buf, sizeof buf);
    if (n <= 0) break;
    if (r.output.size() < max_output) {
      r.output.append(buf, static_cast<size_t>(n));
    } else {
      cut = true;
    }
  }
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  kill(-pid, SIGKILL);  // anything the program left behind in its group
  if (cut) r.output += "\n[output cut at " + std::to_string(max_output) + " bytes]\n";
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.seconds = now_seconds() - start;
  return r;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read this file (" + strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file_atomic(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::path tmp = path;
  tmp += ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InternalError(tmp.string() + ": cannot write (" + strerror(errno) + ")");
    out << content;
    out.flush();
    if (!out) throw InternalError(tmp.string() + ": write failed (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw InternalError(path.string() + ": cannot rename into place: " + ec.message());
}

}  // namespace arena
