// The checked calls of one shape: the reference and the candidate (and, on held-out shapes, the
// baseline) called on each seed's inputs, the candidate's outputs, guard zones and inputs checked
// after every call. judge.cpp says what is called when and what a failure means; this says where
// the tensors live meanwhile:
//   - on the host (every backend): inputs written into each lane's shared region, outputs read
//     back from it and checked there (judge/checker);
//   - on the judge's device plane (judge/device_plane.hpp), where the backend has one and every
//     lane's buffers are the plane's: inputs laid out, outputs poisoned, the candidate's buffer
//     copied aside right after its call and checked there (the same tolerance rule,
//     judge/tolerance_rule.hpp); only what explains a failure, or what the host asks for,
//     crosses to the host.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/checker.hpp"
#include "judge/guard_bytes.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"
#include "judge/timed_data_on_device.hpp"

namespace arena {

class CheckedCalls {
 public:
  virtual ~CheckedCalls() = default;

  // The next seed's inputs (each tensor's distribution, values times `magnitude`).
  virtual void draw_inputs(uint64_t seed, double magnitude) = 0;
  // The reference on the current inputs, its outputs poisoned with `nonce` first; its outputs
  // are then the expected ones.
  virtual CallOutcome call_reference(uint64_t nonce, double timeout_s) = 0;
  // The candidate's call `run` (0 or 1) on the current inputs: fresh poison (`nonce`) and guard
  // bytes (`guard_key`) before it.
  virtual CallOutcome call_candidate(int run, uint64_t nonce, uint64_t guard_key,
                                     double timeout_s) = 0;
  // After the candidate's call `run`: its guard zones, its inputs, its output `i` against the
  // expected one.
  virtual std::optional<GuardViolation> guard_violation(int run) = 0;
  virtual std::optional<size_t> changed_input(int run) = 0;
  virtual OutputCheck check_output(int run, size_t i) = 0;
  // Output `i` of the candidate's call 1 against its call 0 (checker's compare_runs).
  virtual Difference compare_runs(size_t i) = 0;
  // The baseline on the current inputs (poison `nonce`): whether its outputs are the expected
  // ones within tolerance (false when the call failed).
  virtual bool baseline_correct(uint64_t nonce, double timeout_s) = 0;

  // On the host, fetched where they live on the device: the current inputs (in input order, as
  // generate_inputs gives them), the expected output `i` and the candidate's call-0 output `i`
  // (tensor indices).
  virtual const std::vector<HostBuffer>& host_inputs() = 0;
  virtual const HostBuffer& host_expected(size_t i) = 0;
  virtual const HostBuffer& host_verified(size_t i) = 0;
  // The timing loop's tensors on the device from the current inputs and verified outputs
  // (judge/timed_data_on_device.hpp); nullptr, with *why, where they cannot be. After it
  // succeeded, host_inputs() and host_verified() may no longer be asked (host_expected() may).
  virtual std::unique_ptr<TimedDataOnDevice> timed_data_on_device(Lane& candidate, Lane* baseline,
                                                                  std::string* why) = 0;

  // Whether the tensors live and are checked on the device plane.
  virtual bool on_device() const = 0;
};

// The checked calls of `shape` for lanes prepared at it (`baseline` may be null): on the device
// plane where every lane's buffers are the plane's and it has room, else on the host, with
// *why_host saying why.
std::unique_ptr<CheckedCalls> make_checked_calls(const Task& task, const Shape& shape,
                                                 Lane& reference, Lane& candidate, Lane* baseline,
                                                 std::string* why_host);

}  // namespace arena
