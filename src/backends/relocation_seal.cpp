#include "backends/relocation_seal.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

// Addresses read from the loader's tables are integers made pointers throughout.
// NOLINTBEGIN(performance-no-int-to-ptr)
namespace arena::runner {
namespace {

constexpr size_t kPage = 4096;  // the smallest page: a function's first page is mapped to its end

struct Found {
  std::vector<const ElfW(Dyn)*> dynamic;
  std::vector<std::pair<const unsigned char*, size_t>> code;  // executable segments
  ElfW(Addr) base = 0;
  bool seen = false;
};

int find_main_program(dl_phdr_info* info, size_t, void* data) {
  if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') return 0;  // the executable only
  auto* found = static_cast<Found*>(data);
  found->seen = true;
  found->base = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_DYNAMIC)
      found->dynamic.push_back(reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + ph.p_vaddr));
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) != 0)
      found->code.emplace_back(reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr),
                               static_cast<size_t>(ph.p_filesz));
  }
  return 1;
}

// A path's last component.
std::string file_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

// The libraries whose read-only-after-relocation data lies on the runners' clock path: the C
// library's clock_gettime reaches the vDSO through a pointer in the loader's _rtld_global_ro,
// and the C library's own relocated pointers lead into the loader.
bool on_the_clock_path(const std::string& name) {
  return name.starts_with("ld-") || name.starts_with("libc.so");
}

std::string where(uintptr_t address) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(address), &info) != 0 && info.dli_fname != nullptr) {
    std::string s = file_name(info.dli_fname);
    if (info.dli_sname != nullptr) s = std::string(info.dli_sname) + " in " + s;
    return s;
  }
  return "no loaded library";
}

std::string hex(uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%zx", static_cast<size_t>(v));
  return buf;
}

}  // namespace

std::string RelocationSeal::seal() {
  slots_.clear();
  Found found;
  dl_iterate_phdr(find_main_program, &found);
  if (!found.seen || found.dynamic.empty()) return "the runner has no dynamic section";
  const ElfW(Dyn)* dyn = found.dynamic.front();
  // The loader rewrites most of these to addresses; where it did not they are offsets.
  auto address = [&](ElfW(Addr) p) { return p < found.base ? found.base + p : p; };
  const ElfW(Rela)* jmprel = nullptr;
  const ElfW(Rela)* rela = nullptr;
  size_t jmprel_bytes = 0, rela_bytes = 0;
  const ElfW(Sym)* syms = nullptr;
  const char* strs = nullptr;
  bool now = false;
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_JMPREL: jmprel = reinterpret_cast<const ElfW(Rela)*>(address(d->d_un.d_ptr)); break;
      case DT_PLTRELSZ: jmprel_bytes = d->d_un.d_val; break;
      case DT_RELA: rela = reinterpret_cast<const ElfW(Rela)*>(address(d->d_un.d_ptr)); break;
      case DT_RELASZ: rela_bytes = d->d_un.d_val; break;
      case DT_SYMTAB: syms = reinterpret_cast<const ElfW(Sym)*>(address(d->d_un.d_ptr)); break;
      case DT_STRTAB: strs = reinterpret_cast<const char*>(address(d->d_un.d_ptr)); break;
      case DT_BIND_NOW: now = true; break;
      case DT_FLAGS: now = now || (d->d_un.d_val & DF_BIND_NOW) != 0; break;
      case DT_FLAGS_1: now = now || (d->d_un.d_val & DF_1_NOW) != 0; break;
      default: break;
    }
  }
  if (!now) return "the runner was not linked with -z now (its slots are bound at their first call)";
  if (syms == nullptr || strs == nullptr) return "the runner has no dynamic symbol table";
  own_code_.clear();
  for (auto [at, bytes] : found.code) own_code_.push_back({at, std::vector<unsigned char>(at, at + bytes)});
  relro_.clear();
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        if (info->dlpi_name == nullptr) return 0;
        const std::string name = file_name(info->dlpi_name);
        if (!on_the_clock_path(name)) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_GNU_RELRO || ph.p_memsz == 0) continue;
          const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
          static_cast<std::vector<Data>*>(data)->push_back({name, at, {at, at + ph.p_memsz}});
        }
        return 0;
      },
      &relro_);
  for (auto [table, bytes] : {std::pair{jmprel, jmprel_bytes}, std::pair{rela, rela_bytes}}) {
    for (size_t k = 0; table != nullptr && k < bytes / sizeof(ElfW(Rela)); ++k) {
      const auto type = ELF64_R_TYPE(table[k].r_info);
      const auto sym = ELF64_R_SYM(table[k].r_info);
      // Slots bound to a symbol (a shared library's function or object); relative relocations
      // (the program's own pointers) name none.
      if (sym == 0) continue;
#if defined(__x86_64__)
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
#elif defined(__aarch64__)
      if (type != R_AARCH64_JUMP_SLOT && type != R_AARCH64_GLOB_DAT) continue;
#endif
      Slot s;
      s.at = reinterpret_cast<const uintptr_t*>(found.base + table[k].r_offset);
      s.value = *s.at;
      s.name = strs + syms[sym].st_name;
      s.code = ELF64_ST_TYPE(syms[sym].st_info) == STT_FUNC && s.value != 0;
      // Up to the end of its page at most: the next page need not be mapped.
      s.code_bytes = s.code ? std::min<size_t>(kCodeBytes, kPage - s.value % kPage) : 0;
      if (s.code) std::memcpy(s.first, reinterpret_cast<const void*>(s.value), s.code_bytes);
      slots_.push_back(std::move(s));
    }
  }
  return "";
}

const uintptr_t* RelocationSeal::slot_of(const std::string& name) const {
  for (const Slot& s : slots_)
    if (s.name == name) return s.at;
  return nullptr;
}

std::string RelocationSeal::check() const {
  for (const Code& c : own_code_)
    if (std::memcmp(c.at, c.copy.data(), c.copy.size()) != 0)
      return "the runner's own code was changed inside the solution's process";
  for (const Data& d : relro_) {
    const auto differs = std::mismatch(d.copy.begin(), d.copy.end(), d.at).first;
    if (differs == d.copy.end()) continue;
    const size_t word = static_cast<size_t>(differs - d.copy.begin()) & ~(sizeof(uintptr_t) - 1);
    uintptr_t was = 0, now = 0;
    if (word + sizeof(uintptr_t) <= d.copy.size()) {
      std::memcpy(&was, d.copy.data() + word, sizeof was);
      std::memcpy(&now, d.at + word, sizeof now);
    }
    return "the read-only data of " + d.name + " (its relocated pointers, the clock's way to the vDSO among them) " +
           "was rewritten inside the solution's process: the word at +" + hex(word) + " was " + hex(was) + " (" +
           where(was) + ") and is " + hex(now) + " (" + where(now) + ")";
  }
  for (const Slot& s : slots_) {
    const uintptr_t now = *s.at;
    if (now != s.value)
      return "the runner's relocation slot for " + s.name + " was rewritten inside the solution's " +
             "process: it points to " + hex(now) + " (" + where(now) + ") instead of " + where(s.value);
    if (s.code && std::memcmp(s.first, reinterpret_cast<const void*>(s.value), s.code_bytes) != 0)
      return "the code of " + s.name + " (" + where(s.value) +
             "), which the runner calls, was changed inside the solution's process";
  }
  return "";
}

}  // namespace arena::runner
// NOLINTEND(performance-no-int-to-ptr)
