// Cheats on purpose, the first step only (timer tampering): points the runner's relocation slot
// for clock_gettime at a function of its own, which still tells the true time. A cheat would
// then slow the clock (patched_timer.cpp); this one lies about nothing, so no check of the times
// can see it: only the runner's seal of its slots (src/backends/relocation_seal.hpp).
// Expected: correct values, flag timer_mismatch naming the slot, speedup voided (exit 1).
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

int same_clock(clockid_t id, timespec* ts) { return g_real(id, ts); }

int rewire_main_program(dl_phdr_info* info, size_t, void*) {
  if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') return 0;  // the executable only
  const ElfW(Dyn)* dyn = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (dyn == nullptr) return 1;
  const ElfW(Rela)* tables[2] = {nullptr, nullptr};
  size_t sizes[2] = {0, 0};
  const ElfW(Sym)* syms = nullptr;
  const char* strs = nullptr;
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_JMPREL) tables[0] = reinterpret_cast<const ElfW(Rela)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_PLTRELSZ) sizes[0] = d->d_un.d_val;
    if (d->d_tag == DT_RELA) tables[1] = reinterpret_cast<const ElfW(Rela)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_RELASZ) sizes[1] = d->d_un.d_val;
    if (d->d_tag == DT_SYMTAB) syms = reinterpret_cast<const ElfW(Sym)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_STRTAB) strs = reinterpret_cast<const char*>(d->d_un.d_ptr);
  }
  const long page = sysconf(_SC_PAGESIZE);
  for (int t = 0; t < 2; ++t) {
    for (size_t k = 0; tables[t] != nullptr && k < sizes[t] / sizeof(ElfW(Rela)); ++k) {
      if (std::strcmp(strs + syms[ELF64_R_SYM(tables[t][k].r_info)].st_name, "clock_gettime") != 0) continue;
      auto* slot = reinterpret_cast<ClockFn*>(info->dlpi_addr + tables[t][k].r_offset);
      auto start = reinterpret_cast<uintptr_t>(slot) & ~static_cast<uintptr_t>(page - 1);
      mprotect(reinterpret_cast<void*>(start), static_cast<size_t>(page), PROT_READ | PROT_WRITE);
      *slot = same_clock;
    }
  }
  return 1;
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n) {
  if (g_real == nullptr) {
    g_real = &clock_gettime;
    dl_iterate_phdr(rewire_main_program, nullptr);
  }
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
