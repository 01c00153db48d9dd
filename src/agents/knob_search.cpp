#include "agents/knob_search.hpp"

#include <cstdint>

namespace arena {

KnobSearch::KnobSearch(std::vector<size_t> sizes, Setting start, int rounds)
    : sizes_(std::move(sizes)), start_(std::move(start)) {
  for (size_t n : sizes_) grid_size_ = n != 0 && grid_size_ > SIZE_MAX / n ? SIZE_MAX : grid_size_ * n;
  exhaustive_ = rounds > 0 && grid_size_ <= static_cast<size_t>(rounds);
}

std::optional<KnobSearch::Setting> KnobSearch::next() {
  std::optional<Setting> s = exhaustive_ ? next_exhaustive() : next_descent();
  if (s) tried_.insert(*s);
  return s;
}

void KnobSearch::report(const Setting& s, std::optional<double> speedup) {
  if (!speedup || (best_speedup_ && *speedup <= *best_speedup_)) return;
  // The declared setting's own result is where the search stands, not an improvement.
  if (best_ || s != start_) pass_improved_ = true;
  best_ = s;
  best_speedup_ = speedup;
}

std::optional<KnobSearch::Setting> KnobSearch::next_exhaustive() {
  if (!start_given_) {
    start_given_ = true;
    odometer_ = Setting(sizes_.size(), 0);
    return start_;
  }
  while (odometer_) {
    Setting s = *odometer_;
    size_t i = sizes_.size();
    for (; i > 0; --i) {
      if (++(*odometer_)[i - 1] < sizes_[i - 1]) break;
      (*odometer_)[i - 1] = 0;
    }
    if (i == 0) odometer_.reset();  // wrapped: every setting has been given
    if (!tried_.contains(s)) return s;
  }
  return std::nullopt;
}

void KnobSearch::fill_queue() {
  queue_.clear();
  const Setting& base = best_ ? *best_ : start_;
  const long at = static_cast<long>(base[knob_]);
  const long n = static_cast<long>(sizes_[knob_]);
  for (long d = 1; d < n; ++d)
    for (long i : {at - d, at + d})
      if (i >= 0 && i < n) queue_.push_back(static_cast<size_t>(i));
}

std::optional<KnobSearch::Setting> KnobSearch::next_descent() {
  if (sizes_.empty()) {
    if (started_) return std::nullopt;
    started_ = true;
    return start_;
  }
  if (!started_) {
    started_ = true;
    knob_ = 0;
    fill_queue();
    return start_;
  }
  for (;;) {
    while (!queue_.empty()) {
      Setting s = best_ ? *best_ : start_;
      s[knob_] = queue_.front();
      queue_.erase(queue_.begin());
      if (!tried_.contains(s)) return s;
    }
    if (++knob_ == sizes_.size()) {
      if (!pass_improved_) return std::nullopt;  // a whole pass found nothing better
      knob_ = 0;
      pass_improved_ = false;
    }
    fill_queue();
  }
}

}  // namespace arena
