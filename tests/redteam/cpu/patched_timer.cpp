// Cheats on purpose: computes the right answer, then rewrites the runner's GOT entry for
// clock_gettime so that the runner's clock runs four times slow and reports a 4x "speedup".
// Expected: correct values, flag timer_mismatch, speedup voided (exit 1).
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "arena_signature.h"

namespace {

using ClockFn = int (*)(clockid_t, timespec*);
ClockFn g_real = nullptr;
int64_t g_base_ns = -1;

int64_t to_ns(const timespec& t) { return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec; }

int slow_clock(clockid_t id, timespec* ts) {
  int rc = g_real(id, ts);
  if (rc != 0 || id != CLOCK_MONOTONIC) return rc;
  int64_t now = to_ns(*ts);
  if (g_base_ns < 0) g_base_ns = now;
  int64_t fake = g_base_ns + (now - g_base_ns) / 4;
  ts->tv_sec = fake / 1000000000;
  ts->tv_nsec = fake % 1000000000;
  return 0;
}

// Finds the main program's relocation slot for `name` and points it at `fn`.
int patch_main_program(dl_phdr_info* info, size_t, void*) {
  if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') return 0;  // the executable only
  const ElfW(Dyn)* dyn = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (dyn == nullptr) return 1;
  const ElfW(Rela)* rel = nullptr;
  size_t rel_size = 0;
  const ElfW(Sym)* syms = nullptr;
  const char* strs = nullptr;
  const ElfW(Rela)* rela = nullptr;
  size_t rela_size = 0;
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_JMPREL) rel = reinterpret_cast<const ElfW(Rela)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_PLTRELSZ) rel_size = d->d_un.d_val;
    if (d->d_tag == DT_RELA) rela = reinterpret_cast<const ElfW(Rela)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_RELASZ) rela_size = d->d_un.d_val;
    if (d->d_tag == DT_SYMTAB) syms = reinterpret_cast<const ElfW(Sym)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_STRTAB) strs = reinterpret_cast<const char*>(d->d_un.d_ptr);
  }
  long page = sysconf(_SC_PAGESIZE);
  for (auto [table, size] : {std::pair{rel, rel_size}, std::pair{rela, rela_size}}) {
    for (size_t k = 0; table && k < size / sizeof(ElfW(Rela)); ++k) {
      const char* sym = strs + syms[ELF64_R_SYM(table[k].r_info)].st_name;
      if (std::strcmp(sym, "clock_gettime") != 0) continue;
      auto* slot = reinterpret_cast<ClockFn*>(info->dlpi_addr + table[k].r_offset);
      auto start = reinterpret_cast<uintptr_t>(slot) & ~static_cast<uintptr_t>(page - 1);
      mprotect(reinterpret_cast<void*>(start), static_cast<size_t>(page), PROT_READ | PROT_WRITE);
      *slot = slow_clock;
    }
  }
  return 1;
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  if (g_real == nullptr) {
    g_real = &clock_gettime;
    dl_iterate_phdr(patch_main_program, nullptr);
  }
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
