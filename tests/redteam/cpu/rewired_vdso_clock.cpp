// Cheats on purpose, the first step only (timer tampering): leaves the runner's relocation slots
// and every function's code alone and rewires the pointer through which the C library's
// clock_gettime reaches the vDSO: a word of the loader's _rtld_global_ro, in its RELRO segment,
// which mprotect makes writable without making anything executable (the seccomp profile refuses
// only PROT_EXEC). The function it now leads to still tells the true time, so no check of the
// times can see it; a cheat would slow it (patched_timer.cpp). Only the runner's seal of the
// loader's and the C library's read-only data sees it (src/backends/relocation_seal.hpp).
// Expected: correct values, flag timer_mismatch naming the loader's read-only data, speedup
// voided (exit 1).
#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "arena_signature.h"

namespace {

using ClockFn = int (*)(clockid_t, timespec*);
ClockFn g_vdso = nullptr;
bool g_tried = false;

int same_clock(clockid_t id, timespec* ts) { return g_vdso(id, ts); }

// The first word of a shared library's data segments that holds the vDSO's clock_gettime.
int find_pointer(dl_phdr_info* info, size_t, void* data) {
  if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;  // not the program
  if (std::strstr(info->dlpi_name, "linux-vdso") != nullptr) return 0;
  auto** found = static_cast<ClockFn**>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) != 0 || (ph.p_flags & PF_W) == 0) continue;
    auto* words = reinterpret_cast<ClockFn*>(info->dlpi_addr + ph.p_vaddr);
    for (size_t k = 0; k < ph.p_memsz / sizeof(ClockFn); ++k) {
      if (words[k] != g_vdso) continue;
      *found = words + k;
      return 1;
    }
  }
  return 0;
}

void rewire() {
  void* vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (vdso == nullptr) return;
  g_vdso = reinterpret_cast<ClockFn>(dlsym(vdso, "__vdso_clock_gettime"));
  if (g_vdso == nullptr) return;
  ClockFn* pointer = nullptr;
  dl_iterate_phdr(find_pointer, &pointer);
  if (pointer == nullptr) return;
  const long page = sysconf(_SC_PAGESIZE);
  const auto start = reinterpret_cast<uintptr_t>(pointer) & ~static_cast<uintptr_t>(page - 1);
  if (mprotect(reinterpret_cast<void*>(start), static_cast<size_t>(page), PROT_READ | PROT_WRITE) != 0) return;
  *pointer = same_clock;
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  if (!g_tried) {
    g_tried = true;
    rewire();
  }
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
