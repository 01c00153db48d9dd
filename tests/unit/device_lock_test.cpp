// The device lock: one timing holder at a time across processes and no correctness work beside
// it, correctness work side by side, a judge waiting to time served before new correctness work,
// a waiter told who holds it, and a holder's death releasing it.
#include "judge/device_lock.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "core/temp_dir.hpp"
#include "scoped_env.hpp"

namespace arena {
namespace {

// Points ARENA_LOCK_DIR at a fresh directory for the test's life.
class LockDir {
 public:
  LockDir() : dir_("arena-lock-test"), env_("ARENA_LOCK_DIR", dir_.path().c_str()) {}

 private:
  TempDir dir_;
  testing::ScopedEnv env_;
};

// A child process that takes the lock of `key` in `mode`, says so through a pipe, holds it for
// `hold_ms` and then exits (or is killed before).
pid_t hold_in_child(const std::string& key, int hold_ms,
                    DeviceLock::Mode mode = DeviceLock::Mode::kExclusive) {
  int ready[2];
  if (pipe(ready) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(ready[0]);
    DeviceLock lock(key, {}, mode);
    char c = 1;
    if (write(ready[1], &c, 1) != 1) _exit(2);
    std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
    _exit(0);
  }
  close(ready[1]);
  char c = 0;
  if (read(ready[0], &c, 1) != 1) pid = -1;
  close(ready[0]);
  return pid;
}

TEST(DeviceLock, ASecondJudgeWaitsForTheHolderAndIsToldWhoItIs) {
  LockDir dir;
  pid_t child = hold_in_child("cuda-0000:19:00.0", 600);
  ASSERT_GT(child, 0);
  std::string told;
  DeviceLock lock("cuda-0000:19:00.0", [&](const std::string& who) { told = who; });
  EXPECT_EQ(told, "pid " + std::to_string(child) + " is timing on it");
  EXPECT_GT(lock.waited_seconds(), 0.2);  // the child held it ~0.6 s after saying so
  EXPECT_EQ(lock.path().filename(), "cuda-0000_19_00.0.lock");
  int status = 0;
  waitpid(child, &status, 0);
}

TEST(DeviceLock, OtherDevicesDoNotWait) {
  LockDir dir;
  pid_t child = hold_in_child("cuda-a", 2000);
  ASSERT_GT(child, 0);
  bool waited = false;
  {
    DeviceLock lock("cuda-b", [&](const std::string&) { waited = true; });
    EXPECT_FALSE(waited);
    EXPECT_EQ(lock.waited_seconds(), 0);
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
}

TEST(DeviceLock, AKilledHolderLeavesTheDeviceFree) {
  LockDir dir;
  pid_t child = hold_in_child("cpu", 60'000);
  ASSERT_GT(child, 0);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  // A minute's hold, cut short by the kill: the lock is free at once.
  DeviceLock lock("cpu");
  EXPECT_LT(lock.waited_seconds(), 1.0);
}

// Whether some process waits for the lock file at `path` (a "->" line of /proc/locks on its inode).
bool someone_waits_for(const std::filesystem::path& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return false;
  const std::string inode = ":" + std::to_string(st.st_ino) + " ";
  std::ifstream in("/proc/locks");
  for (std::string line; std::getline(in, line);)
    if (line.find("->") != std::string::npos && line.find(inode) != std::string::npos) return true;
  return false;
}

void reap(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
}

TEST(DeviceLock, CorrectnessWorkRunsBesideOtherCorrectnessWork) {
  LockDir dir;
  pid_t child = hold_in_child("cuda-0", 2000, DeviceLock::Mode::kShared);
  ASSERT_GT(child, 0);
  bool waited = false;
  {
    DeviceLock lock(
        "cuda-0", [&](const std::string&) { waited = true; }, DeviceLock::Mode::kShared);
    EXPECT_FALSE(waited);
    EXPECT_EQ(lock.waited_seconds(), 0);
  }
  kill(child, SIGKILL);
  reap(child);
}

TEST(DeviceLock, CorrectnessWorkWaitsWhileAnotherJudgeTimes) {
  LockDir dir;
  pid_t child = hold_in_child("cuda-0", 600);
  ASSERT_GT(child, 0);
  std::string told;
  DeviceLock lock(
      "cuda-0", [&](const std::string& who) { told = who; }, DeviceLock::Mode::kShared);
  EXPECT_EQ(told, "pid " + std::to_string(child) + " is timing on it");
  EXPECT_GT(lock.waited_seconds(), 0.2);
  reap(child);
}

TEST(DeviceLock, TimingWaitsForOtherJudgesCorrectnessWork) {
  LockDir dir;
  pid_t child = hold_in_child("cuda-0", 600, DeviceLock::Mode::kShared);
  ASSERT_GT(child, 0);
  std::string told;
  DeviceLock lock("cuda-0", [&](const std::string& who) { told = who; });
  EXPECT_EQ(told, "another judge is using it");
  EXPECT_GT(lock.waited_seconds(), 0.2);
  reap(child);
}

// A holds the lock shared; B asks to time (and waits for A); C's correctness work, asked for
// after B, waits until B has timed, though A's hold would let it in at once.
TEST(DeviceLock, AJudgeWaitingToTimeGoesBeforeNewCorrectnessWork) {
  LockDir dir;
  pid_t a = hold_in_child("cuda-0", 800, DeviceLock::Mode::kShared);
  ASSERT_GT(a, 0);
  const std::filesystem::path file =
      std::filesystem::path(getenv("ARENA_LOCK_DIR")) / "cuda-0.lock";
  int took[2];
  ASSERT_EQ(pipe(took), 0);
  pid_t b = fork();
  if (b == 0) {
    close(took[0]);
    DeviceLock lock("cuda-0");
    char c = 1;
    if (write(took[1], &c, 1) != 1) _exit(2);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    _exit(0);
  }
  ASSERT_GT(b, 0);
  close(took[1]);
  bool b_waits = false;
  for (int i = 0; i < 400 && !b_waits; ++i) {
    b_waits = someone_waits_for(file);
    if (!b_waits) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(b_waits) << "B never waited for A";
  {
    DeviceLock lock("cuda-0", {}, DeviceLock::Mode::kShared);
    // B took the lock (and said so) after A let go, and held it 0.3 s; C got it only after that.
    pollfd p{took[0], POLLIN, 0};
    EXPECT_EQ(poll(&p, 1, 0), 1) << "correctness work started while a judge waited to time";
    EXPECT_GT(lock.waited_seconds(), 0.5);
  }  // (let go before waiting for B, which would otherwise wait for it)
  close(took[0]);
  reap(b);
  reap(a);
}

TEST(DeviceLock, AnUnusableDirectoryIsAClearError) {
  testing::ScopedEnv unusable("ARENA_LOCK_DIR", "/proc/arena-no-such-dir");
  try {
    DeviceLock lock("cpu");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/arena-no-such-dir/cpu.lock"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("ARENA_LOCK_DIR"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace arena
