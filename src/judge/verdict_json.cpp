#include "judge/verdict_json.hpp"

#include "judge/kernel_resources.hpp"

namespace arena {
namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json optional_bool(const std::optional<bool>& v) { return v ? json(*v) : json(nullptr); }

json summary_json(const SampleSummary& s) {
  return {{"median_ns", s.median}, {"ci95_low_ns", s.ci_low}, {"ci95_high_ns", s.ci_high},
          {"mean_ns", s.mean},     {"min_ns", s.min},         {"cv", s.cv},
          {"samples", s.count}};
}

json telemetry_json(const std::optional<TelemetrySummary>& t) {
  if (!t) return nullptr;
  return {{"sm_clock_mhz", t->sm_clock_mhz},
          {"mem_clock_mhz", t->mem_clock_mhz},
          {"max_temperature_c", t->max_temperature_c},
          {"power_w", t->power_w},
          {"throttle_reasons", t->throttle_reasons},
          {"readings", t->readings},
          {"slowdown_samples", t->slowdown_samples},
          {"discarded_samples", t->discarded_samples}};
}

json check_json(const OutputCheck& c) {
  json j = {{"tensor", c.tensor},
            {"elements", c.elements},
            {"mismatches", c.mismatches},
            {"unwritten", c.unwritten},
            {"non_finite", c.non_finite},
            {"max_abs_error", c.max_abs_error},
            {"max_rel_error", c.max_rel_error},
            {"where", c.where.empty() ? json(nullptr) : json(c.where)},
            {"pattern", c.pattern.empty() ? json(nullptr) : json(c.pattern)}};
  if (c.first) {
    const Mismatch& m = *c.first;
    j["first_mismatch"] = {{"index", m.index}, {"coords", m.coords},   {"got", m.got},
                           {"expected", m.expected}, {"bound", m.bound}, {"unwritten", m.unwritten}};
  } else {
    j["first_mismatch"] = nullptr;
  }
  return j;
}

json warnings_json(const std::vector<SourceWarning>& ws) {
  json out = json::array();
  for (const auto& w : ws) out.push_back({{"kind", w.kind}, {"line", w.line}, {"text", w.text}, {"why", w.why}});
  return out;
}

json generalization_json(const std::optional<Generalization>& g) {
  if (!g) return nullptr;
  return {{"both_pass", g->both_pass},
          {"regression", g->regression},
          {"both_fail", g->both_fail},
          {"improvement", g->improvement},
          {"baseline_unknown", g->baseline_unknown},
          {"conditional_correctness", optional_number(g->conditional_correctness)},
          {"speedup_retention", optional_number(g->speedup_retention)}};
}

json shape_json(const ShapeVerdict& s) {
  json j = {{"params", s.shape.params},
            {"set", s.set},
            {"category", s.category.empty() ? json(nullptr) : json(s.category)},
            {"baseline_correct", optional_bool(s.baseline_correct)},
            {"input_magnitude", s.magnitude},
            {"explanation_kind", s.explanation_kind.empty() ? json(nullptr) : json(s.explanation_kind)},
            {"explanation", s.explanation.empty() ? json(nullptr) : json(s.explanation)},
            {"status", s.correct ? "pass" : "fail"},
            {"failure_class", s.correct ? json(nullptr) : json(failure_class_name(s.failure))},
            {"message", s.message},
            {"seeds", s.seeds},
            {"deterministic", optional_bool(s.deterministic)},
            {"bitwise_differences", s.bitwise_differences}};
  // Only for shapes whose checked calls ran (a shape that failed to load has none).
  if (!s.seeds.empty()) {
    j["checked_on"] = s.checked_on_device ? "device" : "host";
    if (!s.checked_on_device) j["checked_on_host_because"] = s.checked_on_host_because;
  }
  json outs = json::array();
  for (const auto& c : s.outputs) outs.push_back(check_json(c));
  j["outputs"] = outs;
  if (s.timing) {
    const Timing& t = *s.timing;
    j["timing"] = summary_json(t.candidate);
    j["timing"]["host_median_ns"] = t.host_median_ns;
    j["timing"]["stop_reason"] = t.stop_reason;
    j["timing"]["order"] = {{"pairs", t.pairs}, {"baseline_first", t.baseline_first}};
    j["timing"]["cold_cache"] = t.cold_cache;
    j["timing"]["mode"] = t.graph_launches > 0 ? "graph" : "single";
    j["timing"]["graph_launches"] = t.graph_launches;
    j["timing"]["inputs_per_call"] = t.inputs_per_call;
    j["timing"]["placements"] = t.placements;
    j["timing"]["checked_on"] = t.checked_on_device ? "device" : "host";
    if (!t.checked_on_device) j["timing"]["checked_on_host_because"] = t.checked_on_host_because;
    j["timing"]["baseline"] = t.baseline ? summary_json(*t.baseline) : json(nullptr);
    if (t.baseline) j["timing"]["baseline"]["roofline_fraction"] = optional_number(t.baseline_roofline_fraction);
    j["timing"]["speedup"] = optional_number(t.speedup);
    j["timing"]["speedup_uncertainty"] = optional_number(t.speedup_uncertainty());
    j["timing"]["runner_offset_sd_ns"] = optional_number(t.runner_offset_sd_ns);
    j["timing"]["runners"] = {{"candidate", t.runners}, {"candidate_medians_ns", t.candidate_runner_medians_ns}};
    if (t.baseline) {
      j["timing"]["runners"]["baseline"] = t.baseline_runners;
      j["timing"]["runners"]["baseline_medians_ns"] = t.baseline_runner_medians_ns;
    }
    if (!t.fewer_runners_because.empty()) j["timing"]["runners"]["fewer_because"] = t.fewer_runners_because;
    j["timing"]["window_overhead_ns"] = optional_number(t.window_overhead_ns);
    j["timing"]["off_stream_work"] = t.off_stream_work ? json(*t.off_stream_work) : json(nullptr);
    j["timing"]["gflops"] = t.gflops;
    j["timing"]["gbytes_per_s"] = t.gbytes_per_s;
    j["timing"]["roofline_fraction"] = optional_number(t.roofline_fraction);
    j["timing"]["roofline_floor_ns"] = optional_number(t.roofline_floor_ns);
    j["timing"]["telemetry"] = telemetry_json(t.telemetry);
    j["timing"]["runner_threads"] = {{"after_warmup", t.threads_after_warmup},
                                     {"max_timed", t.threads_max_timed},
                                     {"after_timing", t.threads_after_timing},
                                     {"left_running", t.threads_left_running}};
    if (t.baseline) j["timing"]["baseline"]["telemetry"] = telemetry_json(t.baseline_telemetry);
  } else {
    j["timing"] = nullptr;
  }
  return j;
}

json sanitizer_json(const std::optional<SanitizerVerdict>& s) {
  if (!s) return nullptr;
  json tools = json::object();
  for (const auto& t : s->tools)
    tools[t.tool] = {{"ok", t.ok},
                     {"errors", t.errors},
                     {"exit_code", t.exit_code ? json(*t.exit_code) : json(nullptr)},
                     {"report", t.report}};
  return {{"ok", s->ok()}, {"shape", s->shape.params}, {"tools", tools}};
}

}  // namespace

