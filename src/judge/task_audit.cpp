#include "judge/task_audit.hpp"

#include <cstring>
#include <map>

#include "core/error.hpp"
#include "core/subprocess.hpp"
#include "judge/checker.hpp"
#include "judge/input_generator.hpp"
#include "judge/judge.hpp"
#include "judge/lane.hpp"
#include "judge/random.hpp"
#include "judge/reordering.hpp"
#include "judge/shape_selection.hpp"

namespace arena {

std::vector<std::string> audit_tolerances(const Task& task) {
  std::vector<std::string> problems;
  for (const auto& [dtype, tol] : task.tolerance) {
    // Looser than this lets real bugs through: a few ulps of the format times generous headroom.
    double limit = dtype == DType::kFp32 ? 1e-2 : dtype == DType::kFp16 ? 5e-2 : dtype == DType::kBf16 ? 1e-1 : 0.5;
    if (!dtype_is_float(dtype)) limit = 0;
    if (tol.atol > limit || tol.rtol > limit)
      problems.push_back("tolerance for " + std::string(dtype_name(dtype)) + " (atol " + std::to_string(tol.atol) +
                         ", rtol " + std::to_string(tol.rtol) + ") is looser than " + std::to_string(limit) +
                         "; tighten it so wrong kernels cannot pass");
  }
  return problems;
}

std::vector<std::string> audit_degenerate_outputs(const Task& task, const Backend& backend, const Shape& shape,
                                                  uint64_t seed) {
  std::vector<std::string> problems;
  Lane lane(backend, task, compile_task_file(task, backend, task.reference, "reference", task.all_libraries()), region_bytes(task, shape));
  std::string err = lane.prepare(shape);
  if (!err.empty()) return {"the reference does not load: " + err};

  // Seeds 0 and 1, then (for an equivariant task) seed 0's inputs reordered.
  std::vector<std::vector<HostBuffer>> outputs;
  const std::vector<HostBuffer> first = generate_inputs(task, shape, stream_key(seed, 0));
  const Reordering order = draw_reordering(task, shape, stream_key(seed, 0xF8E5));
  for (int s = 0; s < (order.empty() ? 2 : 3); ++s) {
    lane.write_inputs(s == 0 ? first : s == 1 ? generate_inputs(task, shape, stream_key(seed, 1)) : reorder_inputs(task, shape, order, first));
    lane.poison_outputs(seed);
    CallOutcome o = lane.call(task.limits.timeout_s * 10);
    if (o.kind != CallOutcome::Kind::kOk) return {"the reference failed: " + o.message};
    outputs.emplace_back();
    for (size_t i = 0; i < task.tensors.size(); ++i)
      outputs.back().push_back(task.tensors[i].role == Role::kOutput ? lane.copy_tensor(i) : HostBuffer{});
  }
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    const auto& spec = task.tensors[i];
    if (spec.role != Role::kOutput) continue;
    const auto& dims = lane.dims()[i];
    const HostBuffer& expected = outputs[0][i];
    size_t n = expected.size() / dtype_size(spec.dtype);
    if (n == 0) continue;
    Tolerance tol = task.tolerance_for(spec, shape);
    Poison none = make_poison(spec.dtype, 1);
    // All zeros, and the output's mean everywhere: both must fail on most elements.
    double mean = 0;
    for (size_t k = 0; k < n; ++k) mean += load_element(spec.dtype, expected.data(), k);
    mean /= static_cast<double>(n);
    for (double constant : {0.0, mean}) {
      HostBuffer fake(expected.size());
      for (size_t k = 0; k < n; ++k) store_element(spec.dtype, fake.data(), k, constant);
      OutputCheck c = check_output(spec, dims, fake.data(), expected.data(), tol, none);
      if (c.mismatches * 2 < c.elements)
        problems.push_back("at " + shape.label() + ", the constant output " + std::to_string(constant) + " for '" +
                           spec.name + "' passes on " + std::to_string(c.elements - c.mismatches) + " of " +
                           std::to_string(c.elements) + " elements: widen the input distribution or tighten the tolerance");
    }
    if (std::memcmp(expected.data(), outputs[1][i].data(), expected.size()) == 0 && n > 1)
      problems.push_back("at " + shape.label() + ", '" + spec.name + "' is the same for two different seeds: the output does not depend on the inputs");
    // The judge relies on `equivariant` to check timed calls on reordered inputs: the reference
    // on reordered inputs, put back in order, must match the reference on the inputs.
    if (!order.empty()) {
      HostBuffer back(expected.size());
      reorder_tensor(task, shape, order, i, outputs[2][i].data(), back.data(), /*inverse=*/true);
      OutputCheck c = check_output(spec, dims, back.data(), expected.data(), tol, none);
      if (!c.ok())
        problems.push_back("at " + shape.label() + ", reordering the inputs along the equivariant params does not just "
                           "reorder '" + spec.name + "' (" + std::to_string(c.mismatches) + " of " +
                           std::to_string(c.elements) + " elements differ): the task is not equivariant along them; "
                           "fix or remove 'equivariant'");
    }
  }
  return problems;
}

std::vector<std::string> audit_starter_heldout(
    const Task& task, const Backend& backend, const std::vector<uint64_t>& seeds,
    const std::function<void(const std::string&)>& progress) {
  struct Failure {
    std::string first;  // the problem under the first seed that failed the shape
    int more_seeds = 0;
  };
  std::map<std::string, Failure> failures;  // by shape label
  std::vector<std::string> order;           // labels in the order they first failed
  const std::string source = read_file(task.starter);
  for (size_t k = 0; k < seeds.size(); ++k) {
    JudgeOptions jo;
    jo.seed = seeds[k];
    jo.seed_was_given = true;
    jo.timing = false;
    jo.shapes = select_shapes(task, "heldout", seeds[k]);
    if (progress)
      progress("starter on held-out shapes, seed " + std::to_string(k + 1) + "/" +
               std::to_string(seeds.size()) + " (" + std::to_string(seeds[k]) + ", " +
               std::to_string(jo.shapes.size()) + " shapes)");
    Verdict v = judge_solution(task, backend, task.starter.string(), source, jo);
    if (!v.compile.ok) return {"the starter does not compile:\n" + v.compile.log};
    if (!v.internal_error.empty())
      return {"internal error judging the starter on the held-out shapes of seed " +
              std::to_string(seeds[k]) + ": " + v.internal_error};
    for (const auto& s : v.shapes) {
      if (s.correct) continue;
      const std::string label = s.shape.label();
      auto it = failures.find(label);
      if (it != failures.end()) {
        ++it->second.more_seeds;
        continue;
      }
      order.push_back(label);
      failures[label].first =
          "the starter fails at held-out shape " + label + " (" + s.category + ") under seed " +
          std::to_string(seeds[k]) +
          (s.magnitude > 1 ? " on its inputs " + std::to_string(static_cast<int64_t>(s.magnitude)) +
                                 "x larger (heldout.magnitude)"
                           : "") +
          ": " + std::string(failure_class_name(s.failure)) + ": " + s.message +
          "\n    reproduce: arena eval --task " + task.dir.string() + " --solution " +
          task.starter.string() + " --shapes heldout --seed " + std::to_string(seeds[k]) +
          " --no-timing";
    }
  }
  std::vector<std::string> problems;
  for (const auto& label : order) {
    const Failure& f = failures[label];
    problems.push_back(
        f.first + (f.more_seeds > 0 ? "\n    (it fails under " + std::to_string(f.more_seeds) +
                                          " more of the " + std::to_string(seeds.size()) + " seeds)"
                                    : ""));
  }
  return problems;
}

}  // namespace arena
