// The order in which the autotune agent tries knob settings, one per round. A setting is one
// candidate index per knob; the first one tried is always the source's own (declared) values.
//
// - When the whole grid fits in the round budget: every setting, the declared one first, then
//   the others in odometer order (the last knob changing fastest).
// - Otherwise coordinate descent from the declared setting: knob by knob in the order declared,
//   its other candidates nearest the best value first (one step down, one up, two down, ...),
//   the other knobs held at the best setting so far, which moves as soon as a candidate beats it
//   (correct and a higher geomean speedup). After the last knob it starts again at the first;
//   it stops when a whole pass finds nothing better or every setting has been tried.
//
// Deterministic: the same results give the same order. No setting is tried twice.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <vector>

namespace arena {

class KnobSearch {
 public:
  using Setting = std::vector<size_t>;

  // `sizes`: the number of candidates of each knob; `start`: the declared setting.
  KnobSearch(std::vector<size_t> sizes, Setting start, int rounds);

  // The next setting to try; nullopt when the search is done. Each must be reported before the
  // next is asked for.
  std::optional<Setting> next();
  // What the round made of it: the geomean speedup when it was correct, else nullopt.
  void report(const Setting& s, std::optional<double> speedup);

  std::optional<Setting> best() const { return best_; }
  std::optional<double> best_speedup() const { return best_speedup_; }
  bool exhaustive() const { return exhaustive_; }
  // The number of settings in the grid (saturates at SIZE_MAX).
  size_t grid_size() const { return grid_size_; }

 private:
  std::optional<Setting> next_exhaustive();
  std::optional<Setting> next_descent();
  void fill_queue();  // the candidates of knob_ to try, nearest the base first

  std::vector<size_t> sizes_;
  Setting start_;
  size_t grid_size_ = 1;
  bool exhaustive_ = false;
  std::set<Setting> tried_;
  std::optional<Setting> best_;
  std::optional<double> best_speedup_;

  // Exhaustive: the odometer.
  std::optional<Setting> odometer_;
  bool start_given_ = false;

  // Descent.
  size_t knob_ = 0;
  std::vector<size_t> queue_;  // candidate indices of knob_, in the order to try them
  bool pass_improved_ = false;
  bool started_ = false;
};

}  // namespace arena
