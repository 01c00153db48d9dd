#include "judge/checked_calls_on_device.hpp"

#include <array>
#include <cstdlib>

#include "core/error.hpp"
#include "judge/device_guards.hpp"

namespace arena {
namespace {

class CheckedCallsOnDevice final : public CheckedCalls {
 public:
  CheckedCallsOnDevice(const Task& task, const Shape& shape, DevicePlane& plane, Lane& reference,
                       Lane& candidate, Lane* baseline)
      : task_(task),
        shape_(shape),
        plane_(plane),
        reference_(reference),
        candidate_(candidate),
        baseline_(baseline),
        layout_(candidate.layout()) {}

  ~CheckedCallsOnDevice() override {
    try {
      for (DevicePlane::Buffer* b : {&pristine_, &calls_[0], &calls_[1]}) plane_.release(*b);
    } catch (const InternalError&) {
      // The helper is gone: its buffers went with it.
    }
  }

  // Its three buffers; false, with *why, where the plane has no room.
  bool allocate(std::string* why) {
    for (DevicePlane::Buffer* b : {&pristine_, &calls_[0], &calls_[1]}) {
      *b = plane_.allocate(layout_.total_bytes, false, why);
      if (b->id == 0) return false;
    }
    return true;
  }

  // Elementwise inputs are drawn on the device, where they are used (ARENA_DEVICE_INPUTS=0: on
  // the host); the others (distinct rows, offsets) on the host, then uploaded.
  void draw_inputs(uint64_t seed, double magnitude) override {
    inputs_.clear();
    bool all_on_host = true;
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      const auto& spec = task_.tensors[i];
      if (spec.role != Role::kInput) continue;
      std::optional<ElementDraw> draw;
      if (draw_on_device_) draw = elementwise_draw(task_, shape_, i, seed, magnitude);
      if (draw) {
        plane_.generate(pristine_, slot(i).offset, slot(i).bytes / dtype_size(spec.dtype),
                        spec.dtype, *draw);
        all_on_host = false;
      } else {
        inputs_.push_back(generate_input(task_, shape_, i, seed, magnitude));
        plane_.upload(pristine_, slot(i).offset, inputs_.back().data(), slot(i).bytes);
      }
    }
    if (!all_on_host) inputs_.clear();  // downloaded when asked
    expected_.assign(task_.tensors.size(), {});
    verified_.assign(task_.tensors.size(), {});
  }

  CallOutcome call_reference(uint64_t nonce, double timeout_s) override {
    lay_inputs(reference_);
    reference_.poison_outputs_on_device(nonce);
    return reference_.call(timeout_s, false, 0, 0, Lane::Transfer::kNone);
  }

  CallOutcome call_candidate(int run, uint64_t nonce, uint64_t guard_key,
                             double timeout_s) override {
    lay_inputs(candidate_);
    candidate_.poison_outputs_on_device(nonce);
    guard_key_ = guard_key;
    plane_.move(*candidate_.device_buffer(), pristine_,
                upload_guards(plane_, pristine_, layout_, guard_key));
    CallOutcome o = candidate_.call(timeout_s, false, 0, 0, Lane::Transfer::kNone);
    // What the call left, as a download right after it would see it.
    if (o.kind == CallOutcome::Kind::kOk)
      plane_.copy(calls_.at(run), 0, *candidate_.device_buffer(), 0, layout_.total_bytes);
    return o;
  }

  std::optional<GuardViolation> guard_violation(int run) override {
    return guard_violation_on_device(plane_, calls_.at(run), pristine_, layout_, guard_key_);
  }

  std::optional<size_t> changed_input(int run) override {
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    std::vector<size_t> which;
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      if (task_.tensors[i].role != Role::kInput) continue;
      ranges.emplace_back(slot(i).offset, slot(i).bytes);
      which.push_back(i);
    }
    const auto diff = plane_.compare(calls_.at(run), pristine_, ranges);
    for (size_t k = 0; k < diff.size(); ++k)
      if (diff[k].bytes != 0) return which[k];
    return std::nullopt;
  }

  OutputCheck check_output(int run, size_t i) override {
    const auto& spec = task_.tensors[i];
    const Tolerance tol = task_.tolerance_for(spec, shape_);
    const uint64_t n = slot(i).bytes / dtype_size(spec.dtype);
    if (plane_
            .check(calls_.at(run), slot(i).offset, *reference_.device_buffer(), slot(i).offset, n,
                   spec.dtype, tol.atol, tol.rtol)
            .elements == 0) {
      OutputCheck c;
      c.tensor = spec.name;
      c.elements = static_cast<int64_t>(n);
      return c;
    }
    // Out of tolerance somewhere: the host's full check says where and how.
    const HostBuffer got = download(calls_.at(run), i);
    return arena::check_output(spec, candidate_.dims()[i], got.data(), host_expected(i).data(), tol,
                               candidate_.poison(i));
  }

  Difference compare_runs(size_t i) override {
    if (plane_.compare(calls_[1], calls_[0], {{slot(i).offset, slot(i).bytes}}).at(0).bytes == 0)
      return {};
    const auto& spec = task_.tensors[i];
    const HostBuffer second = download(calls_[1], i);
    return arena::compare_runs(spec, candidate_.dims()[i], host_verified(i).data(), second.data(),
                               task_.tolerance_for(spec, shape_), candidate_.poison(i));
  }

