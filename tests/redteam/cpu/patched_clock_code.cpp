// Cheats on purpose (timer tampering, by patching code): writes a jump to a slow clock of its
// own over the first bytes of the C library's clock_gettime, which the runner times every call
// with, so that the runner's clock runs four times slow. Nothing of the runner's own is touched:
// its relocation slot still points where it did. The patch needs the code's page writable and
// executable at once, which the runner's seccomp profile refuses (mprotect with PROT_EXEC answers
// EACCES): the patch fails and the solution is just the plain loop.
// Expected: correct, no flag, no gain; with ARENA_NO_SANDBOX=1 the patch lands and the runner's
// seal sees the changed code (flag timer_mismatch naming clock_gettime).
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "arena_signature.h"

namespace {

int64_t g_base_ns = -1;
bool g_tried = false;

int slow_clock(clockid_t id, timespec* ts) {
  // The real clock through the kernel: the library's entry point is the one patched.
  const long rc = syscall(SYS_clock_gettime, id, ts);
  if (rc != 0 || id != CLOCK_MONOTONIC) return static_cast<int>(rc);
  const int64_t now = int64_t{ts->tv_sec} * 1000000000 + ts->tv_nsec;
  if (g_base_ns < 0) g_base_ns = now;
  const int64_t fake = g_base_ns + (now - g_base_ns) / 4;
  ts->tv_sec = fake / 1000000000;
  ts->tv_nsec = fake % 1000000000;
  return 0;
}

void patch_clock_gettime() {
#if defined(__x86_64__)
  auto* code = reinterpret_cast<unsigned char*>(reinterpret_cast<uintptr_t>(&clock_gettime));
  const long page = sysconf(_SC_PAGESIZE);
  auto start = reinterpret_cast<uintptr_t>(code) & ~static_cast<uintptr_t>(page - 1);
  // movabs rax, slow_clock; jmp rax (12 bytes; two pages in case they straddle one's end)
  if (mprotect(reinterpret_cast<void*>(start), static_cast<size_t>(2 * page),
               PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
    return;  // refused: no patch
  unsigned char jump[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};
  const auto target = reinterpret_cast<uint64_t>(&slow_clock);
  std::memcpy(jump + 2, &target, sizeof target);
  std::memcpy(code, jump, sizeof jump);
  mprotect(reinterpret_cast<void*>(start), static_cast<size_t>(2 * page), PROT_READ | PROT_EXEC);
#endif
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  if (!g_tried) {
    g_tried = true;
    patch_clock_gettime();
  }
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
