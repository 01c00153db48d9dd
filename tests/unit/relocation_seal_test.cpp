// The runners' seal (src/backends/relocation_seal.hpp) on this test program, linked with -z now
// as the runners are: a rewritten slot is named, its restoration is not; a change to the
// program's own code is found; so is the loader's pointer to the vDSO's clock pointed elsewhere.
#include "backends/relocation_seal.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <ctime>
#include <string>

extern "C" __attribute__((noinline)) int seal_test_victim(int x) { return x * 3 + 1; }

namespace arena::runner {
namespace {

int other_clock(clockid_t, timespec*) { return 0; }

using ClockFn = int (*)(clockid_t, timespec*);

// The word of the loader's data that holds the vDSO's clock_gettime (the C library's clock calls
// through it), or nullptr.
ClockFn* loaders_vdso_clock(ClockFn vdso) {
  struct Search {
    ClockFn vdso;
    ClockFn* found;
  } search{vdso, nullptr};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        if (info->dlpi_name == nullptr || std::strstr(info->dlpi_name, "/ld-") == nullptr) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_GNU_RELRO) continue;
          auto* words = reinterpret_cast<ClockFn*>(info->dlpi_addr + ph.p_vaddr);  // NOLINT(performance-no-int-to-ptr)
          for (size_t k = 0; k < ph.p_memsz / sizeof(ClockFn); ++k)
            if (words[k] == s->vdso) s->found = words + k;
        }
        return s->found != nullptr ? 1 : 0;
      },
      &search);
  return search.found;
}

void* page_of(const void* p) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) & ~(page - 1));  // NOLINT(performance-no-int-to-ptr)
}

TEST(RelocationSeal, SealsEverySlotAndFindsNothingChanged) {
  timespec ts{};
  ASSERT_EQ(clock_gettime(CLOCK_MONOTONIC, &ts), 0);  // the program imports it
  RelocationSeal seal;
  ASSERT_EQ(seal.seal(), "");
  EXPECT_GT(seal.slots(), 10u);
  EXPECT_NE(seal.slot_of("clock_gettime"), nullptr);
  EXPECT_EQ(seal.check(), "");
  EXPECT_EQ(seal.check(), "");  // checking changes nothing
}

TEST(RelocationSeal, ARewrittenSlotIsNamedAndItsRestorationIsNot) {
  RelocationSeal seal;
  ASSERT_EQ(seal.seal(), "");
  auto* slot = const_cast<uintptr_t*>(seal.slot_of("clock_gettime"));
  ASSERT_NE(slot, nullptr);
  const long page = sysconf(_SC_PAGESIZE);
  ASSERT_EQ(mprotect(page_of(slot), static_cast<size_t>(page), PROT_READ | PROT_WRITE), 0);
  const uintptr_t bound = *slot;
  *slot = reinterpret_cast<uintptr_t>(&other_clock);
  const std::string said = seal.check();
  *slot = bound;
  EXPECT_NE(said.find("relocation slot for clock_gettime was rewritten"), std::string::npos) << said;
  EXPECT_NE(said.find("instead of clock_gettime in lib"), std::string::npos) << said;  // libc, or a sanitizer's
  EXPECT_EQ(seal.check(), "");
}

TEST(RelocationSeal, AChangeToTheProgramsOwnCodeIsFound) {
  RelocationSeal seal;
  ASSERT_EQ(seal.seal(), "");
  auto* code = reinterpret_cast<unsigned char*>(  // NOLINT(performance-no-int-to-ptr): code as bytes
      reinterpret_cast<uintptr_t>(&seal_test_victim));
  const long page = sysconf(_SC_PAGESIZE);
  ASSERT_EQ(mprotect(page_of(code), static_cast<size_t>(2 * page), PROT_READ | PROT_WRITE | PROT_EXEC), 0);
  const unsigned char was = code[0];
  code[0] = static_cast<unsigned char>(was ^ 0xFF);
  const std::string said = seal.check();
  code[0] = was;
  EXPECT_NE(said.find("the runner's own code was changed"), std::string::npos) << said;
  EXPECT_EQ(seal.check(), "");
  EXPECT_EQ(seal_test_victim(2), 7);
}

TEST(RelocationSeal, TheLoadersPointerToTheVdsoClockPointedElsewhereIsNamed) {
  void* vdso = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
  auto clock = vdso != nullptr ? reinterpret_cast<ClockFn>(dlsym(vdso, "__vdso_clock_gettime")) : nullptr;
  ClockFn* pointer = clock != nullptr ? loaders_vdso_clock(clock) : nullptr;
  if (pointer == nullptr) GTEST_SKIP() << "no vDSO clock_gettime, or the loader keeps no pointer to it here";
  RelocationSeal seal;
  ASSERT_EQ(seal.seal(), "");
  const long page = sysconf(_SC_PAGESIZE);
  ASSERT_EQ(mprotect(page_of(pointer), static_cast<size_t>(page), PROT_READ | PROT_WRITE), 0);
  *pointer = &other_clock;
  const std::string said = seal.check();
  *pointer = clock;
  mprotect(page_of(pointer), static_cast<size_t>(page), PROT_READ);
  EXPECT_NE(said.find("the read-only data of ld-"), std::string::npos) << said;
  EXPECT_NE(said.find("(clock_gettime in linux-vdso.so.1)"), std::string::npos) << said;  // what it was
  EXPECT_EQ(seal.check(), "");
}

}  // namespace
}  // namespace arena::runner
