// The runner's seccomp profile: what the untrusted solution may not ask the kernel for.
//
// Installed by each runner once its own setup is done and before the solution's first call
// (the CPU runner: before the solution is even loaded, so its static constructors are confined
// too; the CUDA runner: after the library is loaded, since the driver registers its kernels
// then). Denied, with SECCOMP_RET_TRAP: running programs (execve, execveat, fork, vfork, clone
// without CLONE_THREAD), ptrace and process_vm_readv/writev, sockets other than AF_UNIX, io_uring
// (whose requests would bypass the filter), creating, linking, renaming or removing files and
// directories (open/openat/creat with O_CREAT, mkdir, unlink, rename, link, symlink, mknod,
// truncate), and signals to any other process (kill, tgkill, tkill, rt_(tg)sigqueueinfo,
// pidfd_open). clone3 and openat2 answer ENOSYS, so glibc falls back to clone and openat, whose
// flags the filter can read. Answered EACCES instead (a strict W^X system's answer), where the
// profile says so: making memory executable with mprotect or pkey_mprotect, and anonymous
// executable mappings, so the code the runner times with stays as loaded (relocation_seal.hpp). Everything else is allowed:
// threads (the judge counts them), mmap, ioctl, reading files.
//
// A denied call never runs: the kernel raises SIGSYS instead, whose handler writes one line,
// "arena-sandbox: denied <name> (<number>)", to the runner's output (a descriptor duplicated at
// install time) and exits with protocol::kExitSandbox; the judge turns that into the failure class
// sandbox_violation naming the call.
//
// With it, where the kernel has Landlock, file reads are confined (runner_landlock.hpp): the
// solution reads the system trees and its own library, not the task directory or anything else.
#pragma once

#include <string>
#include <vector>

namespace arena::runner {

struct SandboxProfile {
  // Also deny opening existing files for writing (O_WRONLY, O_RDWR, O_TRUNC). The CPU runner
  // does; the CUDA runner cannot: the driver opens /dev/nvidia* read-write whenever it needs.
  bool deny_writing_files = false;
  // Answer EACCES to making memory executable (mprotect, pkey_mprotect with PROT_EXEC; anonymous
  // executable mappings): loaded code stays as loaded (W^X).
  bool deny_executable_memory = true;
  // Readable beyond the system trees: the solution's library.
  std::vector<std::string> readable_files;
};

struct SandboxOutcome {
  std::string seccomp_off;  // "" when the filter is on, else why not
  std::string reads_open;   // "" when file reads are confined, else why not
};

// Confines file reads, then installs the SIGSYS handler and the filter for the whole process
// (every thread, present and future). Where either cannot be installed (an architecture the
// filter does not know, a kernel without seccomp or Landlock) the runner runs without it.
SandboxOutcome install_sandbox(const SandboxProfile& profile);

// What the runner's ready reply says about it (protocol::kSandboxOn / kSandboxOff ...).
std::string describe(const SandboxOutcome& outcome);

// The name of system call `nr` when the profile denies it (for the SIGSYS report), else nullptr.
const char* denied_syscall_name(long nr);

}  // namespace arena::runner
