// Cheats on purpose (timer tampering, by patching code): writes a jump to a slow clock of its
// own over the first bytes of the C library's clock_gettime, which the runner times every call
// with, so that the runner's clock runs four times slow. Nothing of the runner's own is touched:
// its relocation slot still points where it did. Two ways are tried: a patched copy of the code's
// pages in an anonymous executable mapping moved over them (mremap), then the pages made writable
// in place (mprotect). Both need memory that is writable and executable, which the runner's
// seccomp profile refuses (an anonymous mmap with PROT_EXEC, mprotect with PROT_EXEC: EACCES):
// the patch fails and the solution is just the plain loop. If either refusal were missing, the
// patch would land and the seal flag it.
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

#if defined(__x86_64__)
// movabs rax, slow_clock; jmp rax (12 bytes; two pages in case they straddle one's end)
void write_jump(unsigned char* at) {
  unsigned char jump[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};
  const auto target = reinterpret_cast<uint64_t>(&slow_clock);
  std::memcpy(jump + 2, &target, sizeof target);
  std::memcpy(at, jump, sizeof jump);
}

// A patched copy of the two pages in an anonymous executable mapping, moved over them.
bool patch_by_remap(uintptr_t start, size_t bytes, size_t offset) {
  void* copy = mmap(nullptr, bytes, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED) return false;  // refused
  auto* bytes_of = static_cast<unsigned char*>(copy);
  std::memcpy(bytes_of, reinterpret_cast<const void*>(start), bytes);
  write_jump(bytes_of + offset);
  if (mremap(copy, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, reinterpret_cast<void*>(start)) == MAP_FAILED) {
    munmap(copy, bytes);
    return false;
  }
  return true;
}
#endif

void patch_clock_gettime() {
#if defined(__x86_64__)
  auto* code = reinterpret_cast<unsigned char*>(reinterpret_cast<uintptr_t>(&clock_gettime));
  const long page = sysconf(_SC_PAGESIZE);
  auto start = reinterpret_cast<uintptr_t>(code) & ~static_cast<uintptr_t>(page - 1);
  const auto bytes = static_cast<size_t>(2 * page);
  if (patch_by_remap(start, bytes, reinterpret_cast<uintptr_t>(code) - start)) return;
  if (mprotect(reinterpret_cast<void*>(start), bytes, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
    return;  // refused: no patch
  write_jump(code);
  mprotect(reinterpret_cast<void*>(start), bytes, PROT_READ | PROT_EXEC);
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
