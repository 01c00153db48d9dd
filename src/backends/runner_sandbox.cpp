#include "backends/runner_sandbox.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): sigaction, sigset_t are POSIX
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "backends/runner_landlock.hpp"
#include "judge/runner_protocol.hpp"

namespace arena::runner {
namespace {

#if defined(__x86_64__)
constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
constexpr bool kArchKnown = true;
#elif defined(__aarch64__)
constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
constexpr bool kArchKnown = true;
#else
constexpr uint32_t kArch = 0;
constexpr bool kArchKnown = false;
#endif

// The low 32 bits of argument `i` (flags, pids and address families are ints).
constexpr uint32_t arg_low(int i) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * static_cast<size_t>(i));
#else
  return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * static_cast<size_t>(i) + 4);
#endif
}

struct Denied {
  long nr;
  const char* name;
};

// Every call the profile can trap, by name, for the SIGSYS report. The legacy calls (open,
// fork, mkdir ...) exist on x86_64, not on aarch64.
constexpr Denied kNames[] = {
    {__NR_execve, "execve"},
    {__NR_execveat, "execveat"},
    {__NR_clone, "clone"},
    {__NR_ptrace, "ptrace"},
    {__NR_process_vm_readv, "process_vm_readv"},
    {__NR_process_vm_writev, "process_vm_writev"},
    {__NR_socket, "socket"},
    {__NR_io_uring_setup, "io_uring_setup"},
    {__NR_openat, "openat"},
    {__NR_mkdirat, "mkdirat"},
    {__NR_mknodat, "mknodat"},
    {__NR_unlinkat, "unlinkat"},
    {__NR_renameat2, "renameat2"},
    {__NR_linkat, "linkat"},
    {__NR_symlinkat, "symlinkat"},
    {__NR_truncate, "truncate"},
    {__NR_kill, "kill"},
    {__NR_tgkill, "tgkill"},
    {__NR_tkill, "tkill"},
    {__NR_rt_sigqueueinfo, "rt_sigqueueinfo"},
    {__NR_rt_tgsigqueueinfo, "rt_tgsigqueueinfo"},
    {__NR_pidfd_open, "pidfd_open"},
#ifdef __NR_fork
    {__NR_fork, "fork"},
#endif
#ifdef __NR_vfork
    {__NR_vfork, "vfork"},
#endif
#ifdef __NR_open
    {__NR_open, "open"},
#endif
#ifdef __NR_creat
    {__NR_creat, "creat"},
#endif
#ifdef __NR_mkdir
    {__NR_mkdir, "mkdir"},
#endif
#ifdef __NR_mknod
    {__NR_mknod, "mknod"},
#endif
#ifdef __NR_unlink
    {__NR_unlink, "unlink"},
#endif
#ifdef __NR_rmdir
    {__NR_rmdir, "rmdir"},
#endif
#ifdef __NR_rename
    {__NR_rename, "rename"},
#endif
#ifdef __NR_renameat
    {__NR_renameat, "renameat"},
#endif
#ifdef __NR_link
    {__NR_link, "link"},
#endif
#ifdef __NR_symlink
    {__NR_symlink, "symlink"},
#endif
};

// Builds the BPF program. Every rule is a self-contained block that starts by comparing the
// system call number (held in the accumulator) and, when it matches, ends in a return: a block
// that loads an argument never falls through into the next one.
class Program {
 public:
  std::vector<sock_filter> code;

