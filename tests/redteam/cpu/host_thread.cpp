// Cheats on purpose (host thread): from its third call on, every call starts a detached thread
// and returns while that thread still runs (here it spins for 20 ms, standing for work deferred
// past the call, which the timer does not see); the output itself is computed in the call, so
// only the thread count can tell. The judge counts the runner's threads from /proc after the
// warm-up call and right after every timed call. Expected: flag host_thread (voids the speedup).
#include <atomic>
#include <chrono>
#include <thread>

#include "arena_signature.h"

namespace {
std::atomic<int> calls{0};

void linger() {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
  volatile unsigned long spin = 0;
  while (std::chrono::steady_clock::now() < until) spin = spin + 1;
}
}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  if (++calls >= 3) std::thread(linger).detach();
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
