#include "backends/runner_landlock.hpp"

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

// ABI 1 rights: enough to confine reads, known to every kernel with Landlock (5.13 and later).
constexpr uint64_t kReadFile = LANDLOCK_ACCESS_FS_READ_FILE;
constexpr uint64_t kReadDir = LANDLOCK_ACCESS_FS_READ_DIR;

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
  rule.allowed_access = S_ISDIR(st.st_mode) ? access : (access & kReadFile);
  rule.parent_fd = fd;
  long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  close(fd);
  return rc == 0 ? "" : sys_error("landlock_add_rule(" + path + ")");
}

}  // namespace

const std::vector<std::string>& readable_system_trees() {
  // /proc only for this process (and system-wide files the runtimes read), not the judge's or
  // another runner's entries.
  static const std::vector<std::string> trees = {
      "/usr",         "/lib",          "/lib32",         "/lib64",         "/libx32",
      "/bin",         "/sbin",         "/etc",           "/opt",           "/dev",
      "/sys",         "/run",          "/proc/driver",   "/proc/sys",      "/proc/cpuinfo",
      "/proc/meminfo", "/proc/stat",   "/proc/self/",    "/proc/filesystems"};
  return trees;
}

std::string confine_file_reads(const std::vector<std::string>& readable_files,
                               const std::vector<std::string>& readable_trees) {
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = kReadFile | kReadDir;
  long ruleset = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (ruleset < 0)
    return errno == ENOSYS || errno == EOPNOTSUPP
               ? "this kernel has no Landlock (Linux 5.13 or later, with Landlock enabled)"
               : sys_error("landlock_create_ruleset");
  const int rs = static_cast<int>(ruleset);
  std::string err;
  for (const auto& p : readable_system_trees())
    if (err.empty()) err = allow(rs, p, kReadFile | kReadDir);
  for (const auto& p : readable_trees)
    if (err.empty()) err = allow(rs, p, kReadFile | kReadDir);
  for (const auto& p : readable_files)
    if (err.empty()) err = allow(rs, p, kReadFile);
  if (err.empty() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) err = sys_error("PR_SET_NO_NEW_PRIVS");
  if (err.empty() && syscall(SYS_landlock_restrict_self, rs, 0) != 0)
    err = sys_error("landlock_restrict_self");
  close(rs);
  return err;
}

}  // namespace arena::runner
