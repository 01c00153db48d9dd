// The judge's handle on one runner process: start it, share the buffer region with it, ask for
// calls with a deadline, and turn every way it can die into an outcome instead of an exception.
#pragma once

#include <sys/types.h>

#include <ctime>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "judge/runner_protocol.hpp"

namespace arena {

struct RunnerSpec {
  std::filesystem::path binary;   // the backend's runner executable
  // The compiled solution, which the runner loads (protocol::Op::kLoad) as soon as it is up.
  // Empty: the runner waits unloaded until RunnerClient::load() (started ahead of need,
  // judge/runner_pool.hpp); the device helper, which loads nothing, is started so too.
  std::filesystem::path library;
  size_t flush_bytes = 0;         // size of the cache-eviction buffer
  int64_t address_space_bytes = 0;  // RLIMIT_AS for the runner, set before it loads; 0 = none
  std::vector<std::string> extra_args;  // appended to the runner's command line
  // An argv prefix: a tool (compute-sanitizer) that starts the runner as its child, which
  // inherits the descriptors the runner is given on its command line. wrapper[0] is a path.
  // A wrapped runner gets no seccomp profile (--no-sandbox): the tool's code runs inside it.
  std::vector<std::string> wrapper;
  // ... but keeps its file reads confined (--reads-confined-only) where the tool allows it.
  bool reads_confined_under_wrapper = false;
  double start_timeout_s = 0;  // until the runner is ready; 0 = the client's default
  // Read the CPU time of the runner's threads around every call (CallOutcome::caller_cpu_ns,
  // gone_cpu_ns), for the timer check: about 50 us a call, spent only where the check runs.
  bool thread_cpu_times = false;
  // The CPUs the runner may run on (its affinity, set before exec); empty: wherever the
  // scheduler puts it. The CUDA backend's ARENA_RUNNER_CPUS (docs/cli.md).
  std::vector<int> cpus;
  // NAME=VALUE entries set in the runner's environment over the judge's own: what a backend asks
  // of the processes that run only trusted code (Backend::trusted_runner, its device helper).
  std::vector<std::string> environment;
};

struct CallOutcome {
  // kSandboxViolation: the solution made a system call the runner's seccomp profile denies.
  enum class Kind { kOk, kCrash, kTimeout, kOom, kLaunchError, kSandboxViolation };
  Kind kind = Kind::kOk;
  uint64_t runner_ns = 0;  // what the runner says the call took
  double host_seconds = 0;  // what the judge saw around the request and reply
  std::string message;     // for failures: signal, exit code, the runner's last output
  // CPU time the runner's process used during the request, all threads, as the kernel counts
  // it (the solution cannot fake it); negative when unknown.
  double runner_cpu_ns = -1;
  // kCall: of runner_cpu_ns, the thread that called the entry point (the runner's main thread),
  // and the threads that no longer exist after the call (started and joined within it). Negative
  // when unknown.
  double caller_cpu_ns = -1;
  double gone_cpu_ns = -1;
  uint64_t all_work_ns = 0;  // ... and until all work on the device was done
  // kCall on CUDA: whether the runner watched the call's launches, copies and memsets
  // (backends/cuda/stream_watch.hpp), how many it enqueued where they were not ordered after the
  // window's start, and the first one's function name.
  bool work_watched = false;
  uint64_t off_stream_work = 0;
  std::string off_stream_first = {};
  // kCall: "" or what of the runner's own timing path the runner found changed inside the
  // solution's process (backends/relocation_seal.hpp: a rewritten relocation slot, a patched
  // function; CUDA: the runtime's and the driver's event times disagreeing).
  std::string timer_tampered = {};
  // kCall: the ids of the runner's threads right after the reply, from /proc (sorted).
  std::vector<int> threads_after = {};
};

// Whether a runner's seccomp profile is on; the judge decides (ARENA_NO_SANDBOX=1, a wrapper)
// and the runner confirms in its ready reply.
struct SandboxState {
  bool on = false;
  std::string why_off;  // when off: the judge's reason, or the runner's (it could not install it)
  bool reads_confined = false;  // Landlock (runner_landlock.hpp), with the filter on
  std::string reads_why_open;   // with the filter on and reads not confined: the runner's reason
};

class RunnerClient {
 public:
  // Starts the runner without waiting for it: runners of several lanes come up side by side
  // (a CUDA context takes a while). Throws InternalError when no process can be started.
  explicit RunnerClient(const RunnerSpec& spec, double start_timeout_s = 30);
  ~RunnerClient();
  RunnerClient(const RunnerClient&) = delete;
  RunnerClient& operator=(const RunnerClient&) = delete;

