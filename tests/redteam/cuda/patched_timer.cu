// Cheats on purpose (timer tampering, modestly): computes the right answer with the starter's
// kernel, then rewrites the runner's GOT entry for cudaEventElapsedTime (the runner times each call
// with events in this very process) so that every event time it reads is 5 % short: a 1.05x
// "speedup" of an honest kernel, above the roofline floor (the starter runs close to it on an
// H100) and within the host-time check's slack, so only the runner's seal of its relocation
// slots (src/backends/relocation_seal.hpp) sees it. Expected: flag timer_mismatch (speedup voided).
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "arena_signature.h"

namespace {

__global__ void add(const float* a, const float* b, float* out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

using ElapsedFn = cudaError_t (*)(float*, cudaEvent_t, cudaEvent_t);
ElapsedFn g_real = nullptr;

cudaError_t fast_elapsed(float* ms, cudaEvent_t start, cudaEvent_t stop) {
  cudaError_t e = g_real(ms, start, stop);
  if (e == cudaSuccess && ms != nullptr) *ms *= 0.95f;
  return e;
}

// Points the main program's relocation slots for cudaEventElapsedTime* at fast_elapsed.
int patch_main_program(dl_phdr_info* info, size_t, void*) {
  if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') return 0;  // the executable only
  const ElfW(Dyn)* dyn = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (dyn == nullptr) return 1;
  const ElfW(Rela)* plt = nullptr;
  size_t plt_size = 0;
  const ElfW(Rela)* rela = nullptr;
  size_t rela_size = 0;
  const ElfW(Sym)* syms = nullptr;
  const char* strs = nullptr;
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_JMPREL) plt = reinterpret_cast<const ElfW(Rela)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_PLTRELSZ) plt_size = d->d_un.d_val;
    if (d->d_tag == DT_RELA) rela = reinterpret_cast<const ElfW(Rela)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_RELASZ) rela_size = d->d_un.d_val;
    if (d->d_tag == DT_SYMTAB) syms = reinterpret_cast<const ElfW(Sym)*>(d->d_un.d_ptr);
    if (d->d_tag == DT_STRTAB) strs = reinterpret_cast<const char*>(d->d_un.d_ptr);
  }
  const long page = sysconf(_SC_PAGESIZE);
  for (auto [table, size] : {std::pair{plt, plt_size}, std::pair{rela, rela_size}}) {
    for (size_t k = 0; table && k < size / sizeof(ElfW(Rela)); ++k) {
      const char* sym = strs + syms[ELF64_R_SYM(table[k].r_info)].st_name;
      if (std::strncmp(sym, "cudaEventElapsedTime", 20) != 0) continue;
      if (g_real == nullptr) g_real = reinterpret_cast<ElapsedFn>(dlsym(RTLD_DEFAULT, sym));
      if (g_real == nullptr) continue;
      auto* slot = reinterpret_cast<ElapsedFn*>(info->dlpi_addr + table[k].r_offset);
      auto start = reinterpret_cast<uintptr_t>(slot) & ~static_cast<uintptr_t>(page - 1);
      mprotect(reinterpret_cast<void*>(start), static_cast<size_t>(page), PROT_READ | PROT_WRITE);
      *slot = fast_elapsed;
    }
  }
  return 1;
}

}  // namespace

extern "C" void vector_add_f32(const float* a, const float* b, float* out, int64_t n, cudaStream_t stream) {
  static bool patched = false;
  if (!patched) {
    patched = true;
    dl_iterate_phdr(patch_main_program, nullptr);
  }
  if (n <= 0) return;
  add<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(a, b, out, n);
}
