#include "judge/checked_calls.hpp"

#include "judge/checked_calls_on_device.hpp"

namespace arena {
namespace {

// Every tensor through the lanes' shared regions, checked on the host.
class CheckedCallsOnHost final : public CheckedCalls {
 public:
  CheckedCallsOnHost(const Task& task, const Shape& shape, Lane& reference, Lane& candidate,
                     Lane* baseline)
      : task_(task),
        shape_(shape),
        reference_(reference),
        candidate_(candidate),
        baseline_(baseline) {}

  void draw_inputs(uint64_t seed, double magnitude) override {
    inputs_ = generate_inputs(task_, shape_, seed, magnitude);
    expected_.assign(task_.tensors.size(), {});
    verified_.assign(task_.tensors.size(), {});
  }

  CallOutcome call_reference(uint64_t nonce, double timeout_s) override {
    reference_.write_inputs(inputs_);
    reference_.poison_outputs(nonce);
    CallOutcome o = reference_.call(timeout_s);
    if (o.kind == CallOutcome::Kind::kOk)
      for (size_t i = 0; i < task_.tensors.size(); ++i)
        if (task_.tensors[i].role == Role::kOutput) expected_[i] = reference_.copy_tensor(i);
    return o;
  }

  CallOutcome call_candidate(int run, uint64_t nonce, uint64_t guard_key,
                             double timeout_s) override {
    candidate_.write_inputs(inputs_);
    candidate_.poison_outputs(nonce);
    candidate_.arm_guards(guard_key);
    CallOutcome o = candidate_.call(timeout_s);
    // Call 0's outputs are kept: call 1 overwrites them in the region.
    if (o.kind == CallOutcome::Kind::kOk && run == 0)
      for (size_t i = 0; i < task_.tensors.size(); ++i)
        if (task_.tensors[i].role == Role::kOutput) verified_[i] = candidate_.copy_tensor(i);
    return o;
  }

  std::optional<GuardViolation> guard_violation(int) override { return candidate_.check_guards(); }
  std::optional<size_t> changed_input(int) override { return candidate_.changed_input(inputs_); }

  OutputCheck check_output(int run, size_t i) override {
    const auto& spec = task_.tensors[i];
    const void* got = run == 0 ? verified_[i].data() : candidate_.tensor(i);
    return arena::check_output(spec, candidate_.dims()[i], got, expected_[i].data(),
                               task_.tolerance_for(spec, shape_), candidate_.poison(i));
  }

  Difference compare_runs(size_t i) override {
    const auto& spec = task_.tensors[i];
    return arena::compare_runs(spec, candidate_.dims()[i], verified_[i].data(),
                               candidate_.tensor(i), task_.tolerance_for(spec, shape_),
                               candidate_.poison(i));
  }

  bool baseline_correct(uint64_t nonce, double timeout_s) override {
    if (baseline_ == nullptr) return false;
    baseline_->write_inputs(inputs_);
    baseline_->poison_outputs(nonce);
    if (baseline_->call(timeout_s).kind != CallOutcome::Kind::kOk) return false;
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      const auto& spec = task_.tensors[i];
      if (spec.role != Role::kOutput) continue;
      if (!arena::check_output(spec, baseline_->dims()[i], baseline_->tensor(i),
                               expected_[i].data(), task_.tolerance_for(spec, shape_),
                               baseline_->poison(i))
               .ok())
        return false;
    }
    return true;
  }

  const std::vector<HostBuffer>& host_inputs() override { return inputs_; }
  const HostBuffer& host_expected(size_t i) override { return expected_.at(i); }
  const HostBuffer& host_verified(size_t i) override { return verified_.at(i); }

  std::unique_ptr<TimedDataOnDevice> timed_data_on_device(Lane& candidate, Lane* baseline,
                                                          std::string* why) override {
    return TimedDataOnDevice::make(task_, shape_, candidate, baseline, inputs_, verified_, why);
  }

  bool on_device() const override { return false; }

 private:
  const Task& task_;
  const Shape& shape_;
  Lane& reference_;
  Lane& candidate_;
  Lane* baseline_;
  std::vector<HostBuffer> inputs_;
  std::vector<HostBuffer> expected_;  // by tensor index; the reference's outputs
  std::vector<HostBuffer> verified_;  // by tensor index; the candidate's call-0 outputs
};

}  // namespace

std::unique_ptr<CheckedCalls> make_checked_calls(const Task& task, const Shape& shape,
                                                 Lane& reference, Lane& candidate, Lane* baseline,
                                                 std::string* why_host) {
  if (auto on_device =
          make_checked_calls_on_device(task, shape, reference, candidate, baseline, why_host))
    return on_device;
  return std::make_unique<CheckedCallsOnHost>(task, shape, reference, candidate, baseline);
}

}  // namespace arena
