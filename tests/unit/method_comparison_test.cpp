// The comparison table's measurements against values computed here from the formulas.
#include "pe/analysis/method_comparison.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "pe/base/errors.hpp"

namespace {

pe::MethodComparisonParams seed004_example() {
  pe::MethodComparisonParams p;
  p.dim = 768;      // seed 004 §6: d_model = 768, max_len = 512
  p.max_len = 512;
  p.trials = 64;
  return p;
}

// Independent count of unseen angles (SEED-ERRATA 5): pair i has seen the arc
// [0, (L−1)θ_i] in training; at inference p < 2L, angle p·θ_i mod 2π is unseen when the
// arc is not the whole circle and the angle lies past its end.
double unseen_fraction(long long dim, double theta, long long L) {
  const long long pairs = dim / 2;
  double total = 0;
  for (long long i = 0; i < pairs; ++i) {
    const double w = std::pow(theta, -2.0 * double(i) / double(dim));
    const double arc = double(L - 1) * w;
    if (arc >= 2 * std::numbers::pi) continue;
    long long unseen = 0;
    for (long long p = 0; p < 2 * L; ++p) {
      const double phi = std::fmod(double(p) * w, 2 * std::numbers::pi);
      if (phi > arc + 1e-9 && phi < 2 * std::numbers::pi - 1e-9) ++unseen;
    }
    total += double(unseen) / double(2 * L);
  }
  return total / double(pairs);
}

TEST(MethodComparison, ParameterCountsOfSeed004Example) {
  const auto r = pe::compare_methods(seed004_example());
  EXPECT_EQ(r[1].trainable_parameters, 393216);  // 512 × 768, seed 004's bar
  EXPECT_EQ(r[0].trainable_parameters, 0);
  EXPECT_EQ(r[2].trainable_parameters, 0);
  EXPECT_EQ(r[3].trainable_parameters, 0);
  // What is cached is as large as the learned table for sinusoidal and RoPE (cos + sin).
  EXPECT_EQ(r[0].cached_values, 393216);
  EXPECT_EQ(r[2].cached_values, 393216);
  EXPECT_EQ(r[3].cached_values, 8);  // one slope per head
  EXPECT_EQ(r[2].flops_per_token, 6 * 768);
}

TEST(MethodComparison, OnlyRopeAndAlibiAreRelative) {
  for (long long dim : {8, 64, 128}) {
    pe::MethodComparisonParams p;
    p.dim = dim;
    p.max_len = 256;
    const auto r = pe::compare_methods(p);
    EXPECT_FALSE(r[0].is_relative) << "sinusoidal, d " << dim;  // content × position cross terms
    EXPECT_GT(r[0].relative_deviation, 0.05 * r[0].score_rms);
    EXPECT_FALSE(r[1].is_relative) << "learned, d " << dim;
    EXPECT_GT(r[1].relative_deviation, 1e-4);
    EXPECT_TRUE(r[2].is_relative) << "rope, d " << dim << ": " << r[2].relative_deviation;
    EXPECT_LT(r[2].relative_deviation, 1e-12);
    EXPECT_EQ(r[3].relative_deviation, 0.0);  // the bias is a function of |m − n| only
    EXPECT_TRUE(r[3].is_relative);
    EXPECT_EQ(r[2].positions_checked, 256);
  }
}

TEST(MethodComparison, PastTheTrainingLength) {
  const auto p = seed004_example();
  const auto r = pe::compare_methods(p);
  EXPECT_FALSE(r[1].defined_past_training);
  EXPECT_NE(r[1].past_training_error.find("1023"), std::string::npos) << r[1].past_training_error;
  EXPECT_NE(r[1].past_training_error.find("512"), std::string::npos);
  EXPECT_TRUE(r[0].defined_past_training);
  EXPECT_TRUE(r[2].defined_past_training);
  const double expected = unseen_fraction(768, 10000.0, 512);
  EXPECT_GT(expected, 0.05);  // "excellent extrapolation" is not what happens
  EXPECT_NEAR(r[2].unseen_angle_fraction, expected, 1e-3);
  EXPECT_NEAR(r[0].unseen_angle_fraction, expected, 1e-3);  // same frequencies as RoPE at even d
  EXPECT_EQ(r[2].pairs, 384);
  EXPECT_DOUBLE_EQ(r[3].bias_at_training_end, -0.5 * 511);
  EXPECT_DOUBLE_EQ(r[3].bias_at_double, -0.5 * 1023);
}

TEST(MethodComparison, RejectsBadInput) {
  auto p = seed004_example();
  p.dim = 7;
  EXPECT_THROW(pe::compare_methods(p), pe::InvalidArgument);
  p = seed004_example();
  p.max_len = 1;
  EXPECT_THROW(pe::compare_methods(p), pe::InvalidArgument);
  p = seed004_example();
  p.trials = 0;
  EXPECT_THROW(pe::compare_methods(p), pe::InvalidArgument);
}

}  // namespace
