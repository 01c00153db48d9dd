// The runner's relocation slots, sealed: what its calls into shared libraries go through.
//
// A runner times the solution with functions of shared libraries (the CUDA runtime's events, the
// C library's clock) that it calls through its relocation slots (the GOT), and the solution runs
// in the same process: one that points a slot at a function of its own can make every time it
// reports shorter (tests/redteam/cuda/impossible_speed.cu does so to cudaEventElapsedTime). The
// runners are linked with -z now (every slot bound before main) and seal their slots at start,
// before the solution is loaded: the slot's address, the value it was bound to, and the first
// bytes of the code it points to, a copy of its own code (its executable segments, ~60-80 KB), and
// a copy of the loader's and the C library's RELRO data (read-only after relocation, a few KB:
// the C library's clock_gettime reaches the vDSO through a pointer there, which mprotect can
// make writable without making anything executable). check() after every call finds a slot that
// now holds another value, a function whose first bytes changed (a hook patched into its code), a
// rewritten word of that data, or a change to the runner's own code (the seccomp
// profile also denies making memory executable once it is installed, runner_sandbox.hpp; the CUDA
// runner installs it after the solution's static constructors ran).
//
// This raises the bar, it does not close the class: the seal lives in the solution's process
// too, and code that finds it (or the runner's other data) can deceive it. docs/integrity.md
// says what would close it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace arena::runner {

class RelocationSeal {
 public:
  // Reads the main program's relocation slots now. "" when sealed, else why not (a program
  // not linked with -z now, whose slots change at their first call).
  std::string seal();
  // "" when every sealed slot holds its value and every function's first bytes are as they
  // were; else what changed, the first such slot named.
  std::string check() const;
  size_t slots() const { return slots_.size(); }
  // Where the sealed slot for symbol `name` lives (its first), or nullptr.
  const uintptr_t* slot_of(const std::string& name) const;

  static constexpr size_t kCodeBytes = 16;  // of each function a slot points to

 private:
  struct Slot {
    const uintptr_t* at = nullptr;  // where the slot lives
    uintptr_t value = 0;            // what it was bound to
    std::string name;               // its symbol
    bool code = false;              // a function: its first bytes were copied
    size_t code_bytes = 0;
    unsigned char first[kCodeBytes] = {};
  };
  std::vector<Slot> slots_;
  struct Code {
    const unsigned char* at = nullptr;
    std::vector<unsigned char> copy;
  };
  std::vector<Code> own_code_;  // the runner's executable segments as loaded
  struct Data {
    std::string name;  // the library's file name
    const unsigned char* at = nullptr;
    std::vector<unsigned char> copy;
  };
  std::vector<Data> relro_;  // the loader's and the C library's RELRO segments as relocated
};

}  // namespace arena::runner
