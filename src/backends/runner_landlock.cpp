#include "backends/runner_landlock.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace arena::runner {
namespace {

// ABI 1 rights, known to every kernel with Landlock (5.13 and later). Making, renaming and
// removing files are the seccomp profile's to deny; truncate(2) by path is denied there too,
// and ftruncate needs a file opened for writing, which WRITE_FILE governs.
constexpr uint64_t kReadFile = LANDLOCK_ACCESS_FS_READ_FILE;
constexpr uint64_t kReadDir = LANDLOCK_ACCESS_FS_READ_DIR;
constexpr uint64_t kWriteFile = LANDLOCK_ACCESS_FS_WRITE_FILE;
constexpr uint64_t kRead = kReadFile | kReadDir;

std::string sys_error(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// Allows `access` beneath `path` (a directory) or on it (a file). A path that does not exist is
// skipped: not every system has /lib32 or /opt.
std::string allow(int ruleset, const std::string& path, uint64_t access) {
  int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? "" : sys_error("opening " + path);
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    close(fd);
    return sys_error("stat " + path);
  }
  landlock_path_beneath_attr rule{};
  rule.allowed_access = S_ISDIR(st.st_mode) ? access : (access & (kReadFile | kWriteFile));
  rule.parent_fd = fd;
  long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  close(fd);
  return rc == 0 ? "" : sys_error("landlock_add_rule(" + path + ")");
}

// Write access to the character devices directly in `dir` (/dev/nvidia0, /dev/nvidiactl,
// /dev/nvidia-uvm, /dev/null, ...), not to the trees below it: /dev/shm holds other processes'
// files.
std::string allow_writing_devices(int ruleset, const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return errno == ENOENT ? "" : sys_error("opening " + dir);
  std::string err;
  for (const dirent* e; err.empty() && (e = readdir(d)) != nullptr;) {
    const std::string path = dir + "/" + e->d_name;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode))
      err = allow(ruleset, path, kReadFile | kWriteFile);
  }
  closedir(d);
  return err;
}

// Write access to this process's thread names, the threads there now.
std::string allow_writing_thread_names(int ruleset) {
  std::string err = allow(ruleset, "/proc/self/comm", kWriteFile);
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return err.empty() && errno != ENOENT ? sys_error("opening /proc/self/task") : err;
  for (const dirent* e; err.empty() && (e = readdir(d)) != nullptr;)
    if (e->d_name[0] != '.') err = allow(ruleset, std::string("/proc/self/task/") + e->d_name + "/comm", kWriteFile);
  closedir(d);
  return err;
}

}  // namespace

const std::vector<std::string>& readable_system_trees() {
  // /proc only for this process (and system-wide files the runtimes read), not the judge's or
  // another runner's entries.
  static const std::vector<std::string> kTrees = {
      "/usr",         "/lib",          "/lib32",         "/lib64",         "/libx32",
      "/bin",         "/sbin",         "/etc",           "/opt",           "/dev",
      "/sys",         "/run",          "/proc/driver",   "/proc/sys",      "/proc/cpuinfo",
      "/proc/meminfo", "/proc/stat",   "/proc/self/",    "/proc/filesystems"};
  return kTrees;
}

std::string confine_files(const std::vector<std::string>& readable_files,
                          const std::vector<std::string>& scratch_trees) {
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = kRead | kWriteFile;
  long ruleset = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (ruleset < 0)
    return errno == ENOSYS || errno == EOPNOTSUPP
               ? "this kernel has no Landlock (Linux 5.13 or later, with Landlock enabled)"
               : sys_error("landlock_create_ruleset");
  const int rs = static_cast<int>(ruleset);
  std::string err;
  for (const auto& p : readable_system_trees())
    if (err.empty()) err = allow(rs, p, kRead);
  for (const auto& p : readable_files)
    if (err.empty()) err = allow(rs, p, kReadFile);
  for (const auto& p : scratch_trees)
    if (err.empty()) err = allow(rs, p, kRead | kWriteFile);
  // The driver's device files (capabilities live in /dev/nvidia-caps), and thread names
  // (/proc/self/comm, /proc/self/task/N/comm of the threads there now; a thread names itself
  // through prctl, which needs no file). Nothing else of /proc/self is writable: not
  // /proc/self/mem, whose writes reach the process's code whatever its pages' protection.
  for (const char* dir : {"/dev", "/dev/nvidia-caps"})
    if (err.empty()) err = allow_writing_devices(rs, dir);
  if (err.empty()) err = allow_writing_thread_names(rs);
  if (err.empty() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) err = sys_error("PR_SET_NO_NEW_PRIVS");
  if (err.empty() && syscall(SYS_landlock_restrict_self, rs, 0) != 0)
    err = sys_error("landlock_restrict_self");
  close(rs);
  return err;
}

}  // namespace arena::runner
