#include "judge/heldout_generator.hpp"

#include <algorithm>

#include "core/expr.hpp"
#include "judge/random.hpp"

namespace arena {
namespace {

class Draws {
 public:
  explicit Draws(uint64_t key) : key_(key) {}
  uint64_t next() { return random_bits(key_, i_++); }
  // Uniform in [lo, hi].
  int64_t between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t key_;
  uint64_t i_ = 0;
};

// v moved into the param's domain: the nearest multiple, then clamped to the legal multiples.
int64_t fit(const ParamDomain& p, __int128 v) {
  const int64_t m = std::max<int64_t>(1, p.multiple_of);
  const int64_t lo = (p.min + m - 1) / m * m, hi = p.max / m * m;
  if (v <= lo) return lo;
  if (v >= hi) return hi;
  auto r = static_cast<int64_t>((v + m / 2) / m * m);
  return std::clamp(r, lo, hi);
}

// Every param times num / den, rounded to the nearest, fitted into its domain.
Shape scaled(const Task& task, const Shape& base, int64_t num, int64_t den) {
  Shape s = base;
  for (const auto& p : task.params) {
    __int128 v = static_cast<__int128>(base.params.at(p.name)) * num;
    s.params[p.name] = fit(p, (v + den / 2) / den);
  }
  return s;
}

bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

// Params whose domain is wide enough to be a size (not a flag or a choice of two).
std::vector<const ParamDomain*> size_params(const Task& task) {
  std::vector<const ParamDomain*> out;
  for (const auto& p : task.params)
    if (p.max - p.min >= 32 * std::max<int64_t>(1, p.multiple_of)) out.push_back(&p);
  return out;
}

bool same_as_any(const Shape& s, const std::vector<Shape>& shapes) {
  return std::find(shapes.begin(), shapes.end(), s) != shapes.end();
}

Shape edge(const Task& task, const Shape& base, Draws& d) {
  Shape s = base;
  const auto sizes = size_params(task);
  switch (d.next() % 3) {
    case 0:  // the smallest legal everywhere
      for (const auto& p : task.params) s.params[p.name] = fit(p, p.min);
      break;
    case 1:  // one size at its minimum
      if (!sizes.empty()) {
        const ParamDomain* p = sizes[d.next() % sizes.size()];
        s.params[p->name] = fit(*p, p->min);
      }
      break;
    default:  // one size tiny
      if (!sizes.empty()) {
        const ParamDomain* p = sizes[d.next() % sizes.size()];
        s.params[p->name] = fit(*p, p->min + d.between(1, 7) * std::max<int64_t>(1, p->multiple_of));
      }
  }
  return s;
}

Shape alignment(const Task& task, const Shape& base, Draws& d) {
  Shape s = base;
  for (const ParamDomain* p : size_params(task)) {
    const int64_t v = base.params.at(p->name);
    const int64_t m = std::max<int64_t>(1, p->multiple_of);
    int64_t w = 0;
    if (m > 1) {
      w = v + (d.next() % 2 ? m : -m);  // the neighbouring multiple: off the larger powers of two
    } else {
      // A prime near v, or v's odd neighbour when none is close: never a multiple of 8.
      w = std::max<int64_t>(p->min, v + d.between(-8, 8));
      int64_t q = w;
      while (q <= p->max && q < w + 64 && !is_prime(q)) ++q;
      w = q <= p->max && is_prime(q) ? q : (w | 1);
    }
    s.params[p->name] = fit(*p, w);
  }
  return s;
}

Shape asymmetric(const Task& task, const Shape& base, Draws& d) {
  Shape s = base;
  auto sizes = size_params(task);
  if (sizes.empty()) return s;
  const ParamDomain* up = sizes[d.next() % sizes.size()];
  const int64_t f = d.between(8, 32);
  s.params[up->name] = fit(*up, static_cast<__int128>(base.params.at(up->name)) * f);
  if (sizes.size() > 1) {
    const ParamDomain* down = up;
    while (down == up) down = sizes[d.next() % sizes.size()];
    s.params[down->name] = fit(*down, base.params.at(down->name) / f);
  }
  return s;
}

}  // namespace

const std::vector<std::string>& heldout_categories() {
  static const std::vector<std::string> kCategories = {"edge", "scale_up", "scale_down", "alignment", "asymmetric", "production"};
  return kCategories;
}

bool is_legal_shape(const Task& task, const Shape& shape) {
  try {
    if (!task.shape_problems(shape).empty()) return false;
    task.check_expressions(shape);
  } catch (const ExprError&) {
    return false;
  }
  return true;
}

const Shape& largest_visible_shape(const Task& task) {
  const Shape* best = &task.visible.front();
  auto key = [&](const Shape& s) { return std::pair(task.total_bytes(s), task.flops.eval(task.bind(s))); };
  for (const auto& s : task.visible)
    if (key(s) > key(*best)) best = &s;
  return *best;
}

std::optional<Shape> largest_legal_shape(const Task& task) {
  if (task.visible.empty()) return std::nullopt;
  const Shape* base = &largest_visible_shape(task);
  // Factors are num / 64: doubling while legal, then 6 halving steps between the last legal
  // factor and the first illegal one.
  constexpr int64_t kDen = 64;
  int64_t lo = kDen, hi = 0;
  for (int64_t f = 2 * kDen; f <= (int64_t{1} << 40); f *= 2) {
    if (!is_legal_shape(task, scaled(task, *base, f, kDen))) {
      hi = f;
      break;
    }
    lo = f;
  }
  if (hi == 0) hi = 2 * lo;
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    (is_legal_shape(task, scaled(task, *base, mid, kDen)) ? lo : hi) = mid;
  }
  Shape s = scaled(task, *base, lo, kDen);
  if (!is_legal_shape(task, s)) return std::nullopt;
  return s;
}

