#include "agents/knob_search.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <set>

namespace arena {
namespace {

using Setting = KnobSearch::Setting;

// Runs the search to its end (or `rounds` settings), each setting scored by `score`.
std::vector<Setting> drive(KnobSearch& search, int rounds,
                           const std::function<std::optional<double>(const Setting&)>& score) {
  std::vector<Setting> order;
  while (static_cast<int>(order.size()) < rounds) {
    auto s = search.next();
    if (!s) break;
    order.push_back(*s);
    search.report(*s, score(*s));
  }
  return order;
}

TEST(KnobSearch, AGridThatFitsTheBudgetIsTriedWholeDeclaredSettingFirst) {
  KnobSearch search({2, 3}, {1, 2}, 6);
  EXPECT_TRUE(search.exhaustive());
  EXPECT_EQ(search.grid_size(), 6u);
  auto order = drive(search, 100, [](const Setting&) { return 1.0; });
  EXPECT_EQ(order, (std::vector<Setting>{{1, 2}, {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}}));
}

TEST(KnobSearch, TheBestIsTheHighestCorrectSpeedupEarliestOnTies) {
  KnobSearch search({4}, {0}, 4);
  drive(search, 100, [](const Setting& s) -> std::optional<double> {
    if (s[0] == 3) return std::nullopt;  // wrong: never the best, whatever its speed
    return s[0] == 0 ? 1.0 : 2.0;
  });
  ASSERT_TRUE(search.best());
  EXPECT_EQ(*search.best(), (Setting{1}));
  EXPECT_EQ(*search.best_speedup(), 2.0);
}

TEST(KnobSearch, NothingCorrectLeavesNoBest) {
  KnobSearch search({3}, {1}, 10);
  drive(search, 100, [](const Setting&) { return std::nullopt; });
  EXPECT_FALSE(search.best());
}

TEST(KnobSearch, ALargerGridIsWalkedByCoordinateDescentNearestFirst) {
  // Two knobs of 5 candidates, 25 settings, 8 rounds: descent from the declared (2, 2).
  KnobSearch search({5, 5}, {2, 2}, 8);
  EXPECT_FALSE(search.exhaustive());
  // Faster with a larger first knob and a smaller second one.
  auto order = drive(search, 100, [](const Setting& s) { return 1.0 + double(s[0]) - 0.1 * double(s[1]); });
  ASSERT_GE(order.size(), 5u);
  EXPECT_EQ(order[0], (Setting{2, 2}));
  EXPECT_EQ(order[1], (Setting{1, 2}));  // one step down
  EXPECT_EQ(order[2], (Setting{3, 2}));  // one step up: better, the base moves
  EXPECT_EQ(order[3], (Setting{0, 2}));  // two steps down from the declared value
  EXPECT_EQ(order[4], (Setting{4, 2}));  // two steps up: better again
  // Then the second knob around (4, 2), and the search ends at the best corner.
  EXPECT_EQ(order[5], (Setting{4, 1}));
  EXPECT_EQ(*search.best(), (Setting{4, 0}));
  std::set<Setting> distinct(order.begin(), order.end());
  EXPECT_EQ(distinct.size(), order.size()) << "a setting was tried twice";
}

TEST(KnobSearch, DescentStopsAfterAPassThatFindsNothingBetter) {
  KnobSearch search({3, 3, 3}, {1, 1, 1}, 4);
  auto order = drive(search, 100, [](const Setting& s) { return s == Setting{1, 1, 1} ? 2.0 : 1.0; });
  EXPECT_EQ(order.size(), 7u);  // the declared setting and both neighbours of each knob
  EXPECT_EQ(*search.best(), (Setting{1, 1, 1}));
}

TEST(KnobSearch, TheSameResultsGiveTheSameOrder) {
  auto score = [](const Setting& s) { return 1.0 + double((s[0] * 7 + s[1] * 3) % 5); };
  KnobSearch a({6, 6}, {0, 3}, 5), b({6, 6}, {0, 3}, 5);
  EXPECT_EQ(drive(a, 100, score), drive(b, 100, score));
}

}  // namespace
}  // namespace arena
