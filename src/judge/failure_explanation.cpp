#include "judge/failure_explanation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "judge/checker.hpp"
#include "judge/kernel_resources.hpp"

namespace arena {
namespace {

std::string dims_text(const std::vector<int64_t>& d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) s += (i ? " x " : "") + std::to_string(d[i]);
  return s;
}

// The largest power of two (up to 256) that `n` is not a multiple of but whose last partial
// block holds `index`: "past the last multiple of 64 (960)".
std::string tail_of(int64_t index, int64_t n) {
  for (int64_t b = 256; b >= 2; b /= 2) {
    int64_t full = n / b * b;
    if (n % b != 0 && index >= full)
      return "past the last multiple of " + std::to_string(b) + " (" + std::to_string(full) + ")";
  }
  return index == n - 1 ? "the last index" : "near the end";
}

struct Sizes {
  int64_t max_elements = 0;
  int64_t max_bytes = 0;
};

Sizes sizes_of(const Task& task, const Shape& s) {
  Sizes z;
  for (const auto& t : task.tensors) {
    z.max_elements = std::max(z.max_elements, task.elements(t, s));
    z.max_bytes = std::max(z.max_bytes, task.bytes_of(t, s));
  }
  return z;
}

bool is_break(const ShapeVerdict& s) {
  switch (s.failure) {
    case FailureClass::kWrongValues:
    case FailureClass::kNanInf:
    case FailureClass::kCrash:
    case FailureClass::kOutOfBounds:
    case FailureClass::kLaunchError:
    case FailureClass::kTimeout:
      return true;
    default:
      return false;
  }
}

// A size above which every judged shape fails and below which every one passes: the tensor
// size in elements or bytes, else one param. Empty when the failures are not separated by size.
struct Threshold {
  std::string what;  // "elements" | "bytes" | a param name
  int64_t passing_up_to = 0, failing_from = 0;
};

std::optional<Threshold> size_threshold(const Task& task, const Verdict& v) {
  std::vector<const ShapeVerdict*> pass, fail;
  for (const auto& s : v.shapes) (s.correct ? pass : (is_break(s) ? fail : pass)).push_back(&s);
  if (pass.empty() || fail.empty()) return std::nullopt;
  auto separates = [&](auto metric, const std::string& what) -> std::optional<Threshold> {
    int64_t max_pass = std::numeric_limits<int64_t>::min(),
            min_fail = std::numeric_limits<int64_t>::max();
    for (const auto* s : pass)
      if (s->correct) max_pass = std::max(max_pass, metric(s->shape));
    for (const auto* s : fail) min_fail = std::min(min_fail, metric(s->shape));
    if (max_pass == std::numeric_limits<int64_t>::min() || min_fail <= max_pass)
      return std::nullopt;
    return Threshold{what, max_pass, min_fail};
  };
  auto bytes = separates([&](const Shape& s) { return sizes_of(task, s).max_bytes; }, "bytes");
  auto elements =
      separates([&](const Shape& s) { return sizes_of(task, s).max_elements; }, "elements");
  // A threshold at 2^31 or 2^32 elements or bytes reads as an overflow; any other is named by
  // the param that separates the shapes, when one does.
  for (const auto& t : {elements, bytes})
    for (int64_t limit : {int64_t{1} << 31, int64_t{1} << 32})
      if (t && t->passing_up_to < limit && t->failing_from >= limit) return t;
  for (const auto& p : task.params)
    if (auto t = separates([&](const Shape& s) { return s.params.at(p.name); }, p.name)) return t;
  return elements ? elements : bytes;
}

std::string explain_mismatch(const OutputCheck& c, std::string* kind) {
  std::string s = c.tensor + ": " + std::to_string(c.mismatches) + " of " +
                  std::to_string(c.elements) + " elements wrong";
  if (c.unwritten > 0 && c.unwritten == c.mismatches && c.only_tail) {
    *kind = "boundary_tiles";
    return s + ", never written, all in the last partial tile of a dimension" +
           (c.first ? " (the first at " + coords_text(c.first->coords) + ")" : std::string()) +
           ": the loop or grid covers only whole tiles (a remainder the visible shapes did not "
           "need)";
  }
  if (c.pattern == "unwritten" || (c.unwritten > 0 && c.unwritten == c.mismatches)) {
    *kind = "grid_coverage";
    return s +
           ", all of them never written: the launch did not cover the whole output at this shape "
           "(a grid or "
           "loop bound computed for other sizes, or a missing remainder loop)";
  }
  std::string at;
  if (c.first) at = "; the first at " + coords_text(c.first->coords);
  if (c.where == "tail") {
    *kind = "boundary_tiles";
    return s + at +
           ", all in the last partial tile of a dimension: a missing bounds check, or a tile size "
           "the "
           "visible shapes happened to divide";
  }
  if (c.where == "interior") {
    *kind = "interior";
    return s + at +
           ", inside the tensor rather than only at its edges: a size-specific shortcut (a "
           "hard-coded "
           "stride, a reduction split that assumes a length) or a race";
  }
  *kind = "everywhere";
  return s + at +
         ": wrong almost everywhere, the kernel's assumptions about the shape do not hold here";
}

// What the solution's kernels ask for, from the compiler's resource report: "; its kernels ask:
// k: 64 registers per thread (blocks of at most 1024 threads), 4096 bytes of static shared memory".
std::string requested_resources(const std::string& compile_log) {
  const auto kernels = parse_kernel_resources(compile_log);
  if (kernels.empty()) return "";
  std::string s = "; its kernels ask (compiler report, dynamic shared memory comes at launch):";
  for (size_t i = 0; i < kernels.size() && i < 4; ++i) {
    const auto& k = kernels[i];
    s += std::string(i ? ";" : "") + " " + k.name + ": " + std::to_string(k.registers) +
         " registers per thread (blocks of at most " + std::to_string(max_threads_per_block(k)) +
         " threads), " + std::to_string(k.shared_bytes) + " bytes of static shared memory";
    if (k.spill_bytes > 0) s += ", " + std::to_string(k.spill_bytes) + " bytes of register spills";
  }
  if (kernels.size() > 4) s += "; and " + std::to_string(kernels.size() - 4) + " more";
  return s;
}

}  // namespace

