// The device lock: one holder at a time across processes, a waiter told who holds it, and a
// holder's death releasing it.
#include "judge/device_lock.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

#include "core/temp_dir.hpp"

namespace arena {
namespace {

// Points ARENA_LOCK_DIR at a fresh directory for the test's life.
class LockDir {
 public:
  LockDir() : dir_("arena-lock-test") { setenv("ARENA_LOCK_DIR", dir_.path().c_str(), 1); }
  ~LockDir() { unsetenv("ARENA_LOCK_DIR"); }

 private:
  TempDir dir_;
};

// A child process that takes the lock of `key`, says so through a pipe, holds it for `hold_ms`
// and then exits (or is killed before).
pid_t hold_in_child(const std::string& key, int hold_ms) {
  int ready[2];
  if (pipe(ready) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(ready[0]);
    DeviceLock lock(key);
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
  EXPECT_EQ(told, "pid " + std::to_string(child));
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

TEST(DeviceLock, AnUnusableDirectoryIsAClearError) {
  setenv("ARENA_LOCK_DIR", "/proc/arena-no-such-dir", 1);
  try {
    DeviceLock lock("cpu");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/arena-no-such-dir/cpu.lock"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ARENA_LOCK_DIR"), std::string::npos) << e.what();
  }
  unsetenv("ARENA_LOCK_DIR");
}

}  // namespace
}  // namespace arena
