// Seed 001's worked example (the walkthrough view's numbers): against the seed's printed
// values to 3 decimals and against exact values computed here, independently, in double.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/analysis/walkthrough.hpp"

namespace {

// The reference is written out from the rotation formula, not from core's code.
struct Exact {
  double q[4];
};
Exact seed001_exact() {
  const double c0 = std::cos(1.0), s0 = std::sin(1.0), c1 = std::cos(0.01), s1 = std::sin(0.01);
  return {{0.8 * c0 - 0.3 * s0, 0.8 * s0 + 0.3 * c0, -0.5 * c1 - 0.2 * s1, -0.5 * s1 + 0.2 * c1}};
}

TEST(Walkthrough, Step1FrequenciesAsSeed001) {
  const pe::WalkthroughResult r = pe::compute_walkthrough({});
  ASSERT_EQ(r.dim, 4);
  ASSERT_EQ(r.pairs.size(), 2u);
  EXPECT_DOUBLE_EQ(r.pairs[0].freq, 1.0);  // 1 / 10000^(0/4)
  EXPECT_NEAR(r.pairs[1].theta_power, 100.0, 1e-12);
  EXPECT_NEAR(r.pairs[1].freq, 0.010, 1e-15);  // 1 / 10000^(2/4) = 1/100
  EXPECT_EQ(pe::frequency_formula(r, r.pairs[0]), "1 / 10000^(0/4) = 1 / 1 = 1");
  EXPECT_EQ(pe::frequency_formula(r, r.pairs[1]), "1 / 10000^(2/4) = 1 / 100 = 0.01");
}

TEST(Walkthrough, Step2AnglesInRadiansAndDegrees) {
  const pe::WalkthroughResult r = pe::compute_walkthrough({});
  EXPECT_DOUBLE_EQ(r.pairs[0].angle, 1.0);
  EXPECT_NEAR(r.pairs[0].angle_deg, 57.2958, 1e-4);  // seed: ≈ 57.3°
  EXPECT_NEAR(r.pairs[1].angle, 0.01, 1e-15);
  EXPECT_NEAR(r.pairs[1].angle_deg, 0.5730, 1e-4);  // seed: ≈ 0.57°
  EXPECT_EQ(pe::angle_formula(r, r.pairs[0]), "1 · 1 = 1 rad = 57.3°");
  EXPECT_EQ(pe::angle_formula(r, r.pairs[1]), "1 · 0.01 = 0.01 rad = 0.573°");
}

TEST(Walkthrough, Step3ExactResultAndSeedsPrintedOne) {
  const pe::WalkthroughResult r = pe::compute_walkthrough({});
  const Exact e = seed001_exact();
  const double printed[] = {0.179, 0.836, -0.502, 0.195};
  for (int j = 0; j < 4; ++j) {
    EXPECT_NEAR(r.rotated[j], e.q[j], 1e-15) << "dim " << j;
    EXPECT_NEAR(r.rotated[j], printed[j], 1e-3) << "dim " << j;  // the seed is right to 3 decimals ± 1
    EXPECT_DOUBLE_EQ(r.rotated_printed[j], printed[j]) << "dim " << j << ": the seed's arithmetic reproduced";
  }
  // SEED-ERRATA 1 quotes [0.17980, 0.83527, −0.50198, 0.19500]; in double the last two are
  // −0.501975 and 0.194990 (they round to −0.50197 and 0.19499).
  EXPECT_NEAR(r.rotated[0], 0.17980, 5e-6);
  EXPECT_NEAR(r.rotated[1], 0.83527, 5e-6);
  EXPECT_NEAR(r.rotated[2], -0.501975, 1e-6);
  EXPECT_NEAR(r.rotated[3], 0.194990, 1e-6);
}

TEST(Walkthrough, SeedsRoundingIsSin1As0842) {
  // sin 1 = 0.84147: rounded once it is 0.841, the seed prints 0.842 (0.8415 rounded again).
  const pe::WalkthroughResult r = pe::compute_walkthrough({});
  EXPECT_DOUBLE_EQ(r.pairs[0].cos_printed, 0.540);
  EXPECT_DOUBLE_EQ(r.pairs[0].sin_printed, 0.842);
  EXPECT_DOUBLE_EQ(pe::round_to(std::sin(1.0), 3), 0.841);
  EXPECT_DOUBLE_EQ(r.pairs[1].cos_printed, 1.000);
  EXPECT_DOUBLE_EQ(r.pairs[1].sin_printed, 0.010);
  // Its products: 0.8·0.540 = 0.432, 0.3·0.842 = 0.253 (0.2526), 0.8·0.842 = 0.674, 0.3·0.540 = 0.162.
  EXPECT_DOUBLE_EQ(r.pairs[0].x_terms3[0], 0.432);
  EXPECT_DOUBLE_EQ(r.pairs[0].x_terms3[1], 0.253);
  EXPECT_DOUBLE_EQ(r.pairs[0].y_terms3[0], 0.674);
  EXPECT_DOUBLE_EQ(r.pairs[0].y_terms3[1], 0.162);
  // The exact result rounded once to 3 decimals differs from the print in dims 0 and 1.
  EXPECT_DOUBLE_EQ(pe::round_to(r.rotated[0], 3), 0.180);
  EXPECT_DOUBLE_EQ(pe::round_to(r.rotated[1], 3), 0.835);
}

TEST(Walkthrough, Step3FormulasCarryTheLiveNumbers) {
  const pe::WalkthroughResult r = pe::compute_walkthrough({});
  const auto f0 = pe::rotation_formulas(r.pairs[0]);
  ASSERT_EQ(f0.size(), 2u);
  EXPECT_EQ(f0[0], "0.8·cos(1) − 0.3·sin(1) = 0.8·0.5403 − 0.3·0.8415 = 0.4322 − 0.2524 = 0.1798");
  EXPECT_EQ(f0[1], "0.8·sin(1) + 0.3·cos(1) = 0.8·0.8415 + 0.3·0.5403 = 0.6732 + 0.1621 = 0.8353");
  const auto f1 = pe::rotation_formulas(r.pairs[1]);
  EXPECT_EQ(f1[0], "−0.5·cos(0.01) − 0.2·sin(0.01) = −0.5·1 − 0.2·0.01 = −0.5 − 0.002 = −0.502");
  EXPECT_EQ(f1[1], "−0.5·sin(0.01) + 0.2·cos(0.01) = −0.5·0.01 + 0.2·1 = −0.005 + 0.2 = 0.195");
  // Negative factors are parenthesised.
  pe::WalkthroughInput in;
  in.q = {0.5, -0.25};
  in.position = 2;
  const auto fn = pe::rotation_formulas(pe::compute_walkthrough(in).pairs[0]);
  EXPECT_TRUE(fn[0].starts_with("0.5·cos(2) − (−0.25)·sin(2) = ")) << fn[0];
  EXPECT_NE(fn[0].find("0.5·(−0.4161)"), std::string::npos) << fn[0];
}

TEST(Walkthrough, Step4AngleDifferences) {
  const pe::WalkthroughResult r = pe::compute_walkthrough({});
  EXPECT_DOUBLE_EQ(r.pairs[0].angle_b, 3.0);
  EXPECT_NEAR(r.pairs[1].angle_b, 0.03, 1e-15);
  EXPECT_DOUBLE_EQ(r.pairs[0].delta_angle, 2.0);   // seed: Δθ₀ = 2.0 rad
  EXPECT_NEAR(r.pairs[1].delta_angle, 0.02, 1e-15);  // seed: Δθ₁ = 0.02 rad
}

TEST(Walkthrough, Step5ScoreDependsOnlyOnTheDifference) {
  const pe::WalkthroughResult r = pe::compute_walkthrough({});
  // k = q: each pair contributes |pair|²·cos(Δangle): (0.64 + 0.09)·cos 2 + (0.25 + 0.04)·cos 0.02.
  const double expected = 0.73 * std::cos(2.0) + 0.29 * std::cos(0.02);
  EXPECT_NEAR(r.score, expected, 1e-14);
  EXPECT_NEAR(r.score_closed_form, expected, 1e-14);
  EXPECT_NEAR(r.score_shifted, expected, 1e-14);  // (11, 13): the same distance
  EXPECT_NEAR(r.score_shifted, r.score, 1e-14);
  // One more position apart, (1, 4): a different score.
  EXPECT_NEAR(r.score_other_distance, 0.73 * std::cos(3.0) + 0.29 * std::cos(0.03), 1e-14);
  EXPECT_GT(std::fabs(r.score_other_distance - r.score), 0.1);
  for (const auto& w : r.pairs) EXPECT_NEAR(w.score_term, w.score_term_shifted, 1e-14);
}

TEST(Walkthrough, LargerDimsAndPositions) {
  pe::WalkthroughInput in;
  in.q = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6};
  in.theta = 500000.0;
  in.position = 1000;
  in.position_b = 1234;
  const pe::WalkthroughResult r = pe::compute_walkthrough(in);
  ASSERT_EQ(r.pairs.size(), 8u);
  double norm_before = 0, norm_after = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    const auto& w = r.pairs[i];
    const double f = std::exp(-(2.0 * double(i) / 16.0) * std::log(500000.0));
    EXPECT_NEAR(w.freq, f, 1e-15 * std::max(1.0, f) + 1e-17);
    EXPECT_NEAR(w.delta_angle, 234.0 * f, 1e-10);
    norm_before += w.x * w.x + w.y * w.y;
    norm_after += w.x_rot * w.x_rot + w.y_rot * w.y_rot;
  }
  EXPECT_NEAR(norm_after, norm_before, 1e-12);  // a rotation
  EXPECT_NEAR(r.score, r.score_shifted, 1e-9);
  EXPECT_NEAR(r.score, r.score_closed_form, 1e-9);
}

