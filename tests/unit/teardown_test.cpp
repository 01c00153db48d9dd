// The teardown hand-over: the device's lock stays held until every handed-over process has
// ended, the processes are reaped, and the watcher keeps no descriptor of the caller's open.
#include "judge/teardown.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/temp_dir.hpp"
#include "judge/device_lock.hpp"
#include "scoped_env.hpp"

namespace arena {
namespace {

class LockDir {
 public:
  LockDir() : dir_("arena-teardown-test"), env_("ARENA_LOCK_DIR", dir_.path().c_str()) {}

 private:
  TempDir dir_;
  testing::ScopedEnv env_;
};

// A child that lives until `release` (the write end of a pipe it reads) is closed.
pid_t child_until_closed(int* release) {
  int p[2];
  if (pipe(p) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(p[1]);
    char c;
    while (read(p[0], &c, 1) > 0) {
    }
    _exit(0);
  }
  close(p[0]);
  *release = p[1];
  return pid;
}

// Whether this kernel has pidfd_open (Linux 5.3): without it the hand-over reaps in place, and
// the tests that hand over living processes would wait for them for ever.
bool pidfds_here() {
  const int fd = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
  if (fd < 0) return false;
  close(fd);
  return true;
}

// What the judge does at the end of an eval: the device's shared lock taken, the processes
// handed over with it, and this process's hold let go.
void hand_over_holding_the_lock(const std::vector<pid_t>& pids) {
  DeviceLock shared("cuda-test", {}, DeviceLock::Mode::kShared);
  hand_over_teardown(pids, &shared);
}

// Whether `pid` is no longer a child of this process (reaped), waiting up to 10 s.
bool reaped_soon(pid_t pid) {
  for (int i = 0; i < 1000; ++i) {
    if (waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(Teardown, TheLockIsHeldUntilEveryHandedOverProcessHasEnded) {
  if (!pidfds_here())
    GTEST_SKIP() << "SKIPPED: no pidfd_open on this kernel (the hand-over reaps in place)";
  LockDir dir;
  int release_a = -1, release_b = -1;
  pid_t a = child_until_closed(&release_a);
  pid_t b = child_until_closed(&release_b);
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  hand_over_holding_the_lock({a, b});
  std::atomic<bool> timing{false};
  std::atomic<bool> had_to_wait{false};
  std::thread next_judge([&] {
    DeviceLock exclusive("cuda-test", [&](const std::string&) { had_to_wait = true; });
    timing = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(timing) << "a judge could time while a handed-over process was still there";
  close(release_a);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(timing) << "the lock went with the first process, not the last";
  close(release_b);
  next_judge.join();  // the watcher lets go once b has ended too
  EXPECT_TRUE(timing);
  EXPECT_TRUE(had_to_wait);
  EXPECT_TRUE(reaped_soon(a));
  EXPECT_TRUE(reaped_soon(b));
}

TEST(Teardown, ProcessesAlreadyGoneAreReapedAndLeaveTheLockFree) {
  LockDir dir;
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  ASSERT_GT(gone, 0);
  hand_over_holding_the_lock({gone, -1});
  DeviceLock exclusive("cuda-test");  // returns: the watcher saw the zombie as ended
  EXPECT_TRUE(reaped_soon(gone));
}

// A device lock directory and one child that lives until release_ is closed, where this kernel
// has pidfd_open (the watcher's case); skipped with a message where it has not.
class TeardownOfASlowChild : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!pidfds_here())
      GTEST_SKIP() << "SKIPPED: no pidfd_open on this kernel (the hand-over reaps in place)";
    slow_ = child_until_closed(&release_);
    ASSERT_GT(slow_, 0);
  }
  LockDir dir_;
  int release_ = -1;
  pid_t slow_ = -1;
};

TEST_F(TeardownOfASlowChild, TheWatcherKeepsNoPipeOfTheCallerOpen) {
  // A caller reading the judge's stdout to its end must see it end when the judge exits, not
  // when the handed-over runners are gone.
  const pid_t slow = slow_;
  int out[2];
  ASSERT_EQ(pipe(out), 0);  // after the child: only this process and the watcher could hold it
  hand_over_holding_the_lock({slow});
  close(out[1]);
  pollfd p{out[0], POLLIN, 0};
  ASSERT_EQ(poll(&p, 1, 5000), 1) << "the pipe's write end is still open somewhere";
  char c;
  EXPECT_EQ(read(out[0], &c, 1), 0);  // end of file while `slow` still lives
  EXPECT_EQ(waitpid(slow, nullptr, WNOHANG) < 0 && errno == ECHILD, false);
  close(out[0]);
  close(release_);
  EXPECT_TRUE(reaped_soon(slow));
}

// The children of this process named `comm` (/proc/self/task/*/children).
std::vector<pid_t> children_named(const std::string& comm) {
  std::vector<pid_t> found;
  for (const auto& t : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(t.path() / "children");
    for (pid_t pid = 0; in >> pid;) {
      std::ifstream name("/proc/" + std::to_string(pid) + "/comm");
      std::string n;
      if (std::getline(name, n) && n == comm) found.push_back(pid);
    }
  }
  return found;
}

TEST_F(TeardownOfASlowChild, TheWatcherIsInAProcessGroupOfItsOwn) {
  // A Ctrl-C at the terminal signals the judge's group: the watcher, and the lock, stay.
  const pid_t slow = slow_;
  const std::vector<pid_t> earlier = children_named("arena-teardown");  // other tests' watchers
  hand_over_holding_the_lock({slow});
  std::vector<pid_t> watchers;
  for (int i = 0; i < 200 && watchers.empty(); ++i) {  // its name is set first thing
    watchers = children_named("arena-teardown");
    std::erase_if(watchers,
                  [&](pid_t p) { return std::count(earlier.begin(), earlier.end(), p) > 0; });
    if (watchers.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(watchers.size(), 1u);
  pid_t group = -1;
  for (int i = 0; i < 200 && group != watchers[0]; ++i) {
    group = getpgid(watchers[0]);
    if (group != watchers[0]) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(group, watchers[0]);
  EXPECT_NE(group, getpgrp());
  close(release_);
  EXPECT_TRUE(reaped_soon(slow));
}

TEST(Teardown, WithoutALockTheProcessesAreStillReaped) {
  int release = -1;
  pid_t slow = child_until_closed(&release);
  ASSERT_GT(slow, 0);
  hand_over_teardown({slow}, nullptr);  // returns at once
  EXPECT_EQ(waitpid(slow, nullptr, WNOHANG) < 0 && errno == ECHILD, false);
  close(release);
  EXPECT_TRUE(reaped_soon(slow));
}

}  // namespace
}  // namespace arena
