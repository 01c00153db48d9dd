#include "judge/timed_data_on_device.hpp"

#include "core/error.hpp"
#include "judge/device_guards.hpp"

namespace arena {

TimedDataOnDevice::TimedDataOnDevice(const Task& task, const Shape& shape, DevicePlane& plane, Lane& candidate,
                                     Lane* baseline)
    : task_(task), shape_(shape), plane_(plane), candidate_(candidate), baseline_(baseline),
      layout_(candidate.layout()) {}

TimedDataOnDevice::~TimedDataOnDevice() {
  try {
    plane_.release(baseline_snapshot_);
    plane_.release(candidate_snapshot_);
    plane_.release(expected_);
    plane_.release(pristine_);
  } catch (const InternalError&) {
    // The helper is gone: its buffers went with it.
  }
}

std::unique_ptr<TimedDataOnDevice> TimedDataOnDevice::make(const Task& task, const Shape& shape, Lane& candidate,
                                                           Lane* baseline, const std::vector<HostBuffer>& inputs,
                                                           const std::vector<HostBuffer>& verified,
                                                           std::string* why) {
  return make(task, shape, candidate, baseline, why, [&](DevicePlane& plane, const DevicePlane::Buffer& pristine) {
    const BufferLayout& l = candidate.layout();
    size_t k = 0;
    for (size_t i = 0; i < task.tensors.size(); ++i) {
      const auto& s = l.slots[i];
      const HostBuffer& data = task.tensors[i].role == Role::kInput ? inputs.at(k++) : verified.at(i);
      if (data.size() != s.bytes)
        throw InternalError("timed data on the device: tensor '" + task.tensors[i].name + "' has the wrong size");
      plane.upload(pristine, s.offset, data.data(), s.bytes);
    }
  });
}

std::unique_ptr<TimedDataOnDevice> TimedDataOnDevice::make(const Task& task, const Shape& shape, Lane& candidate,
                                                           Lane* baseline, const DevicePlane::Buffer& inputs,
                                                           const DevicePlane::Buffer& verified, std::string* why) {
  return make(task, shape, candidate, baseline, why, [&](DevicePlane& plane, const DevicePlane::Buffer& pristine) {
    const BufferLayout& l = candidate.layout();
    for (size_t i = 0; i < task.tensors.size(); ++i) {
      const auto& s = l.slots[i];
      plane.copy(pristine, s.offset, task.tensors[i].role == Role::kInput ? inputs : verified, s.offset, s.bytes);
    }
  });
}

std::unique_ptr<TimedDataOnDevice> TimedDataOnDevice::make(
    const Task& task, const Shape& shape, Lane& candidate, Lane* baseline, std::string* why,
    const std::function<void(DevicePlane&, const DevicePlane::Buffer&)>& fill_tensors) {
  DevicePlane* plane = candidate.device_plane();
  if (plane == nullptr) {
    *why = candidate.device_plane_off().empty() ? "the backend has no device plane"
                                                 : candidate.device_plane_off();
    return nullptr;
  }
  if (baseline != nullptr && baseline->device_plane() != plane) {
    *why = "the baseline's buffers are not on the device plane: " + baseline->device_plane_off();
    return nullptr;
  }
  // Whether every tensor's reordering is a list of moves: the same for any draw at this shape.
  const Reordering probe = draw_reordering(task, shape, 0);
  for (size_t i = 0; i < task.tensors.size() && !probe.empty(); ++i) {
    if (!reorder_moves(task, shape, probe, i)) {
      *why = "tensor '" + task.tensors[i].name + "' is reordered in a way the device does not replay";
      return nullptr;
    }
  }
  std::unique_ptr<TimedDataOnDevice> d(new TimedDataOnDevice(task, shape, *plane, candidate, baseline));
  const BufferLayout& l = d->layout_;
  // Four more buffers of the region's size; where the device has no room, the host path.
  for (DevicePlane::Buffer* b : {&d->pristine_, &d->expected_, &d->candidate_snapshot_, &d->baseline_snapshot_}) {
    if (b == &d->baseline_snapshot_ && baseline == nullptr) continue;
    *b = plane->allocate(l.total_bytes, false, why);
    if (b->id == 0) return nullptr;  // the destructor releases the others
  }
  fill_tensors(*plane, d->pristine_);
  // The candidate's guard bytes, made anew from its key here (the shared region is the
  // runner's to write too), into the pristine image and every placement of every one of the
  // candidate's device buffers (one per runner) alike.
  const std::vector<ByteMove> zones = upload_guards(*plane, d->pristine_, l, candidate.guard_key());
  for (int r = 0; r < candidate.runners(); ++r)
    for (int j = 0; j < candidate.placements(); ++j) plane->move(candidate.placement(r, j), d->pristine_, zones);
  plane->copy(d->expected_, 0, d->pristine_, 0, l.total_bytes);
  return d;
}

void TimedDataOnDevice::prepare_pair(const Reordering& order) {
  if (!order.empty() || reordered_) {
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      const auto& s = layout_.slots[i];
      std::vector<ByteMove> moves;
      if (order.empty()) {
        moves = {{0, 0, s.bytes}};
      } else {
        auto m = reorder_moves(task_, shape_, order, i);
        if (!m) throw InternalError("timed data on the device: no moves for tensor '" + task_.tensors[i].name + "'");
        moves = std::move(*m);
      }
      for (auto& m : moves) {
        m.source += s.offset;
        m.dest += s.offset;
      }
      plane_.move(expected_, pristine_, moves);
    }
    reordered_ = !order.empty();
  }
  for (Lane* lane : {&candidate_, baseline_}) {
    if (lane == nullptr) continue;
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      if (task_.tensors[i].role != Role::kInput) continue;
      const auto& s = layout_.slots[i];
      plane_.copy(*lane->device_buffer(), s.offset, expected_, s.offset, s.bytes);
    }
  }
}

void TimedDataOnDevice::snapshot(const Lane& lane) {
  plane_.copy(snapshot_of(lane), 0, *lane.device_buffer(), 0, layout_.total_bytes);
}

TimedDataOnDevice::Check TimedDataOnDevice::check(const Lane& lane, bool whole) {
  enum class What { kInput, kOutput, kGuard };
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  std::vector<std::pair<What, size_t>> what;
  const uint64_t g = BufferLayout::kGuardBytes;
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    const auto& s = layout_.slots[i];
    const bool output = task_.tensors[i].role == Role::kOutput;
    if (!output && !whole) continue;
    ranges.emplace_back(s.offset, s.bytes);
    what.emplace_back(output ? What::kOutput : What::kInput, i);
    if (!whole) continue;
    ranges.emplace_back(s.offset - g, g);
    what.emplace_back(What::kGuard, i);
    ranges.emplace_back(s.offset + s.bytes, g);
    what.emplace_back(What::kGuard, i);
  }
  const auto diff = plane_.compare(snapshot_of(lane), expected_, ranges);
  Check c;
  for (size_t k = 0; k < diff.size(); ++k) {
    if (diff[k].bytes == 0) continue;
    switch (what[k].first) {
      case What::kInput:
        if (!c.changed_input) c.changed_input = what[k].second;
        break;
      case What::kGuard:
        c.guards_changed = true;
        break;
      case What::kOutput:
        c.outputs_differing.push_back(what[k].second);
        break;
    }
  }
  return c;
}

HostBuffer TimedDataOnDevice::download_output(const Lane& lane, size_t index) {
  const auto& s = layout_.slots.at(index);
  HostBuffer out(s.bytes);
  plane_.download(snapshot_of(lane), s.offset, out.data(), s.bytes);
  return out;
}

}  // namespace arena
