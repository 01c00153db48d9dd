#include "judge/runner_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): kill, sigset_t are POSIX
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "core/cpu_list.hpp"
#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "judge/fd_passing.hpp"

namespace arena {
namespace {

constexpr int kChildSocketFd = 3;
constexpr int kChildRegionFd = 4;

[[noreturn]] void sys_fail(const std::string& what) {
  throw InternalError(what + ": " + std::strerror(errno));
}

// A small /proc file of the runner, whole; "" when it cannot be read. The runner or one of its
// threads may be gone by the time the read happens (ESRCH): that is an answer, not an error
// (std::ifstream would throw from deep inside its buffer there).
std::string read_proc_file(const std::string& path) {
  std::string out;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

// Why the judge starts a runner without its seccomp profile; "" when it starts it with one.
std::string sandbox_off_reason(const RunnerSpec& spec) {
  const char* env = std::getenv("ARENA_NO_SANDBOX");
  if (env != nullptr && std::strcmp(env, "1") == 0) return "ARENA_NO_SANDBOX=1";
  if (!spec.wrapper.empty())
    return "the runner runs under " + std::filesystem::path(spec.wrapper[0]).filename().string();
  return "";
}

// The denied call the runner's SIGSYS handler named in its output ("arena-sandbox: denied
// <name> (<nr>)"), or "" when there is none.
std::string denied_call(const std::string& output) {
  const std::string mark = "arena-sandbox: denied ";
  auto at = output.rfind(mark);
  if (at == std::string::npos) return "";
  at += mark.size();
  auto end = output.find('\n', at);
  std::string call = output.substr(at, end == std::string::npos ? std::string::npos : end - at);
  for (char& c : call)
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  return call.substr(0, 64);
}

std::string sandbox_violation_message(const std::string& call) {
  return "the solution made a forbidden system call: " + (call.empty() ? std::string("(not named)") : call) +
         "; the runner's seccomp profile denies running programs, network sockets, ptrace, new files (on the CPU "
         "also writing files) and signals to other processes";
}

}  // namespace

RunnerClient::RunnerClient(const RunnerSpec& spec, double start_timeout_s) {
  double start = now_seconds();
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) sys_fail("socketpair");
  region_fd_ = memfd_create("arena-region", MFD_CLOEXEC);
  log_fd_ = memfd_create("arena-runner-output", MFD_CLOEXEC);
  if (region_fd_ < 0 || log_fd_ < 0) sys_fail("memfd_create");

  std::string binary = spec.binary.string();
  std::string flush = std::to_string(spec.flush_bytes);
  std::string sock_arg = std::to_string(kChildSocketFd);
  std::string region_arg = std::to_string(kChildRegionFd);
  std::vector<std::string> extra = spec.extra_args;
  std::vector<std::string> wrapper = spec.wrapper;
  sandbox_.why_off = sandbox_off_reason(spec);
  sandbox_asked_ = sandbox_.why_off.empty();
  if (!sandbox_asked_)
    extra.emplace_back(!spec.wrapper.empty() && spec.reads_confined_under_wrapper &&
                            sandbox_off_reason(RunnerSpec{}).empty()
                        ? "--reads-confined-only"
                        : "--no-sandbox");

  // Everything the child needs is made here: between fork and exec it may only make
  // async-signal-safe calls (the pool starts runners from its own thread while the judge's
  // allocates: a malloc in the child could wait forever on a lock that thread held).
  std::vector<char*> args;
  args.reserve(wrapper.size() + 4 + extra.size() + 1);
  for (auto& a : wrapper) args.push_back(a.data());
  for (char* a : {binary.data(), sock_arg.data(), region_arg.data(), flush.data()}) args.push_back(a);
  for (auto& a : extra) args.push_back(a.data());
  args.push_back(nullptr);
  // Idle OpenMP threads must sleep, not spin: a spinning baseline runner would steal cores
  // from the candidate while they are timed in turn.
  std::vector<std::string> env_strings;
  bool omp_policy_set = false;
  for (char** e = environ; *e != nullptr; ++e) {
    env_strings.emplace_back(*e);
    omp_policy_set = omp_policy_set || env_strings.back().rfind("OMP_WAIT_POLICY=", 0) == 0;
  }
  if (!omp_policy_set) env_strings.emplace_back("OMP_WAIT_POLICY=passive");
  for (const std::string& entry : spec.environment) {
    const std::string name = entry.substr(0, entry.find('=') + 1);
    std::erase_if(env_strings, [&name](const std::string& e) { return e.rfind(name, 0) == 0; });
    env_strings.push_back(entry);
  }
  std::vector<char*> envp;
  envp.reserve(env_strings.size() + 1);
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string cannot_start = std::string("cannot start the runner '") + args[0] + "': ";
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int c : spec.cpus) CPU_SET(c, &cpus);
  const std::string cannot_pin =
      "cannot start the runner on CPUs " + format_cpu_list(spec.cpus) + " (ARENA_RUNNER_CPUS): ";