json verdict_to_json(const Verdict& v) {
  json shapes = json::array();
  for (const auto& s : v.shapes) shapes.push_back(shape_json(s));
  json flags = json::array();
  for (const auto& f : v.flags)
    flags.push_back({{"name", f.name}, {"shape", f.shape}, {"reason", f.reason}, {"voids_speedup", f.voids_speedup}});
  int passed = 0;
  for (const auto& s : v.shapes) passed += s.correct ? 1 : 0;
  FailureClass fc = v.failure_class();
  json kernels = json::array();
  for (const auto& k : parse_kernel_resources(v.compile.log))
    kernels.push_back({{"name", k.name},
                       {"registers", k.registers},
                       {"shared_bytes", k.shared_bytes},
                       {"stack_bytes", k.stack_bytes},
                       {"spill_bytes", k.spill_bytes},
                       {"max_threads_per_block", max_threads_per_block(k)}});
  return {
      {"schema", "kernelarena.verdict/1"},
      {"task", v.task},
      {"backend", v.backend},
      {"solution", {{"path", v.solution_path}, {"sha256", v.solution_sha256}}},
      {"baseline", {{"path", v.baseline_path}}},
      {"device", v.device},
      {"seed", std::to_string(v.seed)},
      {"seed_given", v.seed_was_given},
      {"compile",
       {{"ok", v.compile.ok},
        {"cached", v.compile.cached},
        {"seconds", v.compile.seconds},
        {"key", v.compile.key},
        {"command", v.compile.command},
        {"log", v.compile.log},
        {"forbidden_symbols", v.compile.forbidden_symbols},
        {"kernels", kernels}}},
      {"shapes", shapes},
      {"summary",
       {{"compiled", v.compiled()},
        {"correct_visible", optional_bool(v.correct_on("visible"))},
        {"correct_heldout", optional_bool(v.correct_on("heldout"))},
        {"geomean_speedup_visible", optional_number(v.speedup_voided() ? std::nullopt : v.geomean_speedup("visible"))},
        {"geomean_speedup_heldout", optional_number(v.speedup_voided() ? std::nullopt : v.geomean_speedup("heldout"))},
        {"heldout", generalization_json(v.generalization())},
        {"failure_class", fc == FailureClass::kNone ? json(nullptr) : json(failure_class_name(fc))},
        {"shapes_passed", passed},
        {"shapes_total", v.shapes.size()},
        {"speedup_voided", v.speedup_voided()},
        {"internal_error", v.internal_error.empty() ? json(nullptr) : json(v.internal_error)},
        {"exit_code", v.exit_code()}}},
      {"flags", flags},
      {"warnings", warnings_json(v.warnings)},
      {"seconds", v.seconds},
      {"telemetry", telemetry_json(v.telemetry)},
      {"sanitizer", sanitizer_json(v.sanitizer)},
      {"sandbox", v.sandbox ? json{{"seccomp", v.sandbox->seccomp},
                                   {"why_off", v.sandbox->why_off.empty() ? json(nullptr) : json(v.sandbox->why_off)},
                                   {"reads_confined", v.sandbox->reads_confined},
                                   {"reads_why_open", v.sandbox->reads_why_open.empty()
                                                          ? json(nullptr)
                                                          : json(v.sandbox->reads_why_open)}}
                            : json(nullptr)},
  };
}

}  // namespace arena