  // Has a runner started without a library load `library` (protocol::Op::kLoad), with the
  // address-space limit `address_space_bytes` (0 = none) set first. Does not wait: wait_ready()
  // does. A runner loads one library in its life; a second load() throws InternalError.
  void load(const std::filesystem::path& library, int64_t address_space_bytes);
  // Waits until the runner has loaded the library; false, with `start_error()` saying why, when
  // it could not (a library that fails to load is reported, not thrown). Later calls return at once.
  bool wait_ready();
  bool alive() const { return pid_ > 0; }
  // Whether the process has ended (reaped here if so), without waiting: for runners that wait
  // unused (judge/runner_pool.hpp). Not for a runner in a request: died() explains those.
  bool exited();
  const std::string& start_error() const { return start_error_; }
  // How the start failed (kCrash, kTimeout, kSandboxViolation: a static constructor of the
  // solution made a denied call); kOk when it did not.
  CallOutcome::Kind start_failure_kind() const { return start_failure_kind_; }
  // Known once wait_ready() returned true.
  const SandboxState& sandbox() const { return sandbox_; }
  // From spawning until ready (a runner started ahead of need counts its idle wait too).
  double start_seconds() const { return start_seconds_; }
  // How long wait_ready() blocked the judge: the part of the start that was on its path.
  double waited_seconds() const { return waited_seconds_; }

  // Resizes the shared region to `bytes`; returns the judge's mapping of it. With `device_fd`
  // (a device buffer of `device_bytes` from the judge's device helper, judge/device_plane.hpp),
  // the runner maps that buffer as its device copy of the region instead of allocating one.
  std::byte* map_region(size_t bytes, int device_fd = -1, uint64_t device_bytes = 0);
  std::byte* region() const { return region_; }

  // `flags` are protocol::kCall* bits; `graph_launches` > 0 replays that many calls as one
  // CUDA graph (the outcome's times then cover all of them).
  CallOutcome call(const std::vector<uint64_t>& offsets, const std::vector<protocol::ScalarValue>& scalars,
                   double timeout_s, uint32_t flags = 0, uint32_t graph_launches = 0);
  // Moves the region to the device's copy (kUpload) or back (kDownload); no-ops on the CPU.
  // `ranges` ({offset, bytes}) limit it to those parts; empty = the whole region.
  CallOutcome transfer(protocol::Op op, double timeout_s, const std::vector<std::pair<uint64_t, uint64_t>>& ranges = {});
  // Any request, answered within `timeout_s`: the reply into *reply, a descriptor that came
  // with it into *fd (-1 when none). Every request goes this way (the device helper's too).
  CallOutcome request(const protocol::Request& q, double timeout_s, protocol::Reply* reply = nullptr,
                      int* fd = nullptr);
  // Asks the runner to evict the caches. Returns false when the runner died doing it.
  bool flush_caches(double timeout_s);
  // Threads in the runner's process now (0 when unknown), from /proc/<pid>/status: cheap.
  int thread_count() const;
  // The ids of the runner's threads now, from /proc/<pid>/task, sorted (empty when unknown).
  std::vector<int> thread_ids() const;
  // Whether thread `tid` of the runner is running: it exists and is not exiting (PF_EXITING in
  // /proc/<pid>/task/<tid>/stat). A thread that was joined may still be listed by thread_ids()
  // for a few microseconds after its joiner woke; it is exiting by then.
  bool thread_running(int tid) const;
  // Asks the runner to quit and waits up to `timeout_s` for its process to exit (a wrapper
  // writes its report then), killing it after. The process's exit code: this one's, or that of
  // a runner that already died during a request; nullopt after a signal, a kill or a timeout.
  std::optional<int> quit(double timeout_s);
  // Kills the runner without waiting for its process to end; the destructor reaps it. Runners
  // stopped this way end side by side: each CUDA context is torn down beside the others', not
  // after them.
  void stop_soon();
  // stop_soon(), and the process is the caller's to reap from here (judge/teardown.hpp): its pid,
  // or -1 where none was running. The destructor waits for nothing after this.
  pid_t hand_over();

 private:
  CallOutcome died(double host_seconds);
  // Sends `q`, with `fd` attached (SCM_RIGHTS) when >= 0.
  bool send_request(const protocol::Request& q, int fd = -1);
  std::string output_tail() const;
  void kill_now();
  double cpu_time_ns() const;
  // The CPU time thread `tid` of the runner has used (/proc/<pid>/task/<tid>/schedstat); -1 when
  // it is gone.
  double thread_cpu_ns(int tid) const;
  // Waits (up to 5 ms) until the runner's main thread is not running; false if it still is.
  bool wait_caller_asleep() const;
  // A thread's state letter and flags (/proc/<pid>/task/<tid>/stat); nullopt when it is gone.
  struct ThreadStat {
    char state;
    unsigned long long flags;
  };
  std::optional<ThreadStat> thread_stat(int tid) const;

  pid_t pid_ = -1;
  bool thread_cpu_times_ = false;
  clockid_t cpu_clock_ = 0;
  bool has_cpu_clock_ = false;
  int socket_ = -1;
  int region_fd_ = -1;
  int log_fd_ = -1;
  std::byte* region_ = nullptr;
  size_t region_bytes_ = 0;
  std::string start_error_;
  double start_seconds_ = 0;  // from spawning until ready
  double spawned_at_ = 0;
  double ready_clock_from_ = 0;  // the start limit counts from here: spawn, or the load request
  double waited_seconds_ = 0;
  bool load_sent_ = false;
  double start_timeout_s_ = 30;
  bool ready_checked_ = false;
  CallOutcome::Kind start_failure_kind_ = CallOutcome::Kind::kOk;
  SandboxState sandbox_;
  bool sandbox_asked_ = true;  // the judge did not pass --no-sandbox
  std::optional<int> exit_code_;  // of a runner that exited (died, or quit)
};

}  // namespace arena
