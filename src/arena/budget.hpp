// The round budget of an episode: how many evaluations the agent may ask for. The server refuses
// any past the limit; a round the harness failed to judge is given back.
#pragma once

namespace arena {

class RoundBudget {
 public:
  explicit RoundBudget(int limit) : limit_(limit) {}
  // Takes the next round; false when all are used (and counts the refusal).
  bool take() {
    if (used_ >= limit_) {
      ++refused_;
      return false;
    }
    ++used_;
    return true;
  }
  void give_back() { --used_; }
  int limit() const { return limit_; }
  int used() const { return used_; }
  int left() const { return limit_ - used_; }
  int refused() const { return refused_; }

 private:
  int limit_;
  int used_ = 0;
  int refused_ = 0;
};

}  // namespace arena
