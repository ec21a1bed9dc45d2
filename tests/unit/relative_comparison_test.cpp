// The distance comparison: one axis for every family, past the training length. Values are
// re-derived here from each family's published formula.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/relative/distance_comparison.hpp"
#include "pe/scaling/extrapolation.hpp"

namespace {

long long index_of(const Eigen::ArrayXd& d, double value) {
  for (Eigen::Index i = 0; i < d.size(); ++i)
    if (d[i] == value) return i;
  return -1;
}

TEST(DistanceComparison, DistancesSampleAndIncludeTheTrainingEnd) {
  const Eigen::ArrayXd all = pe::comparison_distances(10, 100, 4);
  ASSERT_EQ(all.size(), 10);
  EXPECT_EQ(all[9], 9.0);
  const Eigen::ArrayXd some = pe::comparison_distances(1'000'000, 100, 513);
  EXPECT_EQ(some[0], 0.0);
  EXPECT_EQ(some[some.size() - 1], 999'999.0);
  EXPECT_GE(index_of(some, 512.0), 0);
  EXPECT_GE(index_of(some, 513.0), 0);
  EXPECT_LE(some.size(), 102);
  for (Eigen::Index i = 1; i < some.size(); ++i) EXPECT_LT(some[i - 1], some[i]);
}

// RoPE's sentence counts the pairs that meet an unseen angle past L_train: the same count as
// extrapolation_report's full tally, though the comparison only looks for each pair's first.
TEST(DistanceComparison, RopeSentenceCountsThePairsExtrapolationCounts) {
  for (const double theta : {100.0, 1e4, 1e6}) {
    for (const long long length : {600LL, 100'000LL}) {
      pe::DistanceComparisonParams p;
      p.dim = 64;
      p.theta = theta;
      p.length = length;
      p.samples = 64;
      const pe::DistanceComparison c = pe::compare_distance_curves(p);
      const Eigen::ArrayXd f = pe::inverse_frequencies(64, theta);
      const long long expected = pe::extrapolation_report(f, p.training_length, f, length).pairs_with_unseen;
      const std::string& text = c.curves[std::size_t(c.find("rope"))].past_training;
      EXPECT_NE(text.find("; " + std::to_string(expected) + " of 32 pairs"), std::string::npos)
          << "theta " << theta << ", L " << length << ": " << text;
    }
  }
}

// Reusing the last comparison while θ is dragged gives what a fresh one gives, and any other
// parameter's change is not mistaken for θ's (xPos's scale_base here: its curve must move).
TEST(DistanceComparison, ReuseAcrossThetaMatchesAFreshComparison) {
  pe::DistanceComparisonParams p;
  p.dim = 128;
  p.samples = 300;
  p.length = 50'000;
  const pe::DistanceComparison first = pe::compare_distance_curves(p);
  auto expect_same = [](const pe::DistanceComparison& a, const pe::DistanceComparison& b) {
    ASSERT_EQ(a.curves.size(), b.curves.size());
    ASSERT_EQ(a.distance.size(), b.distance.size());
    EXPECT_TRUE((a.distance == b.distance).all());
    for (std::size_t k = 0; k < a.curves.size(); ++k) {
      EXPECT_EQ(a.curves[k].label, b.curves[k].label);
      EXPECT_EQ(a.curves[k].past_training, b.curves[k].past_training);
      EXPECT_TRUE((a.curves[k].value == b.curves[k].value).all()) << a.curves[k].key;
      EXPECT_TRUE((a.curves[k].normalised == b.curves[k].normalised).all()) << a.curves[k].key;
    }
  };
  for (const double theta : {500.0, 1e6}) {
    pe::DistanceComparisonParams q = p;
    q.theta = theta;
    const pe::DistanceComparison reused = pe::compare_distance_curves(q, first);
    EXPECT_TRUE(reused.params == q);
    expect_same(reused, pe::compare_distance_curves(q));
    const long long rope = first.find("rope");
    EXPECT_FALSE((reused.curves[std::size_t(rope)].value == first.curves[std::size_t(rope)].value).all()) << theta;
  }
  pe::DistanceComparisonParams other = p;
  other.theta = 1e5;
  other.scale_base = 64.0;
  const pe::DistanceComparison moved = pe::compare_distance_curves(other, first);
  expect_same(moved, pe::compare_distance_curves(other));
  const std::size_t xpos = std::size_t(first.find("xpos"));
  EXPECT_LT(moved.curves[xpos].at_end, first.curves[xpos].at_end);
  // A bad θ is refused on the reusing path too.
  other = p;
  other.theta = 0.5;
  EXPECT_THROW(pe::compare_distance_curves(other, first), pe::InvalidArgument);
}

TEST(DistanceComparison, EveryFamilyOnOneAxis) {
  pe::DistanceComparisonParams p;  // L_train 512, distances to 2047, 8 heads, d = 64
  p.samples = 4096;                // every distance, so index = distance
  const pe::DistanceComparison c = pe::compare_distance_curves(p);
  const char* keys[] = {"alibi", "t5", "kerple-log", "kerple-power", "sandwich", "fire", "xpos", "rope", "nope"};
  ASSERT_EQ(c.curves.size(), 9u);
  for (int k = 0; k < 9; ++k) {
    EXPECT_EQ(c.curves[k].key, keys[k]);
    EXPECT_EQ(c.find(keys[k]), k);
    EXPECT_EQ(c.curves[k].value.size(), c.distance.size());
    EXPECT_FALSE(c.curves[k].past_training.empty());
    EXPECT_TRUE(c.curves[k].value.isFinite().all()) << keys[k];
  }
  ASSERT_EQ(c.distance.size(), 2048);  // 2048 <= samples: every distance
  const long long end = 511, last = 2047;

  const pe::DistanceCurve& alibi = c.curves[0];  // slope of head 1 of 8: 1/2
  EXPECT_DOUBLE_EQ(alibi.value[end], -255.5);
  EXPECT_DOUBLE_EQ(alibi.at_end, -1023.5);
  EXPECT_DOUBLE_EQ(alibi.normalised[end], -1.0);
  EXPECT_NEAR(alibi.normalised[last], -2047.0 / 511.0, 1e-12);  // keeps going past −1

  const pe::DistanceCurve& t5 = c.curves[1];  // causal (32, 128): last bucket from distance 113
  EXPECT_TRUE(t5.illustrative);
  EXPECT_EQ(t5.value[113], t5.value[last]);
  EXPECT_NE(t5.value[112], t5.value[113]);
  EXPECT_NEAR(t5.value[113], -(1.0 / 8.0) * std::log(114.0), 1e-12);  // head 1 of 8, nearest distance 113

  EXPECT_NEAR(c.curves[2].value[end], -std::log(512.0), 1e-12);        // −1·log(1 + 511)
  EXPECT_NEAR(c.curves[3].value[last], -std::sqrt(2047.0), 1e-12);     // −1·2047^0.5

  const pe::DistanceCurve& fire = c.curves[5];  // query at 2047 > L = 512
  EXPECT_TRUE(fire.illustrative);
  EXPECT_NEAR(fire.value[end], std::log(512.0) / std::log(2048.0), 1e-12);
  EXPECT_DOUBLE_EQ(fire.at_end, 1.0);
  EXPECT_LE(fire.value.maxCoeff(), 1.0);

  const pe::DistanceCurve& xpos = c.curves[6];
  EXPECT_EQ(xpos.value[0], 1.0);
  double expected = 0;  // mean over pairs of ζ_i^(511/512), d = 64
  for (int i = 0; i < 32; ++i) expected += std::pow((2.0 * i + 25.6) / 89.6, 511.0 / 512.0) / 32.0;
  EXPECT_NEAR(xpos.value[end], expected, 1e-12);

  const pe::DistanceCurve& rope = c.curves[7];
  EXPECT_NEAR(rope.value[0], 1.0, 1e-15);
  double mean_cos = 0;
  for (int i = 0; i < 32; ++i) mean_cos += std::cos(100.0 * std::pow(10000.0, -2.0 * i / 64.0)) / 32.0;
  EXPECT_NEAR(rope.value[100], mean_cos, 1e-12);

  const pe::DistanceCurve& nope = c.curves[8];
  EXPECT_TRUE((nope.value == 0.0).all());
  EXPECT_TRUE((nope.normalised == 0.0).all());
  EXPECT_NE(nope.past_training.find("1/(t+1)"), std::string::npos);
}

TEST(DistanceComparison, NormalisedRunsToAtMostOneInsideTraining) {
  pe::DistanceComparisonParams p;
  p.training_length = 100;
  p.length = 5000;
  p.samples = 300;
  const pe::DistanceComparison c = pe::compare_distance_curves(p);
  for (const pe::DistanceCurve& curve : c.curves) {
    double inside = 0;
    for (Eigen::Index i = 0; i < c.distance.size(); ++i)
      if (c.distance[i] < 100) inside = std::max(inside, std::abs(curve.normalised[i]));
    if (curve.key == "nope") EXPECT_EQ(inside, 0.0);
    else EXPECT_NEAR(inside, 1.0, 1e-12) << curve.key;
  }
}

TEST(DistanceComparison, RefusesBadParameters) {
  auto parameter_of = [](pe::DistanceComparisonParams p) -> std::string {
    try {
      pe::compare_distance_curves(p);
    } catch (const pe::InvalidArgument& e) {
      return e.parameter();
    }
    return "(accepted)";
  };
  pe::DistanceComparisonParams p;
  p.training_length = 1;
  EXPECT_EQ(parameter_of(p), "training_length");
  p = {};
  p.head = 9;
  EXPECT_EQ(parameter_of(p), "head");
  p = {};
  p.t5.max_distance = 16;
  EXPECT_EQ(parameter_of(p), "max_distance");
  p = {};
  p.kerple_power.r2 = 2.5;
  EXPECT_EQ(parameter_of(p), "r2");
  p = {};
  p.scale_base = 0;
  EXPECT_EQ(parameter_of(p), "scale_base");
  p = {};
  p.dim = 63;
  EXPECT_EQ(parameter_of(p), "dim");
  p = {};
  p.fire.fire_c = -1;
  EXPECT_EQ(parameter_of(p), "fire_c");
}

}  // namespace
