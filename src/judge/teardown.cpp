#include "judge/teardown.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <system_error>
#include <thread>

namespace arena {
namespace {

// How long a watcher keeps the lock at most: a process the driver cannot tear down in this time
// is stuck in it, and a lock held for ever would stop every judge of the device.
constexpr int kWatchLimitMs = 60'000;

int pidfd_of(pid_t pid) {
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
}

void reap(const std::vector<pid_t>& pids) {
  for (pid_t p : pids)
    while (waitpid(p, nullptr, 0) < 0 && errno == EINTR) {
    }
}

// Closes every descriptor but those of `keep` (sorted).
void close_all_but(const std::vector<int>& keep) {
  unsigned from = 0;
  bool ranges = true;
  for (int k : keep) {
    if (static_cast<unsigned>(k) > from)
      ranges = ranges && syscall(SYS_close_range, from, static_cast<unsigned>(k) - 1, 0) == 0;
    from = static_cast<unsigned>(k) + 1;
  }
  ranges = ranges && syscall(SYS_close_range, from, ~0u, 0) == 0;
  if (ranges) return;
  const long most = sysconf(_SC_OPEN_MAX);  // no close_range (Linux < 5.9): one at a time
  size_t next = 0;
  for (int fd = 0; fd < (most > 0 && most < 65536 ? most : 65536); ++fd) {
    if (next < keep.size() && keep[next] == fd) {
      ++next;
      continue;
    }
    close(fd);
  }
}

// The watcher, in the forked child: only system calls from here (the parent has threads).
[[noreturn]] void watch(const std::vector<int>& pidfds, const std::vector<int>& keep) {
  prctl(PR_SET_NAME, "arena-teardown", 0, 0, 0);
  // A group of its own and deaf to the terminal: a Ctrl-C that ends `arena eval` right after the
  // verdict must not end the lock before the contexts.
  setpgid(0, 0);
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  // Every other descriptor goes: a pipe of the judge's (the stdout a caller reads to its end)
  // must not stay open while the watcher waits.
  close_all_but(keep);
  pollfd polls[64];
  size_t n = 0;
  for (int fd : pidfds) polls[n++] = pollfd{fd, POLLIN, 0};
  timespec start{}, now{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1'000'000 >
        kWatchLimitMs)
      break;
    bool all = true;
    for (size_t i = 0; i < n; ++i) all = all && polls[i].fd < 0;
    if (all) break;
    int rc = poll(polls, n, 100);
    if (rc < 0 && errno != EINTR) break;
    for (size_t i = 0; i < n; ++i)
      if (polls[i].fd >= 0 && (polls[i].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) != 0)
        polls[i].fd = -1;
  }
  _exit(0);  // the lock goes with the last descriptor of it
}

// Forks the watcher of `pids` holding `lock_fd`; its pid, or -1 where it cannot be had (no
// pidfd_open before Linux 5.3, too many processes, no fork).
pid_t start_watcher(const std::vector<pid_t>& pids, int lock_fd) {
  if (pids.size() > 64) return -1;
  std::vector<int> pidfds;
  for (pid_t p : pids) {
    const int fd = pidfd_of(p);
    if (fd < 0) break;
    pidfds.push_back(fd);
  }
  pid_t watcher = -1;
  if (pidfds.size() == pids.size()) {
    std::vector<int> keep = pidfds;
    keep.push_back(lock_fd);
    std::sort(keep.begin(), keep.end());
    watcher = fork();
    if (watcher == 0) watch(pidfds, keep);
  }
  for (int fd : pidfds) close(fd);
  return watcher;
}

}  // namespace

void hand_over_teardown(std::vector<pid_t> killed, const DeviceLock* lock) {
  std::erase_if(killed, [](pid_t p) { return p <= 0; });
  if (killed.empty()) return;
  if (lock != nullptr) {
    const pid_t watcher = start_watcher(killed, lock->fd());
    if (watcher < 0) {
      reap(killed);  // no watcher: as before, here, with the caller's lock held
      return;
    }
    killed.push_back(watcher);
  }
  // No lock (none could be had): nothing to hold, only the reaping.
  try {
    std::thread([pids = killed] { reap(pids); }).detach();
  } catch (const std::system_error&) {
    reap(killed);  // no thread to be had: here (a watcher keeps the lock meanwhile)
  }
  // The caller's descriptor of the lock closes after this; the watcher's keeps the lock.
}

}  // namespace arena
