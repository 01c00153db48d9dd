// One judge times on a device at a time, and nothing else of another judge runs there while it
// does. Two judges timing on the same GPU (or, on the CPU backend, the same host) measure each
// other: each one's calls run beside the other's, and both verdicts are wrong in ways neither
// can see (an A/A on a shared device reads a speedup of whatever the other judge happened to
// run). Correctness work disturbs a timing loop as much: another judge's reference and checked
// calls, its inputs drawn and compared on the device, all run kernels that share the SMs and
// the memory with the timed ones (seen on an H100: an honest kernel flagged
// `work_outside_stream` while three trap evals did their checks beside it).
//
// So the device's lock is a readers-writer lock of flock(2)s on files named for the device:
// each shape's timing loop (and a profile or a calibration run) holds it exclusively
// (`kExclusive`); each shape's correctness work holds it shared (`kShared`), beside other
// judges' correctness work but never beside a timing loop. A gate file in front of it keeps
// timing from starving: a judge waiting to time holds the gate, so no new correctness work
// starts until it has had its turn. A process must not hold the lock shared while it asks for it
// exclusively (flock would wait on itself): a judge ends a shape's correctness work before its
// timing.
//
// The locks are the kernel's: they end with the process that held them, however that process
// ended, so a killed judge never leaves the device locked. An exclusive holder writes its pid
// into the lock file, which a waiting judge reports.
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
  enum class Mode { kExclusive, kShared };

  // Takes the lock of device `key` (Backend::device_key(): "cpu", "cuda-0000:19:00.0") in
  // `mode`, waiting as long as another process holds it in a mode that excludes this one. Before
  // it waits, `on_wait` (when given) is told who holds it: "pid 1234 is timing on it", or
  // "another judge is using it" when the file names no timing holder.
  // Throws std::runtime_error naming the file when a lock file cannot be opened.
  explicit DeviceLock(const std::string& key, const std::function<void(const std::string&)>& on_wait = {},
                      Mode mode = Mode::kExclusive);
  ~DeviceLock();
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;

  // Seconds spent waiting for another holder (0 when the lock was free).
  double waited_seconds() const { return waited_; }
  const std::filesystem::path& path() const { return path_; }
  // The lock's descriptor: a process that inherits it holds the lock too, until it closes it
  // (judge/teardown.hpp hands it to a watcher that way).
  int fd() const { return fd_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  Mode mode_ = Mode::kExclusive;
  double waited_ = 0;
};

}  // namespace arena