TEST(Walkthrough, RejectsBadInputsNamingTheParameter) {
  auto param = [](const pe::WalkthroughInput& in) {
    try {
      pe::compute_walkthrough(in);
    } catch (const pe::InvalidArgument& e) {
      return e.parameter();
    }
    return std::string("(accepted)");
  };
  pe::WalkthroughInput in;
  in.q = {1.0, 2.0, 3.0};
  EXPECT_EQ(param(in), "walkthrough_q");
  in.q = {};
  EXPECT_EQ(param(in), "walkthrough_q");
  in.q = {1.0, NAN};
  EXPECT_EQ(param(in), "walkthrough_q");
  in = {};
  in.theta = 1.0;
  EXPECT_EQ(param(in), "walkthrough_theta");
  in = {};
  in.position = -1;
  EXPECT_EQ(param(in), "walkthrough_position");
  in = {};
  in.position_b = -3;
  EXPECT_EQ(param(in), "walkthrough_position_b");
}

TEST(Walkthrough, ShortNumbers) {
  EXPECT_EQ(pe::short_number(1.0), "1");
  EXPECT_EQ(pe::short_number(0.01), "0.01");
  EXPECT_EQ(pe::short_number(std::cos(1.0)), "0.5403");
  EXPECT_EQ(pe::short_number(10000.0), "10000");
  EXPECT_EQ(pe::short_number(std::pow(10000.0, 14.0 / 16.0)), "3162");
  EXPECT_EQ(pe::short_number(-0.5), "−0.5");
  EXPECT_EQ(pe::short_number(-0.0), "0");
}

}  // namespace