  pid_t pid = fork();
  if (pid < 0) sys_fail("fork");
  if (pid == 0) {
    setpgid(0, 0);
    // Descriptors: 0 = /dev/null, 1 and 2 = the output log, 3 = socket, 4 = region. No others.
    // The sources go above the targets first: one of them may be numbered 3 or 4 itself (a
    // dup2 onto its own number would keep its close-on-exec flag; onto another source's,
    // clobber it).
    const int log = fcntl(log_fd_, F_DUPFD, 16);
    const int sock = fcntl(sv[1], F_DUPFD, 16);
    const int region = fcntl(region_fd_, F_DUPFD, 16);
    const int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    dup2(log, 1);
    dup2(log, 2);
    dup2(sock, kChildSocketFd);
    dup2(region, kChildRegionFd);
    close_range(kChildRegionFd + 1, ~0U, 0);
    // RLIMIT_AS is set by the runner itself, after exec: set here, it would also bind this
    // forked copy of the judge (a sanitizer build reserves terabytes of address space).
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    // What failed, errno's words and `tail` to the log, then the setup exit (no allocation).
    auto fail_setup = [](const std::string& what, const char* tail) {
      const char* why = strerrordesc_np(errno);
      (void)!write(2, what.data(), what.size());
      if (why != nullptr) (void)!write(2, why, strlen(why));
      (void)!write(2, tail, strlen(tail));
      _exit(protocol::kExitSetup);
    };
    if (!spec.cpus.empty() && sched_setaffinity(0, sizeof cpus, &cpus) != 0)
      fail_setup(cannot_pin, " (is none of them one this machine lets the judge run on?)\n");
    execve(args[0], args.data(), envp.data());
    fail_setup(cannot_start, "\n");
  }
  setpgid(pid, pid);
  close(sv[1]);
  socket_ = sv[0];
  pid_ = pid;
  has_cpu_clock_ = clock_getcpuclockid(pid_, &cpu_clock_) == 0;
  spawned_at_ = start;
  ready_clock_from_ = start;
  start_timeout_s_ = spec.start_timeout_s > 0 ? spec.start_timeout_s : start_timeout_s;
  thread_cpu_times_ = spec.thread_cpu_times;
  if (!spec.library.empty()) load(spec.library, spec.address_space_bytes);
}

void RunnerClient::load(const std::filesystem::path& library, int64_t address_space_bytes) {
  if (load_sent_) throw InternalError("a runner loads one library in its life; it was asked for a second");
  const std::string path = library.string();
  if (path.empty() || path.size() >= static_cast<size_t>(protocol::kMaxPath))
    throw InputError("the library path '" + path + "' is empty or longer than " +
                     std::to_string(protocol::kMaxPath - 1) + " bytes; use a shorter ARENA_CACHE_DIR");
  if (path.find('\0') != std::string::npos) throw InputError("the library path has a NUL byte in it");
  protocol::Request q;
  q.op = protocol::Op::kLoad;
  q.args[0] = static_cast<uint64_t>(std::max<int64_t>(0, address_space_bytes));
  q.args[1] = path.size();
  load_sent_ = true;
  // The start limit counts from here: a runner started ahead of need has had its time already.
  ready_clock_from_ = now_seconds();
  // The path follows in a packet of its own. A runner that died meanwhile cannot take either:
  // wait_ready() finds out and says how it ended.
  if (send_request(q)) (void)send(socket_, path.data(), path.size(), MSG_NOSIGNAL);
}

