// The runner's file access, confined with Landlock: after it, the process (every thread, and
// anything it could start) may open for reading only the system trees a solution needs (its
// libraries, the toolchain's, /dev, /sys, its own /proc entry) and the files it is given (its
// own library), and may open for writing only device files (the GPU driver opens /dev/nvidia*
// read-write) and its own /proc entry (thread names). Everything else answers EACCES: reading
// the task directory with its references and held-out rules, runs, other workspaces, home
// directories and /tmp; writing any existing file, the compile cache's libraries (the
// baseline's among them) included. The seccomp profile (runner_sandbox.hpp) already denies
// creating, renaming or removing files, and on the CPU any open for writing.
#pragma once

#include <string>
#include <vector>

namespace arena::runner {

// The trees that stay readable: the system's, where they exist.
const std::vector<std::string>& readable_system_trees();

// Restricts the calling process's file access as above; `readable_files` are readable too, and
// the trees in `scratch_trees` (a profiler's scratch space) readable and writable. Returns ""
// when confined, else why not (a kernel without Landlock, a path that cannot be opened): the
// runner then opens files as before and says so to the judge.
std::string confine_files(const std::vector<std::string>& readable_files,
                          const std::vector<std::string>& scratch_trees = {});

}  // namespace arena::runner
