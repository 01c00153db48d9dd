#include "agents/agent_process.hpp"

#include <fcntl.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): sigaction, sigset_t are POSIX
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "core/error.hpp"
#include "core/subprocess.hpp"

extern char** environ;

namespace arena {
namespace {

std::vector<std::string> agent_environment(const AgentCommand& cmd) {
  std::vector<std::string> out;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    std::string key = kv.substr(0, kv.find('='));
    bool drop = cmd.env.count(key) > 0;
    for (const auto& p : cmd.env_drop_prefixes) drop = drop || key.rfind(p, 0) == 0;
    if (!drop) out.push_back(kv);
  }
  for (const auto& [k, v] : cmd.env) out.push_back(k + "=" + v);
  return out;
}

// True while any process of the group exists (zombies of our own children included).
bool group_alive(pid_t pgid) {
  return kill(-pgid, 0) == 0 || errno == EPERM;
}

// Reaps every exited process of the group that is our child (the leader, and orphans we reap as
// the subreaper).
void reap_group(pid_t pgid) {
  int status = 0;
  while (waitpid(-pgid, &status, WNOHANG) > 0) {
  }
}

// SIGTERM to the group, SIGKILL after `grace_s`, until no process of it is left.
void end_group(pid_t pgid, double grace_s) {
  reap_group(pgid);
  if (!group_alive(pgid)) return;
  kill(-pgid, SIGTERM);
  double until = now_seconds() + grace_s;
  while (now_seconds() < until) {
    reap_group(pgid);
    if (!group_alive(pgid)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(-pgid, SIGKILL);
  for (int i = 0; i < 500 && group_alive(pgid); ++i) {
    reap_group(pgid);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

void become_subreaper() {
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

AgentExit run_agent_process(const AgentCommand& cmd) {
  AgentExit out;
  if (cmd.argv.empty()) throw InputError("the agent's command is empty");
  int exec_pipe[2], in_pipe[2] = {-1, -1};
  if (pipe2(exec_pipe, O_CLOEXEC) != 0 || (cmd.stdin_text && pipe2(in_pipe, O_CLOEXEC) != 0))
    throw InternalError(std::string("pipe: ") + strerror(errno));
  int log = open(cmd.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0)
    throw InternalError(cmd.log_file.string() + ": cannot open (" + strerror(errno) + ")");
  std::vector<std::string> env = agent_environment(cmd);
  std::vector<char*> envp, args;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  for (const auto& a : cmd.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  double start = now_seconds();
  pid_t pid = fork();
  if (pid < 0) throw InternalError(std::string("fork: ") + strerror(errno));
  if (pid == 0) {
    // A session of its own, hence a process group of its own and no controlling terminal: an
    // agent cannot push input into the terminal arena runs in (TIOCSTI).
    setsid();
    int in = cmd.stdin_text ? in_pipe[0] : open("/dev/null", O_RDONLY);
    dup2(in, 0);
    dup2(log, 1);
    dup2(log, 2);
    signal(SIGPIPE, SIG_DFL);
    if (!cmd.cwd.empty() && chdir(cmd.cwd.c_str()) != 0) {
      int e = errno;
      (void)!write(exec_pipe[1], &e, sizeof e);
      _exit(127);
    }
    environ = envp.data();  // execvp looks argv[0] up on the agent's PATH
    execvp(args[0], args.data());
    int e = errno;
    (void)!write(exec_pipe[1], &e, sizeof e);
    _exit(127);
  }
  close(exec_pipe[1]);
  close(log);
  // Once exec succeeded (the pipe closed) or failed, the child has made its session: the group
  // exists before anything is sent to it.
  int exec_errno = 0;
  ssize_t got;
  while ((got = read(exec_pipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  close(exec_pipe[0]);
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    out.exec_error = "cannot run '" + cmd.argv[0] + "': " + strerror(exec_errno);
    end_group(pid, 0);
    out.seconds = now_seconds() - start;
    return out;
  }
  std::thread feeder;
  if (cmd.stdin_text) {
    close(in_pipe[0]);
    feeder = std::thread([fd = in_pipe[1], text = *cmd.stdin_text] {
      size_t done = 0;
      while (done < text.size()) {
        ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // the agent closed its stdin, or is gone
        done += static_cast<size_t>(n);
      }
      close(fd);
    });
  }
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (now_seconds() - start >= cmd.time_limit_s) out.time_limit_hit = true;
    if (cmd.interrupted && cmd.interrupted()) out.interrupted = true;
    if (out.time_limit_hit || out.interrupted) {
      end_group(pid, cmd.grace_s);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  end_group(pid, cmd.grace_s);  // what the agent left running
  if (feeder.joinable()) feeder.join();
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  out.seconds = now_seconds() - start;
  return out;
}

}  // namespace arena
