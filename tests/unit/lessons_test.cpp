// The theta lesson's and the conventions view's numbers (pe/analysis/teaching_numbers.hpp), against formulas
// written out here.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "pe/base/errors.hpp"
#include "pe/analysis/teaching_numbers.hpp"

namespace {

TEST(ThetaLesson, LongestWavelengthIsTwoPiThetaToTheDMinus2OverD) {
  // SEED-ERRATA 2: θ = 100 at d = 128 wraps after 2π·100^(126/128) ≈ 585 positions.
  const pe::ThetaWavelengths low = pe::theta_wavelengths(100.0, 128, 4096);
  EXPECT_NEAR(low.longest_wavelength, 2 * std::numbers::pi * std::pow(100.0, 126.0 / 128.0), 1e-9);
  EXPECT_NEAR(low.longest_wavelength, 584.7, 0.1);
  EXPECT_EQ(low.pairs, 64);
  EXPECT_EQ(low.pairs_wrapping, 64);  // every pair turns fully inside 4096 positions
  const pe::ThetaWavelengths high = pe::theta_wavelengths(1e6, 128, 4096);
  EXPECT_NEAR(high.longest_wavelength, 2 * std::numbers::pi * std::pow(1e6, 126.0 / 128.0), 1e-3);
  EXPECT_GT(high.longest_wavelength, 4096.0 * 100);
  // λ_i < 4096 ⇔ 2π·10^(6·2i/128) < 4096 ⇔ i < (128/12)·log10(4096/2π).
  const long long expected = static_cast<long long>(std::ceil(128.0 / 12.0 * std::log10(4096.0 / (2 * std::numbers::pi))));
  EXPECT_EQ(high.pairs_wrapping, expected);
  EXPECT_LT(high.pairs_wrapping, low.pairs_wrapping);
  EXPECT_NEAR(low.slowest_turns, 4096.0 / low.longest_wavelength, 1e-12);
}

TEST(ThetaLesson, DefaultsOfTheView) {
  // θ_low = 100, θ_high = 100000 at the app's d = 64, L = 128.
  const auto low = pe::theta_wavelengths(100.0, 64, 128), high = pe::theta_wavelengths(1e5, 64, 128);
  auto count = [](double theta) {
    long long n = 0;
    for (int i = 0; i < 32; ++i) n += 2 * std::numbers::pi * std::pow(theta, 2.0 * i / 64.0) < 128.0 ? 1 : 0;
    return n;
  };
  EXPECT_EQ(low.pairs_wrapping, count(100.0));
  EXPECT_EQ(high.pairs_wrapping, count(1e5));
  EXPECT_EQ(low.pairs_wrapping, 21);
  EXPECT_EQ(high.pairs_wrapping, 9);
}

TEST(ThetaLesson, MeanIdenticalScore) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(8, 100.0);
  Eigen::ArrayXd deltas(3);
  deltas << 0.0, 1.0, 50.0;
  const Eigen::ArrayXd s = pe::mean_identical_score(inv, deltas);
  EXPECT_DOUBLE_EQ(s[0], 1.0);
  for (int k = 1; k < 3; ++k) {
    double sum = 0;
    for (int i = 0; i < 4; ++i) sum += std::cos(deltas[k] * std::pow(100.0, -2.0 * i / 8.0));
    EXPECT_NEAR(s[k], sum / 4.0, 1e-14);
  }
}

TEST(ThetaLesson, RejectsBadTheta) {
  try {
    pe::theta_wavelengths(1.0, 64, 128, "theta_low");
    FAIL();
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "theta_low");
  }
}

TEST(Conventions, PermutationMovesPairsTogether) {
  const auto c = pe::convention_check(10000.0, 8, 1, 0, {1});
  // Interleaved pair i = (2i, 2i+1) → half-split pair i = (i, i + 4).
  const std::vector<long long> expected = {0, 4, 1, 5, 2, 6, 3, 7};
  EXPECT_EQ(c.permutation, expected);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(c.q_half[expected[j]], c.q[j]);
}

TEST(Conventions, ScoresAgreeAfterPermutationAndMixingDiffers) {
  for (long long dim : {4LL, 16LL, 64LL, 128LL}) {
    const auto c = pe::convention_check(10000.0, dim, 7, 3, {0, 1, 5, 100, 1000});
    ASSERT_EQ(c.scores.size(), 5u);
    const Eigen::ArrayXd inv = pe::inverse_frequencies(dim, 10000.0);
    for (const auto& s : c.scores) {
      // Reference written out: Σ_i (u1v1 + u2v2)·cos(Δθ_i) + (u2v1 − u1v2)·sin(Δθ_i), interleaved pairs.
      double ref = 0;
      for (long long i = 0; i < dim / 2; ++i) {
        const double u1 = c.q[2 * i], u2 = c.q[2 * i + 1], v1 = c.k[2 * i], v2 = c.k[2 * i + 1];
        const double a = double(s.delta) * inv[i];
        ref += (u1 * v1 + u2 * v2) * std::cos(a) + (u2 * v1 - u1 * v2) * std::sin(a);
      }
      EXPECT_NEAR(s.interleaved, ref, 1e-10 * std::max(1.0, std::fabs(ref)));
      EXPECT_LT(s.difference, 1e-12 * std::max(1.0, std::fabs(ref))) << "dim " << dim << " Δ " << s.delta;
      EXPECT_EQ(s.n, s.m + s.delta);
      if (s.delta != 0) {
        EXPECT_GT(std::fabs(s.mixed - s.interleaved), 1e-3) << "dim " << dim << " Δ " << s.delta;
      }
    }
    // At Δ = 0 every rotation cancels: all three are q·k.
    EXPECT_NEAR(c.scores[0].mixed, c.q.dot(c.k), 1e-12);
  }
}

}  // namespace
