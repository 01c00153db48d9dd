#include "judge/reference_validation.hpp"

#include <algorithm>

#include "judge/checker.hpp"
#include "judge/freivalds.hpp"
#include "judge/input_generator.hpp"
#include "judge/lane.hpp"
#include "judge/random.hpp"

namespace arena {

ReferenceValidation validate_reference(const Task& task, const Backend& device, const Backend& host,
                                       const std::vector<Shape>& shapes, uint64_t seed) {
  ReferenceValidation r;
  if (!task.host_reference) return r;
  std::vector<Shape> todo, big;
  int64_t max_region = 0, max_big_region = 0;
  for (const auto& s : shapes) {
    if (task.flops.eval(task.bind(s)) > kHostReferenceMaxFlops) {
      r.skipped.push_back(s.label());
      if (task.product) {
        big.push_back(s);
        max_big_region = std::max(max_big_region, region_bytes(task, s));
      }
    } else {
      todo.push_back(s);
      max_region = std::max(max_region, region_bytes(task, s));
    }
  }
  if (todo.empty() && big.empty()) return r;
  Lane on_device(device, task,
                 compile_task_file(task, device, task.reference, "reference", task.all_libraries()),
                 std::max(max_region, max_big_region));
  on_device.start();
  // Too large for the host reference: Freivalds' check of the device reference's product.
  for (size_t k = 0; k < big.size(); ++k) {
    const Shape& shape = big[k];
    std::string err = on_device.prepare(shape);
    if (!err.empty()) {
      r.problems.push_back("at " + shape.label() + ": the reference does not load: " + err);
      return r;
    }
    std::vector<HostBuffer> inputs = generate_inputs(task, shape, stream_key(seed, 0xB16 + k));
    on_device.write_inputs(inputs);
    on_device.poison_outputs(seed + 0xB16 + k);
    CallOutcome o = on_device.call(task.limits.timeout_s * 30);
    if (o.kind != CallOutcome::Kind::kOk) {
      r.problems.push_back("at " + shape.label() + ": the reference failed: " + o.message);
      return r;
    }
    for (size_t i = 0; i < task.tensors.size(); ++i)
      if (task.tensors[i].name == task.product->out) {
        auto p =
            freivalds_check(task, shape, inputs, on_device.tensor(i), stream_key(seed, 0xF5 + k));
        r.problems.insert(r.problems.end(), p.begin(), p.end());
      }
    r.freivalds.push_back(shape.label());
  }
  if (todo.empty()) return r;
  Lane on_host(host, task,
               compile_task_file(task, host, *task.host_reference, "host reference", {}),
               max_region);
  on_host.start();
  for (size_t k = 0; k < todo.size(); ++k) {
    const Shape& shape = todo[k];
    for (Lane* lane : {&on_device, &on_host}) {
      std::string err = lane->prepare(shape);
      if (!err.empty()) {
        r.problems.push_back("at " + shape.label() + ": the " +
                             (lane == &on_device ? "" : "host ") +
                             "reference does not load: " + err);
        return r;
      }
    }
    std::vector<HostBuffer> inputs = generate_inputs(task, shape, stream_key(seed, 0x4057 + k));
    for (Lane* lane : {&on_device, &on_host}) {
      lane->write_inputs(inputs);
      lane->poison_outputs(seed + k);
      // The host reference is plain fp64 loops: allow it far more than a solution's time.
      CallOutcome o = lane->call(task.limits.timeout_s * 30);
      if (o.kind != CallOutcome::Kind::kOk) {
        r.problems.push_back("at " + shape.label() + ": the " +
                             (lane == &on_device ? "" : "host ") +
                             "reference failed: " + o.message);
        return r;
      }
    }
    r.checked.push_back(shape.label());
    for (size_t i = 0; i < task.tensors.size(); ++i) {
      const auto& spec = task.tensors[i];
      if (spec.role != Role::kOutput) continue;
      Tolerance tol = task.tolerance_for(spec, shape);
      tol.atol /= 2;
      tol.rtol /= 2;
      HostBuffer expected = on_host.copy_tensor(i);
      OutputCheck c = check_output(spec, on_device.dims()[i], on_device.tensor(i), expected.data(),
                                   tol, on_device.poison(i));
      if (c.ok()) continue;
      std::string what = std::to_string(c.mismatches) + " of " + std::to_string(c.elements) +
                         " elements of '" + spec.name +
                         "' differ from the fp64 host reference by more than half the tolerance";
      if (c.first)
        what += " (first at flat index " + std::to_string(c.first->index) + ": " +
                std::to_string(c.first->got) + " vs " + std::to_string(c.first->expected) + ")";
      r.problems.push_back("at " + shape.label() + ": " + what +
                           "; fix the reference or the host reference");
    }
  }
  return r;
}

}  // namespace arena