  void load(uint32_t offset) { code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
  void ret(uint32_t action) { code.push_back(BPF_STMT(BPF_RET | BPF_K, action)); }
  void jump(uint16_t op, uint32_t k, uint8_t jt, uint8_t jf) { code.push_back(BPF_JUMP(BPF_JMP | op | BPF_K, k, jt, jf)); }

  // nr -> action, whatever the arguments.
  void always(long nr, uint32_t action) {
    jump(BPF_JEQ, static_cast<uint32_t>(nr), 0, 1);
    ret(action);
  }
  // nr with any bit of `mask` set in argument `arg` -> trap; else allow.
  void trap_if_any_bit(long nr, int arg, uint32_t mask) { if_any_bit(nr, arg, mask, SECCOMP_RET_TRAP); }
  // nr with any bit of `mask_a` in argument `a` and any of `mask_b` in argument `b` -> `action`;
  // else allow.
  void if_both(long nr, int a, uint32_t mask_a, int b, uint32_t mask_b, uint32_t action) {
    jump(BPF_JEQ, static_cast<uint32_t>(nr), 0, 6);
    load(arg_low(a));
    jump(BPF_JSET, mask_a, 0, 3);
    load(arg_low(b));
    jump(BPF_JSET, mask_b, 0, 1);
    ret(action);
    ret(SECCOMP_RET_ALLOW);
  }
  // nr with any bit of `mask` in argument `arg` -> `action`; else allow.
  void if_any_bit(long nr, int arg, uint32_t mask, uint32_t action) {
    jump(BPF_JEQ, static_cast<uint32_t>(nr), 0, 4);
    load(arg_low(arg));
    jump(BPF_JSET, mask, 0, 1);
    ret(action);
    ret(SECCOMP_RET_ALLOW);
  }
  // nr without every bit of `mask` in argument `arg` -> trap; else allow.
  void trap_unless_bits(long nr, int arg, uint32_t mask) {
    jump(BPF_JEQ, static_cast<uint32_t>(nr), 0, 4);
    load(arg_low(arg));
    jump(BPF_JSET, mask, 1, 0);  // (one bit: CLONE_THREAD)
    ret(SECCOMP_RET_TRAP);
    ret(SECCOMP_RET_ALLOW);
  }
  // nr with argument `arg` other than `value` -> trap; else allow.
  void trap_unless_equal(long nr, int arg, uint32_t value) {
    jump(BPF_JEQ, static_cast<uint32_t>(nr), 0, 4);
    load(arg_low(arg));
    jump(BPF_JEQ, value, 1, 0);
    ret(SECCOMP_RET_TRAP);
    ret(SECCOMP_RET_ALLOW);
  }
};

std::vector<sock_filter> build_filter(const SandboxProfile& profile) {
  Program p;
  // Another architecture's calls (an int 0x80 from a 64-bit process) would be read with the
  // wrong numbers: the process is killed (the judge sees SIGSYS).
  p.load(offsetof(seccomp_data, arch));
  p.jump(BPF_JEQ, kArch, 1, 0);
  p.ret(SECCOMP_RET_KILL_PROCESS);
  p.load(offsetof(seccomp_data, nr));
#if defined(__x86_64__)
  // x32 calls (numbers with bit 30 set) are the same calls under other numbers.
  p.jump(BPF_JGE, 0x40000000u, 0, 1);
  p.ret(SECCOMP_RET_TRAP);
#endif

  // Other programs and processes. Threads are clone with CLONE_THREAD (pthread_create): allowed,
  // as the CUDA driver, OpenMP and cuBLAS start theirs; the judge counts them around the calls.
  // fork(), system() and posix_spawn are clone without it.
  p.always(__NR_execve, SECCOMP_RET_TRAP);
  p.always(__NR_execveat, SECCOMP_RET_TRAP);
  p.trap_unless_bits(__NR_clone, 0, CLONE_THREAD);
  // clone3 passes its flags in memory, out of the filter's reach: ENOSYS makes glibc (2.34+)
  // fall back to clone, whose flags are read above.
  p.always(__NR_clone3, SECCOMP_RET_ERRNO | ENOSYS);
#ifdef __NR_fork
  p.always(__NR_fork, SECCOMP_RET_TRAP);
#endif
#ifdef __NR_vfork
  p.always(__NR_vfork, SECCOMP_RET_TRAP);
#endif
  // Reading or writing other processes.
  p.always(__NR_ptrace, SECCOMP_RET_TRAP);
  p.always(__NR_process_vm_readv, SECCOMP_RET_TRAP);
  p.always(__NR_process_vm_writev, SECCOMP_RET_TRAP);
  // The network: Unix sockets only (the CUDA driver may talk to an MPS daemon through one).
  p.trap_unless_equal(__NR_socket, 0, AF_UNIX);
  // io_uring runs opens, sockets and more without passing through this filter.
  p.always(__NR_io_uring_setup, SECCOMP_RET_TRAP);

  // Files: reading stays allowed (the CUDA driver reads /proc and /sys, libraries load), and so
  // do the driver's opens of /dev/nvidia* read-write (no O_CREAT). New files, links, renames and
  // removals are denied; the CPU profile also denies opening existing files for writing.
  const uint32_t open_mask = O_CREAT | (profile.deny_writing_files ? (O_WRONLY | O_RDWR | O_TRUNC) : 0u);
  p.trap_if_any_bit(__NR_openat, 2, open_mask);
#ifdef __NR_open
  p.trap_if_any_bit(__NR_open, 1, open_mask);
#endif
  // openat2 passes its flags in memory: ENOSYS, and glibc's callers use openat.
  p.always(__NR_openat2, SECCOMP_RET_ERRNO | ENOSYS);
  for (long nr : {static_cast<long>(__NR_mkdirat), static_cast<long>(__NR_mknodat), static_cast<long>(__NR_unlinkat),
                  static_cast<long>(__NR_renameat2), static_cast<long>(__NR_linkat),
                  static_cast<long>(__NR_symlinkat), static_cast<long>(__NR_truncate)})
    p.always(nr, SECCOMP_RET_TRAP);
#ifdef __NR_creat
  p.always(__NR_creat, SECCOMP_RET_TRAP);
#endif
#ifdef __NR_mkdir
  p.always(__NR_mkdir, SECCOMP_RET_TRAP);
  p.always(__NR_mknod, SECCOMP_RET_TRAP);
  p.always(__NR_unlink, SECCOMP_RET_TRAP);
  p.always(__NR_rmdir, SECCOMP_RET_TRAP);
  p.always(__NR_rename, SECCOMP_RET_TRAP);
  p.always(__NR_renameat, SECCOMP_RET_TRAP);
  p.always(__NR_link, SECCOMP_RET_TRAP);
  p.always(__NR_symlink, SECCOMP_RET_TRAP);
#endif

  // Signals: to this process only. abort() and raise() are tgkill(own pid, own tid);
  // pthread_kill is tgkill(own pid, tid); kill(own pid) stays allowed too.
  const auto self = static_cast<uint32_t>(getpid());
  p.trap_unless_equal(__NR_kill, 0, self);
  p.trap_unless_equal(__NR_tgkill, 0, self);
  p.trap_unless_equal(__NR_tkill, 0, self);  // only the main thread (tid == pid) by this one
  p.trap_unless_equal(__NR_rt_sigqueueinfo, 0, self);
  p.trap_unless_equal(__NR_rt_tgsigqueueinfo, 0, self);
  p.trap_unless_equal(__NR_pidfd_open, 0, self);

  // Code stays as loaded (W^X): no memory made executable by mprotect, and no anonymous
  // executable mapping, so the code the runner times with cannot be patched
  // (relocation_seal.hpp watches the slots that lead to it). Libraries still load: their code is
  // mapped from their files. EACCES, as a strict W^X system answers, so a library that would
  // generate code can fall back or fail with an error of its own.
  if (profile.deny_executable_memory) {
    const uint32_t no_exec = SECCOMP_RET_ERRNO | EACCES;
    p.if_any_bit(__NR_mprotect, 2, PROT_EXEC, no_exec);
    p.if_any_bit(__NR_pkey_mprotect, 2, PROT_EXEC, no_exec);
    p.if_both(__NR_mmap, 2, PROT_EXEC, 3, MAP_ANONYMOUS, no_exec);
  }

  // Everything else: memory (mmap, mprotect, madvise), ioctl (the CUDA driver's whole interface
  // to the GPU), futexes, clocks, reads, the judge's socket and region, thread management.
  p.ret(SECCOMP_RET_ALLOW);
  return p.code;
}

int g_report_fd = -1;
constexpr int kSysSeccomp = 1;  // siginfo si_code of a SIGSYS the filter raised (SYS_SECCOMP)

// Async-signal-safe: formats into a stack buffer, write(), _exit().
void on_sigsys(int, siginfo_t* info, void*) {
  if (info->si_code != kSysSeccomp) {
    // Raised by the solution itself, not the filter: let it be the crash it asks for.
    signal(SIGSYS, SIG_DFL);
    raise(SIGSYS);
    _exit(protocol::kExitSandbox);
  }
  char line[160];
  size_t n = 0;
  auto put = [&](const char* s) {
    while (*s != '\0' && n < sizeof line - 1) line[n++] = *s++;
  };
  long nr = info->si_syscall;
  const char* name = denied_syscall_name(nr);
  char digits[24];
  size_t d = 0;
  unsigned long v = nr < 0 ? 0ul : static_cast<unsigned long>(nr);
  do {
    digits[d++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0 && d < sizeof digits);
  put("\narena-sandbox: denied ");
  put(name != nullptr ? name : "syscall");
  put(" (");
  while (d > 0 && n < sizeof line - 1) line[n++] = digits[--d];
  put(")\n");
  if (g_report_fd >= 0) (void)!write(g_report_fd, line, n);
  _exit(protocol::kExitSandbox);
}

}  // namespace

std::string install_seccomp(const SandboxProfile& profile);

const char* denied_syscall_name(long nr) {
  for (const auto& d : kNames)
    if (d.nr == nr) return d.name;
  return nullptr;
}

std::string describe(const SandboxOutcome& outcome) {
  if (!outcome.seccomp_off.empty()) return protocol::kSandboxOff + outcome.seccomp_off;
  return protocol::kSandboxOn + std::string(outcome.reads_open.empty()
                                                 ? protocol::kReadsConfined
                                                 : protocol::kReadsOpen + outcome.reads_open);
}

SandboxOutcome install_sandbox(const SandboxProfile& profile) {
  // Landlock first: its own system calls are not on the filter's list.
  SandboxOutcome out;
  out.reads_open = confine_files(profile.readable_files);
  out.seccomp_off = install_seccomp(profile);
  return out;
}

std::string install_seccomp(const SandboxProfile& profile) {
  if (!kArchKnown) return "the seccomp profile knows x86_64 and aarch64 only";
  // The report goes to the runner's output as it is now, whatever the solution does to fd 2.
  g_report_fd = fcntl(2, F_DUPFD_CLOEXEC, 100);
  struct sigaction sa {};
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO;
  sigfillset(&sa.sa_mask);
  if (sigaction(SIGSYS, &sa, nullptr) != 0) return std::string("sigaction(SIGSYS): ") + std::strerror(errno);

  std::vector<sock_filter> code = build_filter(profile);
  sock_fprog prog{static_cast<unsigned short>(code.size()), code.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("PR_SET_NO_NEW_PRIVS: ") + std::strerror(errno);
  // TSYNC: every thread of the process, not only this one. The CUDA runtime already has driver
  // threads, and host callbacks of the solution run on them.
  long rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
  if (rc != 0)
    return rc > 0 ? "seccomp: thread " + std::to_string(rc) + " could not take the filter"
                  : std::string("seccomp: ") + std::strerror(errno);
  return "";
}

}  // namespace arena::runner
