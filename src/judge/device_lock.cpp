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

std::string file_name(const std::string& key) {
  std::string name;
  for (char c : key) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    name += safe ? c : '_';
  }
  return (name.empty() ? "device" : name) + ".lock";
}

std::string holder(int fd) {
  char buf[32] = {};
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  const bool digits = !pid.empty() && pid.find_first_not_of("0123456789") == std::string::npos;
  return digits ? "pid " + pid : "another process";
}

[[noreturn]] void fail(const std::filesystem::path& path, const char* what) {
  throw std::runtime_error("cannot " + std::string(what) + " the device lock " + path.string() + ": " +
                           std::strerror(errno) + " (ARENA_LOCK_DIR chooses another directory)");
}

}  // namespace

DeviceLock::DeviceLock(const std::string& key, const std::function<void(const std::string&)>& on_wait) {
  const std::filesystem::path dir = device_lock_dir();
  std::error_code ec;
  if (std::filesystem::create_directories(dir, ec)) chmod(dir.c_str(), 01777);  // shared by all users
  path_ = dir / file_name(key);
  fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0 && errno == EACCES) fd_ = open(path_.c_str(), O_RDONLY | O_CLOEXEC);  // another user's file
  if (fd_ < 0) fail(path_, "open");
  fchmod(fd_, 0666);  // fails harmlessly on another user's file
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) fail(path_, "take");
    const double since = now_seconds();
    if (on_wait) on_wait(holder(fd_));
    while (flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) fail(path_, "take");
    waited_ = now_seconds() - since;
  }
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd_, 0) == 0 && pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The pid is only for the message of a judge that waits; the lock holds without it.
  }
}

DeviceLock::~DeviceLock() {
  if (fd_ < 0) return;
  if (ftruncate(fd_, 0) != 0) {
    // As above: the file's content is a courtesy; closing releases the lock.
  }
  close(fd_);
}

}  // namespace arena