void explain_failures(const Task& task, Verdict& v) {
  const auto threshold = size_threshold(task, v);
  const auto visible = v.geomean_speedup("visible");
  for (auto& s : v.shapes) {
    if (s.correct) {
      if (s.set == "heldout" && visible && *visible > 1 && s.timing && s.timing->speedup &&
          *s.timing->speedup < 1) {
        s.explanation_kind = "performance_collapse";
        s.explanation =
            "the speedup is " + std::to_string(*s.timing->speedup).substr(0, 5) + "x here but " +
            std::to_string(*visible).substr(0, 5) +
            "x over the visible shapes: the kernel is tuned to the shapes it saw (a tile, grid or "
            "block size that fits them and not " +
            s.shape.label() + ")";
      }
      continue;
    }
    std::string kind, text;
    switch (s.failure) {
      case FailureClass::kLaunchError: {
        kind = "launch_resources";
        text = "the launch was refused at " + s.shape.label() + " (" + s.message + ")";
        auto smem = v.device.find("shared_memory_per_sm_bytes");
        auto regs = v.device.find("registers_per_sm");
        if (smem != v.device.end() || regs != v.device.end()) {
          text += "; per block this device allows at most 1024 threads";
          if (smem != v.device.end())
            text += ", " + smem->second +
                    " bytes of shared memory per SM (227 KiB per block opt-in on Hopper)";
          if (regs != v.device.end()) text += ", " + regs->second + " registers per SM";
        }
        text += requested_resources(v.compile.log);
        text +=
            ": resources that grow with the shape (dynamic shared memory, threads per block) went "
            "past them";
        break;
      }
      case FailureClass::kNanInf:
        kind = "unstable_reduction";
        text =
            "NaN/Inf where the reference is finite: an unstable reduction (exp without subtracting "
            "the row's "
            "maximum, a sum of squares or products that overflows) meets inputs of larger "
            "magnitude or longer "
            "rows than the visible ones";
        if (s.magnitude > 1)
          text += " (this shape's last seed drew inputs " +
                  std::to_string(static_cast<int64_t>(s.magnitude)) +
                  " times larger, a stress the task declares with heldout.magnitude)";
        break;
      case FailureClass::kOutOfBounds:
        kind = "boundary_tiles";
        text =
            s.message + ": a tile or vector access without a bounds check in the last partial tile";
        break;
      case FailureClass::kWrongValues:
        for (const auto& c : s.outputs)
          if (!c.ok()) {
            text = explain_mismatch(c, &kind);
            if (kind == "boundary_tiles" && c.first) {
              // Name the dimension and the multiple its tail is past.
              std::vector<int64_t> dims;
              for (const auto& t : task.tensors)
                if (t.name == c.tensor) dims = task.dims(t, s.shape);
              for (size_t k = 0; k < dims.size() && k < c.first->coords.size(); ++k) {
                std::string where = tail_of(c.first->coords[k], dims[k]);
                if (where.rfind("past", 0) == 0) {
                  text += " (dims " + dims_text(dims) + ": index " +
                          std::to_string(c.first->coords[k]) + " of dim " + std::to_string(k) +
                          " is " + where + ")";
                  break;
                }
              }
            }
            break;
          }
        break;
      case FailureClass::kCrash:
      case FailureClass::kTimeout:
        kind = s.failure == FailureClass::kCrash ? "crash" : "timeout";
        text = std::string(s.failure == FailureClass::kCrash ? "crashed" : "timed out") + " at " +
               s.shape.label();
        break;
      default:
        continue;
    }
    // Failing only above a size overrides the local reading with the cross-shape one.
    if (threshold && is_break(s)) {
      const int64_t lo = threshold->passing_up_to, hi = threshold->failing_from;
      const bool bytes = threshold->what == "bytes", elements = threshold->what == "elements";
      for (int64_t limit : {int64_t{1} << 31, int64_t{1} << 32}) {
        if ((bytes || elements) && lo < limit && hi >= limit) {
          kind = "index_overflow";
          text = "every failing shape has a tensor of at least " + std::to_string(hi) + " " +
                 threshold->what + " and every passing one at most " + std::to_string(lo) +
                 ": past 2^" + std::to_string(limit == (int64_t{1} << 31) ? 31 : 32) + " " +
                 threshold->what +
                 ", so a 32-bit index or byte offset likely overflows (use int64_t/size_t for "
                 "offsets). " +
                 text;
          break;
        }
      }
      if (kind != "index_overflow") {
        text += "; it fails only above a size: every failing shape has " + threshold->what +
                " >= " + std::to_string(hi) + ", every passing one <= " + std::to_string(lo);
        if (kind == "crash" || kind == "timeout") kind = "size_threshold";
      }
    }
    s.explanation_kind = kind;
    s.explanation = text;
  }
}

}  // namespace arena
