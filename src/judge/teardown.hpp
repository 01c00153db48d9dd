// The end of an eval's runners, off the eval's path.
//
// A killed CUDA runner takes a while to go: the driver tears its context down (~0.1 s each, and
// more side by side: 0.29 s for the four processes of a warm eval on an H200, 0.44 s for six).
// That is device work, which another judge's timing loop must not run beside
// (judge/device_lock.hpp), but nothing the verdict waits for. So the judge kills its runners and
// hands them over: a watcher process keeps the device's shared lock until every one of them has
// ended, and a thread of this process reaps them. The eval returns at once; an `arena eval`
// exits while the contexts go, and a judge that wants to time next still waits for them.
#pragma once

#include <sys/types.h>

#include <vector>

#include "judge/device_lock.hpp"

namespace arena {

// Hands over `killed` (children of this process, already sent SIGKILL) together with `lock`
// (the device's shared lock, held by the caller, who lets go of it after this returns; null
// where none could be had: then there is nothing to hold and no watcher). Returns at once where
// the watcher could be started; else (no pidfd_open, no fork) it reaps them here, as before,
// with the caller's lock still held. Either way every pid is reaped by this process while it
// lives (a process that exits sooner leaves them to init) and the lock is held until all have
// ended.
void hand_over_teardown(std::vector<pid_t> killed, const DeviceLock* lock);

}  // namespace arena
