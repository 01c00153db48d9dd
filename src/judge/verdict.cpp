#include "judge/verdict.hpp"

#include <cmath>

#include "judge/runner_offset.hpp"

namespace arena {

double Timing::runner_offset_part() const {
  if (!baseline) return 0;
  return runner_offset_uncertainty(runner_offset_sd_ns.value_or(0), candidate.median, baseline->median, runners,
                                   baseline_runners);
}

double Timing::medians_part() const {
  if (!baseline) return 0;
  return std::hypot(candidate.log_ci_half_width(), baseline->log_ci_half_width());
}

std::optional<double> Timing::speedup_uncertainty() const {
  if (!speedup || !baseline) return std::nullopt;
  return std::hypot(medians_part(), runner_offset_part());
}

std::string_view failure_class_name(FailureClass c) {
  switch (c) {
    case FailureClass::kNone:
      return "none";
    case FailureClass::kCompileError:
      return "compile_error";
    case FailureClass::kLaunchError:
      return "launch_error";
    case FailureClass::kCrash:
      return "crash";
    case FailureClass::kTimeout:
      return "timeout";
    case FailureClass::kOom:
      return "oom";
    case FailureClass::kWrongValues:
      return "wrong_values";
    case FailureClass::kNanInf:
      return "nan_inf";
    case FailureClass::kInputMutated:
      return "input_mutated";
    case FailureClass::kOutOfBounds:
      return "out_of_bounds";
    case FailureClass::kNondeterministic:
      return "nondeterministic";
    case FailureClass::kForbiddenLibrary:
      return "forbidden_library";
    case FailureClass::kReferenceError:
      return "reference_error";
    case FailureClass::kSanitizer:
      return "sanitizer";
    case FailureClass::kSandboxViolation:
      return "sandbox_violation";
  }
  return "none";
}

std::optional<bool> Verdict::correct_on(const std::string& set) const {
  if (!compile.ok) return false;
  std::optional<bool> all;
  for (const auto& s : shapes) {
    if (s.set != set) continue;
    all = all.value_or(true) && s.correct;
  }
  return all;
}

std::optional<double> Verdict::geomean_speedup(const std::string& set) const {
  double log_sum = 0;
  int n = 0;
  for (const auto& s : shapes) {
    if (s.set != set || !s.correct || !s.timing || !s.timing->speedup) continue;
    log_sum += std::log(*s.timing->speedup);
    ++n;
  }
  if (n == 0) return std::nullopt;
  return std::exp(log_sum / n);
}

std::optional<double> Verdict::geomean_speedup_uncertainty(const std::string& set) const {
  double independent_sq = 0;  // the medians' CIs: each shape's own samples
  double offsets = 0;         // the runner offsets' parts: the same runners time every shape
  int n = 0;
  for (const auto& s : shapes) {
    if (s.set != set || !s.correct || !s.timing || !s.timing->speedup) continue;
    if (!s.timing->speedup_uncertainty()) return std::nullopt;
    const double m = s.timing->medians_part();
    independent_sq += m * m;
    offsets += s.timing->runner_offset_part();
    ++n;
  }
  if (n == 0) return std::nullopt;
  return std::hypot(std::sqrt(independent_sq) / n, offsets / n);
}

std::optional<Generalization> Verdict::generalization() const {
  Generalization g;
  bool any = false;
  for (const auto& s : shapes) {
    if (s.set != "heldout") continue;
    any = true;
    if (!s.baseline_correct) {
      ++g.baseline_unknown;
      continue;
    }
    const bool b = *s.baseline_correct, c = compile.ok && s.correct;
    (b ? (c ? g.both_pass : g.regression) : (c ? g.improvement : g.both_fail)) += 1;
  }
  if (!any) return std::nullopt;
  if (g.both_pass + g.regression > 0)
    g.conditional_correctness = static_cast<double>(g.both_pass) / (g.both_pass + g.regression);
  auto visible = geomean_speedup("visible"), heldout = geomean_speedup("heldout");
  if (visible && heldout && *visible > 0 && !speedup_voided()) g.speedup_retention = *heldout / *visible;
  return g;
}

FailureClass Verdict::failure_class() const {
  if (!compile.ok)
    return compile.forbidden_symbols.empty() ? FailureClass::kCompileError : FailureClass::kForbiddenLibrary;
  for (const auto& s : shapes)
    if (!s.correct) return s.failure;
  if (sanitizer && !sanitizer->ok()) return FailureClass::kSanitizer;
  return FailureClass::kNone;
}

bool SanitizerVerdict::ok() const {
  for (const auto& t : tools)
    if (!t.ok) return false;
  return true;
}

bool Verdict::speedup_voided() const {
  for (const auto& f : flags)
    if (f.voids_speedup) return true;
  return false;
}

int Verdict::exit_code() const {
  if (!internal_error.empty() || failure_class() == FailureClass::kReferenceError) return 3;
  if (failure_class() != FailureClass::kNone || speedup_voided()) return 1;
  return 0;
}

}  // namespace arena
