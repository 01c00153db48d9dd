// The runner's side of the judge protocol, shared by every backend's runner: replies, fatal
// errors, receiving requests, loading the solution and resolving a call's pointers. Header-only:
// the CPU runner is built by g++, the CUDA runner by nvcc.
#pragma once

#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "judge/fd_passing.hpp"
#include "judge/runner_protocol.hpp"

namespace arena::runner {

using InvokeFn = void (*)(void* const*, const protocol::ScalarValue*, void*);

inline int g_socket = -1;

// sendto(2) without the C library: the reply (the call's time, and what the relocation seal
// found) must not pass through a function whose slot the solution could have rewritten
// (relocation_seal.hpp).
inline long raw_sendto(int fd, const void* buf, size_t len, int flags) {
#if defined(__x86_64__)
  long ret;
  register long r10 __asm__("r10") = flags;
  register long r8 __asm__("r8") = 0;
  register long r9 __asm__("r9") = 0;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "0"(static_cast<long>(SYS_sendto)), "D"(static_cast<long>(fd)), "S"(buf), "d"(len),
                     "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = SYS_sendto;
  register long x0 __asm__("x0") = fd;
  register long x1 __asm__("x1") = reinterpret_cast<long>(buf);
  register long x2 __asm__("x2") = static_cast<long>(len);
  register long x3 __asm__("x3") = flags;
  register long x4 __asm__("x4") = 0;
  register long x5 __asm__("x5") = 0;
  __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
  return x0;
#else
  return send(fd, buf, len, flags);
#endif
}

inline void send_reply(const protocol::Reply& r) {
  if (raw_sendto(g_socket, &r, sizeof r, MSG_NOSIGNAL) != static_cast<long>(sizeof r)) _exit(protocol::kExitSetup);
}

// Copies `text` into a reply's fixed field (cut to fit, always terminated), without the C library.
inline void put_text(char* field, size_t size, const std::string& text) {
  size_t i = 0;
  for (; i + 1 < size && i < text.size(); ++i) field[i] = text[i];
  field[i] = '\0';
}

inline void reply_ok() { send_reply(protocol::Reply{}); }

// The ready reply (the library is loaded): its message says whether the sandbox is on, as
// protocol::kSandboxOn or kSandboxOff with the reason.
inline void reply_ready(const std::string& sandbox) {
  protocol::Reply r;
  std::snprintf(r.message, sizeof r.message, "%s", sandbox.c_str());
  send_reply(r);
}

// Tells the judge what went wrong, then exits with `code` (which the judge maps to a class).
[[noreturn]] inline void fail(const std::string& what, int code) {
  protocol::Reply r;
  r.status = protocol::Status::kError;
  std::snprintf(r.message, sizeof r.message, "%s", what.c_str());
  send_reply(r);
  _exit(code);
}

inline uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The next request; false when the judge closed the socket. A file descriptor that came with it
// (SCM_RIGHTS: kMap with protocol::kMapDeviceShared) goes to *fd when given, else is closed;
// *fd is -1 when none came.
inline bool receive(protocol::Request& q, int* fd = nullptr) {
  ssize_t n = receive_with_fd(g_socket, &q, sizeof q, fd);
  if (n == 0) return false;
  if (n != static_cast<ssize_t>(sizeof q) || q.magic != protocol::kMagic) fail("malformed request", protocol::kExitSetup);
  return true;
}

// A reply with a file descriptor attached (SCM_RIGHTS): the device helper's exported buffers.
inline void send_reply_with_fd(const protocol::Reply& r, int fd) {
  if (!send_with_fd(g_socket, &r, sizeof r, fd)) _exit(protocol::kExitSetup);
}

// What kLoad asked for: the library, and the address-space limit to set before loading it.
struct LoadRequest {
  std::string library;
  uint64_t address_space_bytes = 0;
};

// Waits for the judge's kLoad, which must be the runner's first request; false when the judge
// closed the socket first (a runner started ahead of need and never used).
inline bool receive_load(LoadRequest& out) {
  protocol::Request q;
  if (!receive(q)) return false;
  if (q.op != protocol::Op::kLoad) fail("the first request must be kLoad", protocol::kExitSetup);
  const uint64_t bytes = q.args[1];
  if (bytes == 0 || bytes >= static_cast<uint64_t>(protocol::kMaxPath)) fail("kLoad: no library path, or one too long", protocol::kExitSetup);
  char path[protocol::kMaxPath];
  ssize_t n = recv(g_socket, path, sizeof path, 0);
  if (n != static_cast<ssize_t>(bytes) || memchr(path, '\0', bytes) != nullptr)
    fail("kLoad: the library path did not follow as announced", protocol::kExitSetup);
  out.library.assign(path, bytes);
  out.address_space_bytes = q.args[0];
  return true;
}

// The address-space limit kLoad asked for (0: none), before any solution code is loaded; no
// higher than a hard limit the judge itself runs under (ulimit -v).
inline void limit_address_space(uint64_t bytes) {
  if (bytes == 0) return;
  rlimit now{};
  auto want = static_cast<rlim_t>(bytes);
  if (getrlimit(RLIMIT_AS, &now) == 0 && now.rlim_max != RLIM_INFINITY && now.rlim_max < want) want = now.rlim_max;
  rlimit lim{want, want};
  if (setrlimit(RLIMIT_AS, &lim) != 0) fail("cannot set the address-space limit", protocol::kExitSetup);
}

// Loads the solution and its arena_invoke, or fails the start.
inline InvokeFn load_solution(const char* path) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) fail(std::string("cannot load the solution: ") + dlerror(), protocol::kExitSetup);
  auto invoke = reinterpret_cast<InvokeFn>(dlsym(lib, "arena_invoke"));
  if (invoke == nullptr) fail("the solution library has no arena_invoke", protocol::kExitSetup);
  return invoke;
}

// The call's tensor pointers: offsets of `q` into the buffers at `base` (`bytes` long).
inline void resolve_pointers(const protocol::Request& q, void* base, size_t bytes, std::vector<void*>& out) {
  if (base == nullptr || q.pointer_count > protocol::kMaxPointers || q.scalar_count > protocol::kMaxScalars)
    fail("call before map, or too many arguments", protocol::kExitSetup);
  out.assign(q.pointer_count, nullptr);
  for (uint32_t i = 0; i < q.pointer_count; ++i) {
    if (q.offsets[i] > bytes) fail("offset outside the region", protocol::kExitSetup);
    out[i] = static_cast<char*>(base) + q.offsets[i];
  }
}

}  // namespace arena::runner