bool RunnerClient::exited() {
  if (pid_ <= 0) return true;
  int status = 0;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == 0) return false;
  if (r == pid_ && WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
  if (r == pid_ || (r < 0 && errno == ECHILD)) {
    kill(-pid_, SIGKILL);
    pid_ = -1;
    return true;
  }
  return false;
}

bool RunnerClient::wait_ready() {
  if (ready_checked_) return start_error_.empty();
  ready_checked_ = true;
  const double waiting_since = now_seconds();
  double left = start_timeout_s_ - (waiting_since - ready_clock_from_);
  pollfd p{socket_, POLLIN, 0};
  int rc = poll(&p, 1, static_cast<int>(std::max(0.0, left) * 1000));
  protocol::Reply hello;
  if (rc <= 0 || recv(socket_, &hello, sizeof hello, 0) != static_cast<ssize_t>(sizeof hello)) {
    CallOutcome o = rc <= 0 ? CallOutcome{CallOutcome::Kind::kTimeout, 0, 0, "the runner did not start in time"}
                            : died(0);
    start_error_ = o.message;
    start_failure_kind_ = o.kind;
    kill_now();
  } else if (hello.status != protocol::Status::kOk) {
    start_error_ = std::string(hello.message, strnlen(hello.message, sizeof hello.message));
    start_failure_kind_ = CallOutcome::Kind::kCrash;
    kill_now();
  } else {
    std::string said(hello.message, strnlen(hello.message, sizeof hello.message));
    const std::string off = protocol::kSandboxOff;
    const std::string on = protocol::kSandboxOn, open = protocol::kReadsOpen;
    sandbox_.on = sandbox_asked_ && said.rfind(on, 0) == 0;
    if (sandbox_asked_ && !sandbox_.on)
      sandbox_.why_off = said.rfind(off, 0) == 0 ? said.substr(off.size()) : "the runner did not say it was on";
    if (sandbox_.on) {
      const std::string reads = said.substr(on.size());
      sandbox_.reads_confined = reads == protocol::kReadsConfined;
      if (!sandbox_.reads_confined)
        sandbox_.reads_why_open = reads.rfind(open, 0) == 0 ? reads.substr(open.size()) : "the runner did not say";
    }
  }
  start_seconds_ = now_seconds() - spawned_at_;
  waited_seconds_ = now_seconds() - waiting_since;
  return start_error_.empty();
}

RunnerClient::~RunnerClient() {
  kill_now();
  if (region_ != nullptr) munmap(region_, region_bytes_);
  if (region_fd_ >= 0) close(region_fd_);
  if (log_fd_ >= 0) close(log_fd_);
}

void RunnerClient::stop_soon() {
  if (socket_ >= 0) {
    close(socket_);
    socket_ = -1;
  }
  if (pid_ > 0) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
  }
}

pid_t RunnerClient::hand_over() {
  stop_soon();
  const pid_t pid = pid_;
  pid_ = -1;
  return pid;
}

void RunnerClient::kill_now() {
  stop_soon();
  if (pid_ > 0) {
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
}

std::string RunnerClient::output_tail() const {
  off_t size = lseek(log_fd_, 0, SEEK_END);
  if (size <= 0) return "";
  off_t from = size > 2000 ? size - 2000 : 0;
  std::string s(static_cast<size_t>(size - from), '\0');
  ssize_t n = pread(log_fd_, s.data(), s.size(), from);
  s.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return s;
}

std::byte* RunnerClient::map_region(size_t bytes, int device_fd, uint64_t device_bytes) {
  wait_ready();
  if (region_ != nullptr) munmap(region_, region_bytes_);
  region_ = nullptr;
  if (ftruncate(region_fd_, static_cast<off_t>(bytes)) != 0) sys_fail("ftruncate of the buffer region");
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, region_fd_, 0);
  if (p == MAP_FAILED) sys_fail("mmap of the buffer region");
  region_ = static_cast<std::byte*>(p);
  region_bytes_ = bytes;
  if (alive()) {
    protocol::Request q;
    q.op = protocol::Op::kMap;
    q.region_bytes = bytes;
    if (device_fd >= 0) {
      q.call_flags = protocol::kMapDeviceShared;
      q.args[0] = device_bytes;
    }
    protocol::Reply r;
    const bool replied = send_request(q, device_fd) &&
                         recv(socket_, &r, sizeof r, 0) == static_cast<ssize_t>(sizeof r);
    if (!replied || r.status != protocol::Status::kOk) {
      // Its own words when it answered; else how it ended, and what it printed.
      std::string why = replied ? std::string(r.message, strnlen(r.message, sizeof r.message))
                                : died(0).message;
      throw InternalError("the runner failed to map the buffer region of " + std::to_string(bytes) +
                          " bytes: " + (why.empty() ? output_tail() : why));
    }
  }
  return region_;
}

