#include "judge/fd_passing.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

namespace arena {
namespace {

size_t open_descriptors() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

struct Pair {
  int a = -1, b = -1;
  Pair() {
    int sv[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
    a = sv[0];
    b = sv[1];
  }
  ~Pair() {
    close(a);
    close(b);
  }
};

// The judge hands a runner its device buffer this way: the descriptor that arrives opens the
// same object as the one sent.
TEST(FdPassing, TheDescriptorArrivesWithItsMessage) {
  Pair p;
  int memfd = memfd_create("fd-passing-test", MFD_CLOEXEC);
  ASSERT_GE(memfd, 0);
  ASSERT_EQ(ftruncate(memfd, 4096), 0);
  ASSERT_EQ(pwrite(memfd, "device", 6, 0), 6);
  const char message[] = "kMap";
  ASSERT_TRUE(send_with_fd(p.a, message, sizeof message, memfd));
  close(memfd);
  char got[sizeof message] = {};
  int fd = -1;
  ASSERT_EQ(receive_with_fd(p.b, got, sizeof got, &fd), static_cast<ssize_t>(sizeof message));
  EXPECT_STREQ(got, "kMap");
  ASSERT_GE(fd, 0);
  char content[7] = {};
  EXPECT_EQ(pread(fd, content, 6, 0), 6);
  EXPECT_STREQ(content, "device");
  close(fd);
}

// A message without one gives -1; a descriptor nobody asked for (a runner sending one to the
// judge) is closed, not leaked.
TEST(FdPassing, NoneGivesMinusOneAndAnUnaskedOneIsClosed) {
  Pair p;
  const char message[] = "reply";
  char got[sizeof message] = {};
  int fd = 7;
  ASSERT_TRUE(send_with_fd(p.a, message, sizeof message, -1));
  ASSERT_EQ(receive_with_fd(p.b, got, sizeof got, &fd), static_cast<ssize_t>(sizeof message));
  EXPECT_EQ(fd, -1);
  const size_t before = open_descriptors();
  for (int i = 0; i < 20; ++i) {
    int memfd = memfd_create("unasked", MFD_CLOEXEC);
    ASSERT_TRUE(send_with_fd(p.a, message, sizeof message, memfd));
    close(memfd);
    ASSERT_EQ(receive_with_fd(p.b, got, sizeof got, nullptr), static_cast<ssize_t>(sizeof message));
  }
  EXPECT_EQ(open_descriptors(), before);
}

}  // namespace
}  // namespace arena
