#include "judge/device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "core/subprocess.hpp"

namespace arena {

std::filesystem::path device_lock_dir() {
  const char* env = std::getenv("ARENA_LOCK_DIR");
  if (env != nullptr && *env != '\0') return env;
  return "/tmp/kernelarena-locks";
}

namespace {

std::string file_name(const std::string& key, const char* suffix) {
  std::string name;
  for (char c : key) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    name += safe ? c : '_';
  }
  return (name.empty() ? "device" : name) + suffix;
}

// Who holds the lock file `fd`, as a waiting judge's message says it.
std::string holder(int fd) {
  char buf[32] = {};
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  const bool digits = !pid.empty() && pid.find_first_not_of("0123456789") == std::string::npos;
  return digits ? "pid " + pid + " is timing on it" : "another judge is using it";
}

[[noreturn]] void fail(const std::filesystem::path& path, const char* what) {
  throw std::runtime_error("cannot " + std::string(what) + " the device lock " + path.string() + ": " +
                           std::strerror(errno) + " (ARENA_LOCK_DIR chooses another directory)");
}

int open_lock_file(const std::filesystem::path& path) {
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0 && errno == EACCES) fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);  // another user's file
  if (fd < 0) fail(path, "open");
  fchmod(fd, 0666);  // fails harmlessly on another user's file
  return fd;
}

// flock(fd, op), waiting where it must. Returns the seconds waited; the first wait tells
// `on_wait` (once: *told) who holds `named_by`'s lock.
double take(int fd, int op, const std::filesystem::path& path, int named_by,
            const std::function<void(const std::string&)>& on_wait, bool* told) {
  if (flock(fd, op | LOCK_NB) == 0) return 0;
  if (errno != EWOULDBLOCK) fail(path, "take");
  const double since = now_seconds();
  if (on_wait && !*told) on_wait(holder(named_by));
  *told = true;
  while (flock(fd, op) != 0)
    if (errno != EINTR) fail(path, "take");
  return now_seconds() - since;
}

}  // namespace

DeviceLock::DeviceLock(const std::string& key, const std::function<void(const std::string&)>& on_wait,
                       Mode mode)
    : mode_(mode) {
  const std::filesystem::path dir = device_lock_dir();
  std::error_code ec;
  if (std::filesystem::create_directories(dir, ec)) chmod(dir.c_str(), 01777);  // shared by all users
  path_ = dir / file_name(key, ".lock");
  const std::filesystem::path gate_path = dir / file_name(key, ".gate");
  fd_ = open_lock_file(path_);
  int gate = -1;
  try {
    gate = open_lock_file(gate_path);
    // Through the gate (where a judge waiting to time holds it, new correctness work waits
    // behind it), then the lock itself; the gate is let go once the lock is held.
    bool told = false;
    waited_ += take(gate, LOCK_EX, gate_path, fd_, on_wait, &told);
    waited_ += take(fd_, mode == Mode::kExclusive ? LOCK_EX : LOCK_SH, path_, fd_, on_wait, &told);
  } catch (...) {
    if (gate >= 0) close(gate);
    close(fd_);
    throw;
  }
  close(gate);
  if (mode == Mode::kShared) return;
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd_, 0) == 0 && pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The pid is only for the message of a judge that waits; the lock holds without it.
  }
}

DeviceLock::~DeviceLock() {
  if (fd_ < 0) return;
  if (mode_ == Mode::kExclusive && ftruncate(fd_, 0) != 0) {
    // As above: the file's content is a courtesy; closing releases the lock.
  }
  close(fd_);
}

}  // namespace arena