CallOutcome RunnerClient::died(double host_seconds) {
  CallOutcome o;
  o.host_seconds = host_seconds;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  kill(-pid_, SIGKILL);  // anything it forked
  pid_ = -1;
  if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
  std::string tail = output_tail();
  if ((WIFEXITED(status) && WEXITSTATUS(status) == protocol::kExitSandbox && sandbox_asked_) ||
      (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS && sandbox_asked_)) {
    // Killed by SIGSYS itself: the denied call was made with SIGSYS blocked, so the runner's
    // handler could not name it (system() and posix_spawn block every signal while they start
    // a process), or it was another architecture's call, which the filter kills outright.
    o.kind = CallOutcome::Kind::kSandboxViolation;
    std::string call = denied_call(tail);
    if (call.empty() && WIFSIGNALED(status))
      call = "not named (made with SIGSYS blocked, as system() and posix_spawn do while they start a process)";
    o.message = sandbox_violation_message(call);
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    // SIGKILL that the judge did not send: the kernel's OOM killer, or RLIMIT_AS hit by a stack.
    o.kind = sig == SIGKILL ? CallOutcome::Kind::kOom : CallOutcome::Kind::kCrash;
    o.message = "the runner died of " + signal_description(sig);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == protocol::kExitOom) {
    o.kind = CallOutcome::Kind::kOom;
    o.message = "the solution ran out of memory";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == protocol::kExitLaunch) {
    o.kind = CallOutcome::Kind::kLaunchError;
    o.message = "the launch was refused";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == protocol::kExitCuda) {
    o.kind = CallOutcome::Kind::kCrash;
    o.message = "the call failed on the device (the CUDA runner stopped on the error below)";
  } else {
    o.kind = CallOutcome::Kind::kCrash;
    o.message = "the runner exited with code " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                " during the call (the solution must not exit)";
  }
  if (!tail.empty()) o.message += "; its last output:\n" + tail;
  return o;
}

