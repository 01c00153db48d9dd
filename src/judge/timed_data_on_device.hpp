// The timing loop's data on the device: what a timed call is given and what it must leave,
// laid out and checked by the judge's device plane (judge/device_plane.hpp) instead of
// crossing to the host around every call.
//
// Two buffers of the plane, in the lanes' own layout: the pristine image (the inputs as drawn,
// the outputs already verified for them, the candidate's guard bytes) and the expected image of
// the current pair (the same reordered: judge/reordering's moves, replayed on the device). Before
// each pair the lanes' inputs are copied from the expected image; right after each call the
// lane's whole buffer is copied aside on the device (a snapshot, as a download right after the
// call would be), and after the pair the candidate's snapshot (inputs, outputs, guard zones) is
// compared with the expected image on the device. Only an output that
// differs bit for bit comes to the host, where it is checked against the reference within the
// tolerance, as on the host path.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "judge/device_plane.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"
#include "judge/reordering.hpp"

namespace arena {

class TimedDataOnDevice {
 public:
  // For `candidate` (and `baseline`, when given) at `shape`, whose lanes are prepared on the
  // same plane, with the candidate's guards armed (Lane::arm_guards: its key) and the inputs and the
  // verified outputs (by tensor index; empty for inputs) given. nullptr, with *why, where this
  // shape cannot be timed on the device (a lane on its own buffers, a running-sum output or a
  // CSR input reordered, a reordering of more than a million pieces).
  static std::unique_ptr<TimedDataOnDevice> make(const Task& task, const Shape& shape, Lane& candidate,
                                                 Lane* baseline, const std::vector<HostBuffer>& inputs,
                                                 const std::vector<HostBuffer>& verified, std::string* why);
  // The same from images already on the plane, in the lanes' layout: the inputs from
  // `inputs`, the verified outputs from `verified`.
  static std::unique_ptr<TimedDataOnDevice> make(const Task& task, const Shape& shape, Lane& candidate,
                                                 Lane* baseline, const DevicePlane::Buffer& inputs,
                                                 const DevicePlane::Buffer& verified, std::string* why);
  ~TimedDataOnDevice();
  TimedDataOnDevice(const TimedDataOnDevice&) = delete;
  TimedDataOnDevice& operator=(const TimedDataOnDevice&) = delete;

  // Lays out the next pair: the expected image reordered by `order` (empty: as drawn), and its
  // inputs copied into each lane's buffer.
  void prepare_pair(const Reordering& order);

  // Right after each call of `lane`: its whole buffer copied aside on the device, so that the
  // check after the pair sees what the call left (as a download right after it would), not what
  // work deferred past the call made of it meanwhile.
  void snapshot(const Lane& lane);

  struct Check {
    std::optional<size_t> changed_input;  // the first input whose bytes changed (tensor index)
    bool guards_changed = false;          // a guard zone's bytes changed
    std::vector<size_t> outputs_differing;  // outputs not bit for bit the expected ones
  };
  // `lane`'s last snapshot against the expected image: its outputs; with `whole`, its inputs
  // and guard zones too (the baseline's guards are not armed).
  Check check(const Lane& lane, bool whole);
  // Output `index` of `lane`'s last snapshot (in the pair's order).
  HostBuffer download_output(const Lane& lane, size_t index);

 private:
  TimedDataOnDevice(const Task& task, const Shape& shape, DevicePlane& plane, Lane& candidate, Lane* baseline);
  // Both makes: the checks and buffers, then `fill_tensors` writes the inputs and verified
  // outputs into the pristine image.
  static std::unique_ptr<TimedDataOnDevice> make(
      const Task& task, const Shape& shape, Lane& candidate, Lane* baseline, std::string* why,
      const std::function<void(DevicePlane&, const DevicePlane::Buffer&)>& fill_tensors);

  const Task& task_;
  const Shape& shape_;
  DevicePlane& plane_;
  Lane& candidate_;
  Lane* baseline_;
  BufferLayout layout_;
  DevicePlane::Buffer pristine_;
  DevicePlane::Buffer expected_;
  DevicePlane::Buffer candidate_snapshot_;
  DevicePlane::Buffer baseline_snapshot_;
  const DevicePlane::Buffer& snapshot_of(const Lane& lane) const {
    return &lane == &candidate_ ? candidate_snapshot_ : baseline_snapshot_;
  }
  bool reordered_ = false;  // the expected image differs from the pristine one
};

}  // namespace arena