  bool baseline_correct(uint64_t nonce, double timeout_s) override {
    if (baseline_ == nullptr) return false;
    lay_inputs(*baseline_);
    baseline_->poison_outputs_on_device(nonce);
    if (baseline_->call(timeout_s, false, 0, 0, Lane::Transfer::kNone).kind !=
        CallOutcome::Kind::kOk)
      return false;
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      const auto& spec = task_.tensors[i];
      if (spec.role != Role::kOutput) continue;
      const Tolerance tol = task_.tolerance_for(spec, shape_);
      if (plane_
              .check(*baseline_->device_buffer(), slot(i).offset, *reference_.device_buffer(),
                     slot(i).offset, slot(i).bytes / dtype_size(spec.dtype), spec.dtype, tol.atol,
                     tol.rtol)
              .elements != 0)
        return false;
    }
    return true;
  }

  const std::vector<HostBuffer>& host_inputs() override {
    if (inputs_.empty() && handed_over_) throw InternalError("checked calls: the inputs were handed to the timing loop");
    if (inputs_.empty())
      for (size_t i = 0; i < task_.tensors.size(); ++i)
        if (task_.tensors[i].role == Role::kInput) inputs_.push_back(download(pristine_, i));
    return inputs_;
  }

  const HostBuffer& host_expected(size_t i) override {
    if (expected_.at(i).empty()) expected_[i] = download(*reference_.device_buffer(), i);
    return expected_[i];
  }

  const HostBuffer& host_verified(size_t i) override {
    if (verified_.at(i).empty() && handed_over_)
      throw InternalError("checked calls: the verified outputs were handed to the timing loop");
    if (verified_.at(i).empty()) verified_[i] = download(calls_[0], i);
    return verified_[i];
  }

  // On success the timing loop holds its own images: the copies only the checked calls needed
  // are freed (the device's memory goes to the timed buffers), and the current inputs and
  // verified outputs can no longer be fetched to the host.
  std::unique_ptr<TimedDataOnDevice> timed_data_on_device(Lane& candidate, Lane* baseline,
                                                          std::string* why) override {
    auto timed = TimedDataOnDevice::make(task_, shape_, candidate, baseline, pristine_, calls_[0], why);
    if (timed) {
      for (DevicePlane::Buffer* b : {&pristine_, &calls_[0], &calls_[1]}) plane_.release(*b);
      handed_over_ = true;
    }
    return timed;
  }

  bool on_device() const override { return true; }

 private:
  const BufferLayout::Slot& slot(size_t i) const { return layout_.slots.at(i); }

  void lay_inputs(const Lane& lane) {
    std::vector<ByteMove> moves;
    for (size_t i = 0; i < task_.tensors.size(); ++i)
      if (task_.tensors[i].role == Role::kInput)
        moves.push_back({slot(i).offset, slot(i).offset, slot(i).bytes});
    plane_.move(*lane.device_buffer(), pristine_, moves);
  }

  HostBuffer download(const DevicePlane::Buffer& from, size_t i) {
    HostBuffer out(slot(i).bytes);
    plane_.download(from, slot(i).offset, out.data(), slot(i).bytes);
    return out;
  }

  const Task& task_;
  const Shape& shape_;
  DevicePlane& plane_;
  Lane& reference_;
  Lane& candidate_;
  Lane* baseline_;
  BufferLayout layout_;
  DevicePlane::Buffer pristine_;              // the inputs; the guard bytes of the last call
  std::array<DevicePlane::Buffer, 2> calls_;  // the candidate's buffer after its calls 0 and 1
  uint64_t guard_key_ = 0;
  bool handed_over_ = false;  // timed_data_on_device() took the images
  const bool draw_on_device_ = [] {
    const char* env = std::getenv("ARENA_DEVICE_INPUTS");
    return env == nullptr || std::string(env) != "0";
  }();
  // Downloaded when asked: the inputs (in input order), the expected and verified outputs (by
  // tensor index).
  std::vector<HostBuffer> inputs_;
  std::vector<HostBuffer> expected_;
  std::vector<HostBuffer> verified_;
};

}  // namespace

std::unique_ptr<CheckedCalls> make_checked_calls_on_device(const Task& task, const Shape& shape,
                                                           Lane& reference, Lane& candidate,
                                                           Lane* baseline, std::string* why) {
  DevicePlane* plane = candidate.device_plane();
  for (const Lane* lane : {&reference, &candidate, baseline}) {
    if (lane == nullptr) continue;
    if (lane->device_plane() == nullptr || lane->device_plane() != plane) {
      *why = lane->device_plane_off().empty() ? "the backend has no device plane"
                                              : lane->device_plane_off();
      return nullptr;
    }
  }
  auto calls =
      std::make_unique<CheckedCallsOnDevice>(task, shape, *plane, reference, candidate, baseline);
  if (!calls->allocate(why)) return nullptr;
  return calls;
}

}  // namespace arena