CallOutcome RunnerClient::call(const std::vector<uint64_t>& offsets,
                               const std::vector<protocol::ScalarValue>& scalars, double timeout_s, uint32_t flags,
                               uint32_t graph_launches) {
  if (offsets.size() > protocol::kMaxPointers || scalars.size() > protocol::kMaxScalars)
    throw InternalError("too many arguments for the runner protocol");
  protocol::Request q;
  q.op = protocol::Op::kCall;
  q.call_flags = flags;
  q.graph_launches = graph_launches;
  q.pointer_count = static_cast<uint32_t>(offsets.size());
  q.scalar_count = static_cast<uint32_t>(scalars.size());
  for (size_t i = 0; i < offsets.size(); ++i) q.offsets[i] = offsets[i];
  for (size_t i = 0; i < scalars.size(); ++i) q.scalars[i] = scalars[i];
  if (timeout_s > 0) q.args[0] = static_cast<uint64_t>(std::min(timeout_s, 1e6) * 1e9);
  // CPU times around the call: the process's (exact) and, for the timer check, each thread's,
  // read while the thread that calls the entry point sleeps in its wait for a request (a
  // thread's own figure is brought up to date only when it stops or at a tick). Process clock
  // first before, last after: the CPU time of threads gone since then is never under-counted.
  bool caller_asleep_before = false;
  if (thread_cpu_times_) {
    wait_ready();  // a runner still starting is busy loading, not asleep
    caller_asleep_before = wait_caller_asleep();
  }
  const double cpu_before = cpu_time_ns();
  std::map<int, double> threads_before;
  if (thread_cpu_times_)
    for (int tid : thread_ids()) threads_before[tid] = thread_cpu_ns(tid);
  CallOutcome o = request(q, timeout_s);
  if (o.kind != CallOutcome::Kind::kOk) return o;
  // Read at once: a thread the call left running is there now (the judge's host_thread check).
  o.threads_after = thread_ids();
  double live_ns = 0;  // of the threads that are still there
  if (thread_cpu_times_) {
    const bool caller_asleep_after = wait_caller_asleep();
    for (int tid : o.threads_after) {
      double after = thread_cpu_ns(tid);
      if (after < 0) continue;  // gone meanwhile: its time counts as gone
      auto before = threads_before.find(tid);
      const bool known_before = before != threads_before.end() && before->second >= 0;
      live_ns += std::max(0.0, after - (known_before ? before->second : 0.0));
      if (tid == pid_ && caller_asleep_before && caller_asleep_after && known_before)
        o.caller_cpu_ns = after - before->second;
    }
  }
  const double cpu_after = cpu_time_ns();
  if (cpu_before >= 0 && cpu_after >= 0) {
    o.runner_cpu_ns = cpu_after - cpu_before;
    if (thread_cpu_times_) o.gone_cpu_ns = std::max(0.0, o.runner_cpu_ns - live_ns);
  }
  return o;
}

double RunnerClient::thread_cpu_ns(int tid) const {
  const std::string stat =
      read_proc_file("/proc/" + std::to_string(pid_) + "/task/" + std::to_string(tid) + "/schedstat");
  unsigned long long running = 0;
  if (std::sscanf(stat.c_str(), "%llu", &running) != 1) return -1;
  return static_cast<double>(running);
}

bool RunnerClient::wait_caller_asleep() const {
  const double t0 = now_seconds();
  for (;;) {
    std::optional<ThreadStat> t = thread_stat(pid_);
    if (!t) return false;  // gone
    if (t->state != 'R') return true;
    // After its reply the runner is a few microseconds from its next wait; on a loaded machine
    // it may first wait for a core, which yielding this one can give it.
    if (now_seconds() - t0 > 0.005) return false;
    sched_yield();
  }
}

CallOutcome RunnerClient::transfer(protocol::Op op, double timeout_s,
                                   const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  protocol::Request q;
  q.op = op;
  if (ranges.size() > static_cast<size_t>(protocol::kMaxRanges))
    throw InternalError("too many transfer ranges for the runner protocol");
  q.range_count = static_cast<uint32_t>(ranges.size());
  for (size_t i = 0; i < ranges.size(); ++i) {
    q.ranges[i][0] = ranges[i].first;
    q.ranges[i][1] = ranges[i].second;
  }
  return request(q, timeout_s);
}

bool RunnerClient::flush_caches(double timeout_s) {
  protocol::Request q;
  q.op = protocol::Op::kFlush;
  return request(q, timeout_s).kind == CallOutcome::Kind::kOk;
}

