// A lane: one compiled solution in its own runner, with its buffers laid out for one shape.
// The judge drives three: the reference (trusted), the candidate and the baseline (each
// untrusted, each alone in its process). A lane whose runner died starts a fresh one.
//
// A timed lane may hold its solution in several runners (use_runners: judge/timed_runners.hpp):
// each its own process with its own shared region and device buffer, all loaded with the same
// library and laid out for the same shape. Calls go to the current runner (use_runner); the
// checked calls use the first. What a lane writes for every call (inputs, guards) goes to all.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/backend.hpp"
#include "judge/buffer_layout.hpp"
#include "judge/device_plane.hpp"
#include "judge/guard_bytes.hpp"
#include "judge/input_generator.hpp"
#include "judge/poison.hpp"
#include "judge/runner_client.hpp"
#include "judge/runner_pool.hpp"

namespace arena {

// The bytes of the shared region that holds every tensor of `shape`, guards included.
int64_t region_bytes(const Task& task, const Shape& shape);

// The spec of a lane's runner for `library` (the one a RunnerPool is filled with): the
// backend's plain one, or its trusted one (Backend::trusted_runner) for the reference's lane.
RunnerSpec lane_runner_spec(const Backend& backend, const std::filesystem::path& library,
                            int64_t max_region_bytes, bool trusted = false);

class Lane {
 public:
  Lane(const Backend& backend, const Task& task, std::filesystem::path library,
       int64_t max_region_bytes);
  // Closes the descriptor of its device plane buffer; the buffer itself goes with the plane.
  ~Lane();
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  // Starts runners from `spec` instead of the backend's plain one (the sanitizer wraps it).
  void use_runner_spec(RunnerSpec spec) { spec_ = std::move(spec); }
  // Takes its plain runners from `pool` (started ahead of need) instead of starting them.
  void use_runner_pool(RunnerPool* pool) { pool_ = pool; }
  // Its library is the task's own code and is never timed: its runners are the backend's
  // trusted ones (lane_runner_spec).
  void use_trusted_runners() { trusted_ = true; }
  // The runner's device buffers come from `plane` (the judge's, judge/device_plane.hpp) from
  // the next prepare() on, where the plane is available; the lane's own otherwise.
  void use_device_plane(DevicePlane* plane) { plane_ = plane; }
  // A timed lane's device buffer holds its region `n` times (judge/placements.hpp: fewer where
  // the region is large), from the next prepare() on; 1 (the default) for one.
  // With several runners, each runner's buffer holds ceil(n / runners) of them.
  void use_placements(int n) { wanted_placements_ = n; }
  // How many runners the lane holds its solution in, from the next start() on (1: the default).
  void use_runners(int n) { asked_runners_ = wanted_runners_ = n < 1 ? 1 : n; }
  // Why this lane holds fewer runners than use_runners() asked ("" when it holds them all): a
  // runner after the first that could not start (prepare) or whose warm-up call ran out of
  // memory (the timing loop) is dropped for the rest of the eval.
  const std::string& fewer_runners_because() const { return fewer_runners_because_; }
  // Drops runner `i` (of several; its process ends, its device buffer goes) for the rest of the
  // eval; "runner <number> of <asked> <why>" joins fewer_runners_because(). The current runner
  // is the first afterwards. Throws InternalError for the only runner or an index out of range.
  void drop_runner(int i, const std::string& why);
  int runners() const { return static_cast<int>(runners_.size()); }
  // The runner that the next calls go to (0 <= i < runners()); prepare() makes it the first.
  void use_runner(int i);
  int runner_index() const { return static_cast<int>(current_); }
  // Starts runners until as many as wanted are alive, without waiting for them to be ready.
  void start();
  // Asks the runner to quit and waits up to `timeout_s` for it: its exit code (RunnerClient::quit).
  // The first runner's (the lane has one where this is used: sanitizer, profile).
  std::optional<int> quit(double timeout_s);
  // Kills the runners and hands their processes over (RunnerClient::hand_over): their pids.
  std::vector<pid_t> hand_over();
  // Lays the buffers out for `shape` in every runner, starting those not alive. Returns an
  // error message when a runner cannot load the solution, else "".
  std::string prepare(const Shape& shape);

  void write_inputs(const std::vector<HostBuffer>& inputs);
  void poison_outputs(uint64_t nonce);
  void arm_guards(uint64_t key);
  // The same poison as poison_outputs(nonce), written by the device plane straight into the
  // device buffers (only where device_buffer() is set).
  void poison_outputs_on_device(uint64_t nonce);

  // What a call moves between the shared region and the device: everything; the outputs and
  // guard zones (and the inputs only when write_inputs() gave new ones); or nothing (the device
  // plane lays out and checks the buffers itself).
  enum class Transfer { kWhole, kOutputs, kNone };

