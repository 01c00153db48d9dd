// One message over a Unix socket with a file descriptor attached (SCM_RIGHTS): how the judge
// hands a runner its device buffer and the device helper hands the judge one
// (judge/device_plane.hpp). Header-only: the runners (nvcc, g++) and the judge share it.
#pragma once

#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>

namespace arena {

// Sends `bytes` of `data` as one message, with `fd` attached when >= 0. True when all went.
inline bool send_with_fd(int socket, const void* data, size_t bytes, int fd) {
  iovec io{const_cast<void*>(data), bytes};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  if (fd >= 0) {
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  return sendmsg(socket, &m, MSG_NOSIGNAL) == static_cast<ssize_t>(bytes);
}

// Receives one message of up to `bytes` into `data` (recvmsg's answer). A descriptor that came
// with it goes to *fd when fd is given (else -1 there), every other one is closed.
inline ssize_t receive_with_fd(int socket, void* data, size_t bytes, int* fd) {
  if (fd != nullptr) *fd = -1;
  iovec io{data, bytes};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  ssize_t n = recvmsg(socket, &m, MSG_CMSG_CLOEXEC);
  for (cmsghdr* c = n > 0 ? CMSG_FIRSTHDR(&m) : nullptr; c != nullptr; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    int got = -1;
    std::memcpy(&got, CMSG_DATA(c), sizeof got);
    if (fd != nullptr && *fd < 0) {
      *fd = got;
    } else {
      close(got);
    }
  }
  return n;
}

}  // namespace arena