std::vector<HeldoutShape> generate_heldout(const Task& task, uint64_t seed) {
  std::vector<HeldoutShape> out;
  std::vector<Shape> taken = task.visible;
  auto take = [&](const Shape& s, const std::string& category) {
    if (!is_legal_shape(task, s) || same_as_any(s, taken)) return false;
    taken.push_back(s);
    out.push_back({s, category});
    return true;
  };
  for (const auto& s : task.heldout.shapes) take(s, "production");

  std::vector<std::string> drawn;
  for (const auto& c : task.heldout.categories)
    if (c != "production") drawn.push_back(c);
  if (drawn.empty() || task.visible.empty()) return out;
  Draws d(stream_key(seed, 0x4E1D));
  bool largest_done = false;
  int64_t made = 0, misses = 0;
  for (size_t turn = 0; made < task.heldout.count && misses < static_cast<int64_t>(drawn.size()); ++turn) {
    const std::string& category = drawn[turn % drawn.size()];
    if (category == "scale_up" && !largest_done) {
      largest_done = true;
      if (auto s = largest_legal_shape(task); s && take(*s, "largest")) {
        ++made;
        misses = 0;
        continue;
      }
    }
    bool found = false;
    for (int attempt = 0; attempt < 64 && !found; ++attempt) {
      const Shape& base = task.visible[d.next() % task.visible.size()];
      Shape s;
      if (category == "edge") {
        s = edge(task, base, d);
      } else if (category == "scale_up") {
        s = scaled(task, base, d.between(2, 4), 1);
      } else if (category == "scale_down") {
        s = scaled(task, base, 1, d.between(2, 4));
      } else if (category == "alignment") {
        s = alignment(task, base, d);
      } else {
        s = asymmetric(task, base, d);
      }
      found = take(s, category);
    }
    if (found) {
      ++made;
      misses = 0;
    } else {
      ++misses;
    }
  }
  return out;
}

}  // namespace arena