  // One call of the solution: the region goes to the device, the caches are evicted when
  // `cold`, the entry point runs, and the region comes back (the last two steps are no-ops on
  // the CPU). The outcome is the call's; a failure on the way is reported as such.
  // `flags` and `graph_launches` go to the runner as RunnerClient::call says. With
  // Transfer::kOutputs (timed calls) inputs left on the device stay as they were (a solution
  // that changes them is found by the next download_all()).
  CallOutcome call(double timeout_s, bool cold = false, uint32_t flags = 0,
                   uint32_t graph_launches = 0, Transfer transfer = Transfer::kWhole);
  // Every runner's whole region back from the device (after outputs-only calls); false if one
  // died. Not a runner whose region got inputs after its last call (write_inputs writes every
  // runner's): its device copy is older than them, and what it holds stays as written.
  bool download_all(double timeout_s);
  // The current runner's.
  int runner_threads() const { return runner().thread_count(); }
  // The current runner's thread ids, and whether one is running (not exiting): RunnerClient's.
  std::vector<int> runner_thread_ids() const { return runner().thread_ids(); }
  bool runner_thread_running(int tid) const { return runner().thread_running(tid); }
  // After a prepare() that failed: how the failing runner's start failed
  // (RunnerClient::start_failure_kind).
  CallOutcome::Kind start_failure_kind() const {
    return runners_.at(failed_).client->start_failure_kind();
  }
  // Whether the current runner runs under its seccomp profile (known once prepare() succeeded).
  const SandboxState& sandbox() const { return runner().sandbox(); }

  // The current runner's guards.
  std::optional<GuardViolation> check_guards() const;
  // The key of the last arm_guards().
  uint64_t guard_key() const { return guard_key_; }
  // The index of the first input whose bytes differ from `pristine` in any runner's region, if any.
  std::optional<size_t> changed_input(const std::vector<HostBuffer>& pristine) const;

  // Tensor `i` in task order, in the current runner's region.
  const void* tensor(size_t i) const;
  HostBuffer copy_tensor(size_t i) const;
  const Poison& poison(size_t i) const { return poisons_[i]; }
  const std::vector<std::vector<int64_t>>& dims() const { return dims_; }

  // How long prepare() waited for runners to be ready (their start that was not ahead of need).
  double runner_start_seconds() const { return runner_start_seconds_; }

  const BufferLayout& layout() const { return layout_; }
  // The device plane's buffer the current runner works on (its current placement: a view of the
  // layout's size); nullptr when it has its own.
  const DevicePlane::Buffer* device_buffer() const {
    return on_plane() ? &placement_view_ : nullptr;
  }
  // Its placements per runner (1 where it has none of the plane's): placement j of runner r's
  // device buffer; the current runner's next calls (and device_buffer()) on its placement
  // (current + 1) mod placements(). Each runner keeps its own place in the rotation.
  int placements() const { return placements_; }
  DevicePlane::Buffer placement(int runner, int j) const;
  void next_placement();
  DevicePlane* device_plane() const { return on_plane() ? plane_ : nullptr; }
  // Why the lane's device buffers are its own although a plane was given ("" otherwise).
  const std::string& device_plane_off() const { return device_plane_off_; }

 private:
  const Backend& backend_;
  const Task& task_;
  std::filesystem::path library_;
  int64_t max_region_bytes_;
  std::optional<RunnerSpec> spec_;
  bool trusted_ = false;
  RunnerPool* pool_ = nullptr;
  // One process holding the solution, with what the lane keeps per process.
  struct Runner {
    std::unique_ptr<RunnerClient> client;
    DevicePlane::Buffer device_buffer;  // the allocation, all placements (id 0: its own buffers)
    int placement = 0;
    bool inputs_on_device = false;  // uploaded since the last write_inputs() or prepare()
    bool counted_start = false;
    int number = 0;  // 1, 2, ... in the order they were first started (the verdict's names)
  };
  std::vector<Runner> runners_;
  size_t current_ = 0;
  size_t failed_ = 0;  // the runner whose start the last failed prepare() reports
  int wanted_runners_ = 1;
  int asked_runners_ = 1;  // use_runners()'s, before any was dropped
  std::string fewer_runners_because_;
  RunnerClient& runner() const { return *runners_.at(current_).client; }
  bool on_plane() const { return !runners_.empty() && runners_[current_].device_buffer.id != 0; }
  // Gives every runner a device buffer of the plane with `placements` placements; false (all
  // released, *why set) when one does not fit.
  bool allocate_device_buffers(int placements, std::string* why);
  BufferLayout layout_;
  std::vector<std::vector<int64_t>> dims_;
  std::vector<Poison> poisons_;
  std::vector<protocol::ScalarValue> scalars_;
  std::vector<uint64_t> offsets_;
  std::vector<std::pair<uint64_t, uint64_t>> output_ranges_;  // outputs and every guard zone
  uint64_t guard_key_ = 0;
  double runner_start_seconds_ = 0;
  // Draws each output's poison for `nonce` into poisons_ and has `fill(poison, slot, element
  // bytes)` write it.
  template <typename Fill>
  void for_each_poisoned_output(uint64_t nonce, Fill fill);

  // Sets the current runner's placement to `j`: its view and the calls' offsets.
  void use_placement(int j);

  DevicePlane* plane_ = nullptr;
  DevicePlane::Buffer placement_view_;
  int wanted_placements_ = 1;
  int placements_ = 1;
  std::vector<uint64_t> call_offsets_;  // offsets_ moved to the current runner's placement
  std::string device_plane_off_;
};

}  // namespace arena
