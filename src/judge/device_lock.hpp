// One judge times on a device at a time. Two judges timing on the same GPU (or, on the CPU
// backend, the same host) measure each other: each one's calls run beside the other's, and both
// verdicts are wrong in ways neither can see (an A/A on a shared device reads a speedup of
// whatever the other judge happened to run). A judge therefore takes the device's lock, an
// exclusive flock(2) on a file named for the device, for the span of each shape's timing loop
// (and a profile or a calibration run); correctness work needs no lock and runs side by side.
//
// The lock is the kernel's: it ends with the process that held it, however that process ended,
// so a killed judge never leaves the device locked. The holder writes its pid into the file,
// which a waiting judge reports.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace arena {

// Where the lock files live: $ARENA_LOCK_DIR, else /tmp/kernelarena-locks (shared by every user
// of the machine: the directory is world-writable and sticky, each file readable and writable by
// all, so one user's judge waits for another's).
std::filesystem::path device_lock_dir();

class DeviceLock {
 public:
  // Takes the lock of device `key` (Backend::device_key(): "cpu", "cuda-0000:19:00.0"),
  // waiting as long as another process holds it. Before it waits, `on_wait` (when given) is
  // told who holds it ("pid 1234", or "another process" when the file names none).
  // Throws std::runtime_error naming the file when the lock file cannot be opened.
  explicit DeviceLock(const std::string& key, const std::function<void(const std::string&)>& on_wait = {});
  ~DeviceLock();
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;

  // Seconds spent waiting for another holder (0 when the lock was free).
  double waited_seconds() const { return waited_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  double waited_ = 0;
};

}  // namespace arena