double RunnerClient::cpu_time_ns() const {
  timespec ts{};
  if (!has_cpu_clock_ || clock_gettime(cpu_clock_, &ts) != 0) return -1;
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

std::optional<int> RunnerClient::quit(double timeout_s) {
  if (!alive()) return exit_code_;
  protocol::Request q;
  q.op = protocol::Op::kQuit;
  (void)send(socket_, &q, sizeof q, MSG_NOSIGNAL);  // a runner already gone is reaped below
  double t0 = now_seconds();
  int status = 0;
  for (;;) {
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if ((r < 0 && errno != EINTR) || now_seconds() - t0 > timeout_s) {
      kill_now();
      return std::nullopt;
    }
    usleep(20000);
  }
  kill(-pid_, SIGKILL);  // anything left in its group
  pid_ = -1;
  close(socket_);
  socket_ = -1;
  if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
  return WIFEXITED(status) ? exit_code_ : std::nullopt;
}

int RunnerClient::thread_count() const {
  if (!alive()) return 0;
  std::istringstream in(read_proc_file("/proc/" + std::to_string(pid_) + "/status"));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  return 0;
}

std::vector<int> RunnerClient::thread_ids() const {
  std::vector<int> ids;
  if (!alive()) return ids;
  std::error_code ec;
  // increment(ec), not a range for: the runner may exit while its threads are listed.
  for (std::filesystem::directory_iterator it("/proc/" + std::to_string(pid_) + "/task", ec), end;
       !ec && it != end; it.increment(ec))
    ids.push_back(std::atoi(it->path().filename().c_str()));
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool RunnerClient::thread_running(int tid) const {
  if (!alive()) return false;
  std::optional<ThreadStat> t = thread_stat(tid);
  constexpr unsigned long long kPfExiting = 0x4;  // PF_EXITING: the thread is in do_exit()
  return t && t->state != 'Z' && t->state != 'X' && (t->flags & kPfExiting) == 0;
}

std::optional<RunnerClient::ThreadStat> RunnerClient::thread_stat(int tid) const {
  const std::string stat =
      read_proc_file("/proc/" + std::to_string(pid_) + "/task/" + std::to_string(tid) + "/stat");
  // After the command's closing parenthesis: state ppid pgrp session tty_nr tpgid flags ...
  auto paren = stat.rfind(')');
  if (paren == std::string::npos) return std::nullopt;  // gone meanwhile
  std::istringstream fields(stat.substr(paren + 1));
  std::string state;
  long long skip = 0;
  unsigned long long flags = 0;
  fields >> state >> skip >> skip >> skip >> skip >> skip >> flags;
  if (!fields || state.empty()) return std::nullopt;
  return ThreadStat{state[0], flags};
}

bool RunnerClient::send_request(const protocol::Request& q, int fd) {
  return send_with_fd(socket_, &q, sizeof q, fd);
}

CallOutcome RunnerClient::request(const protocol::Request& q, double timeout_s, protocol::Reply* reply,
                                  int* fd) {
  if (fd != nullptr) *fd = -1;
  wait_ready();
  if (!alive()) return {CallOutcome::Kind::kCrash, 0, 0, "the runner is not running"};
  double t0 = now_seconds();
  if (send(socket_, &q, sizeof q, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof q)) return died(0);
  pollfd p{socket_, POLLIN, 0};
  for (;;) {
    double left = timeout_s - (now_seconds() - t0);
    if (left <= 0) {
      kill_now();
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3g", timeout_s);
      return {CallOutcome::Kind::kTimeout, 0, now_seconds() - t0,
              std::string("the call did not return within ") + buf + " s; the runner was killed"};
    }
    int rc = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc > 0) break;
  }
  protocol::Reply r;
  ssize_t n = receive_with_fd(socket_, &r, sizeof r, fd);
  double host = now_seconds() - t0;
  if (reply != nullptr) *reply = r;
  if (n != static_cast<ssize_t>(sizeof r) || r.magic != protocol::kMagic) return died(host);
  if (r.status != protocol::Status::kOk) {
    // The runner reported a failure and is exiting; collect it as a death with this message.
    CallOutcome o = died(host);
    std::string said(r.message, strnlen(r.message, sizeof r.message));
    bool says_it_all = o.kind == CallOutcome::Kind::kOom || o.kind == CallOutcome::Kind::kLaunchError ||
                       o.kind == CallOutcome::Kind::kSandboxViolation;
    o.message = says_it_all ? said : said + " (" + o.message + ")";
    return o;
  }
  CallOutcome o;
  o.runner_ns = r.elapsed_ns;
  o.all_work_ns = r.all_work_ns;
  o.host_seconds = host;
  if (q.op == protocol::Op::kCall) {
    o.work_watched = r.result[1] != 0;
    o.off_stream_work = r.result[0];
    if (o.off_stream_work > 0) o.off_stream_first.assign(r.message, strnlen(r.message, sizeof r.message));
    o.timer_tampered.assign(r.tampered, strnlen(r.tampered, sizeof r.tampered));
  }
  return o;
}

}  // namespace arena
