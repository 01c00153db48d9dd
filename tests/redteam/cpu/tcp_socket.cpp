// Cheats on purpose (environment probing): opens a TCP socket, as a solution would to send
// what it saw (inputs, files it read) out of the runner or to fetch an answer; then computes
// the right answer. The runner's seccomp profile allows Unix sockets only. Expected: failure
// sandbox_violation naming socket.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "arena_signature.h"

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  static int fd = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
  (void)fd;
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
