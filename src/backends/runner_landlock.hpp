// The runner's file reads, confined with Landlock: after it, the process (every thread, and
// anything it could start) may open for reading only the system trees a solution needs (its
// libraries, the toolchain's, /dev, /sys, its own /proc entry) and the files it is given (its
// own library). Everything else, the task directory with its references and held-out rules,
// runs, other workspaces, home directories and /tmp among them, answers EACCES. The seccomp
// profile (runner_sandbox.hpp) already denies creating or (on the CPU) writing files.
#pragma once

#include <string>
#include <vector>

namespace arena::runner {

// The trees that stay readable: the system's, where they exist.
const std::vector<std::string>& readable_system_trees();

// Restricts the calling process's file reads to readable_system_trees() plus `readable_files`
// and the trees in `readable_trees` (a profiler's scratch space). Needs no_new_privs set.
// Returns "" when confined, else why not (a kernel without Landlock, a path that cannot be
// opened): the runner then reads as before and says so to the judge.
std::string confine_file_reads(const std::vector<std::string>& readable_files,
                               const std::vector<std::string>& readable_trees = {});

}  // namespace arena::runner
