// The runner's Landlock confinement (src/backends/runner_landlock.cpp), applied in a forked
// child of the test: what it may open for reading and for writing afterwards.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/landlock.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

#include "backends/runner_landlock.hpp"

namespace arena::runner {
namespace {

bool kernel_has_landlock() {
  return syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION) >= 1;
}

// What open(path, flags) does in a child confined by confine_files(readable, scratch): 0 when
// it opens, else the errno; -1 when the confinement itself failed.
int open_when_confined(const std::string& path, int flags,
                       const std::vector<std::string>& readable = {},
                       const std::vector<std::string>& scratch = {}) {
  pid_t pid = fork();
  if (pid == 0) {
    if (!confine_files(readable, scratch).empty()) _exit(255);
    int fd = open(path.c_str(), flags | O_CLOEXEC);
    _exit(fd >= 0 ? 0 : errno);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 254;
  return code == 255 ? -1 : code;
}

class Landlock : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kernel_has_landlock())
      GTEST_SKIP() << "this kernel has no Landlock: the runner's files are not confined here";
    dir_ = std::filesystem::temp_directory_path() / ("arena-landlock-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    file_ = (dir_ / "cached.so").string();
    std::ofstream(file_) << "a library in the compile cache";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  std::string file_;
};

TEST_F(Landlock, AnExistingFileCannotBeOpenedForWriting) {
  EXPECT_EQ(open_when_confined(file_, O_WRONLY), EACCES);
  EXPECT_EQ(open_when_confined(file_, O_RDWR), EACCES);
  // Even the runner's own library, which it may read.
  EXPECT_EQ(open_when_confined(file_, O_RDONLY, {file_}), 0);
  EXPECT_EQ(open_when_confined(file_, O_WRONLY, {file_}), EACCES);
}

TEST_F(Landlock, FilesOutsideTheSystemTreesCannotBeRead) {
  EXPECT_EQ(open_when_confined(file_, O_RDONLY), EACCES);
  EXPECT_EQ(open_when_confined("/etc/passwd", O_RDONLY), 0);
}

TEST_F(Landlock, DeviceFilesAndThreadNamesStayWritable) {
  EXPECT_EQ(open_when_confined("/dev/null", O_WRONLY), 0);
  EXPECT_EQ(open_when_confined("/proc/self/comm", O_WRONLY), 0);
  // Not the files below /dev: /dev/shm holds other processes' files.
  if (std::filesystem::is_directory("/dev/shm")) {
    std::string shm = "/dev/shm/arena-landlock-" + std::to_string(getpid());
    std::ofstream(shm) << "another process's shared memory";
    EXPECT_EQ(open_when_confined(shm, O_WRONLY), EACCES);
    std::filesystem::remove(shm);
  }
}

TEST_F(Landlock, AScratchTreeIsReadableAndWritable) {
  EXPECT_EQ(open_when_confined(file_, O_RDWR, {}, {dir_.string()}), 0);
}

}  // namespace
}  // namespace arena::runner
