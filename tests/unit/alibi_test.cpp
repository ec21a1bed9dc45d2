// ALiBi slopes (Press et al. 2022) and the causal bias matrix.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pe/encodings/alibi.hpp"
#include "pe/base/errors.hpp"

namespace {

TEST(Alibi, EightHeadsAreHalfToOne256th) {
  const Eigen::ArrayXd s = pe::alibi_slopes(8);
  ASSERT_EQ(s.size(), 8);
  for (int h = 0; h < 8; ++h) EXPECT_DOUBLE_EQ(s[h], 1.0 / std::pow(2.0, h + 1));
}

TEST(Alibi, SixteenHeadsStartAtOneOverSqrtTwo) {
  const Eigen::ArrayXd s = pe::alibi_slopes(16);
  for (int h = 1; h <= 16; ++h) EXPECT_NEAR(s[h - 1], std::pow(2.0, -0.5 * h), 1e-15);
}

TEST(Alibi, TwelveHeadsFollowThePaperRule) {
  // Closest lower power of two: 8 → 1/2 ... 1/256. The 4 extra heads take the 16-head
  // slopes 2^(−h/2) at indices 0, 2, 4, 6, i.e. h = 1, 3, 5, 7.
  const Eigen::ArrayXd s = pe::alibi_slopes(12);
  ASSERT_EQ(s.size(), 12);
  const double expected[] = {0.5,    0.25,    0.125,   0.0625,  0.03125, 0.015625,
                             1.0 / 128, 1.0 / 256, std::pow(2.0, -0.5), std::pow(2.0, -1.5),
                             std::pow(2.0, -2.5), std::pow(2.0, -3.5)};
  for (int h = 0; h < 12; ++h) EXPECT_NEAR(s[h], expected[h], 1e-15) << "head " << h;
}

TEST(Alibi, OtherCounts) {
  EXPECT_DOUBLE_EQ(pe::alibi_slopes(1)[0], 1.0 / 256.0);  // 2^(−8/1)
  const Eigen::ArrayXd three = pe::alibi_slopes(3);  // 2 heads: 1/16, 1/256; then 4-head index 0: 1/4
  ASSERT_EQ(three.size(), 3);
  EXPECT_DOUBLE_EQ(three[0], 1.0 / 16.0);
  EXPECT_DOUBLE_EQ(three[1], 1.0 / 256.0);
  EXPECT_DOUBLE_EQ(three[2], 0.25);
  const Eigen::ArrayXd s = pe::alibi_slopes(1000);
  EXPECT_TRUE((s > 0.0).all() && (s < 1.0).all());
}

TEST(Alibi, RejectsBadHeadCounts) {
  EXPECT_THROW(pe::alibi_slopes(0), pe::InvalidArgument);
  EXPECT_THROW(pe::alibi_slopes(-8), pe::InvalidArgument);
  EXPECT_THROW(pe::alibi_slopes(1LL << 40), pe::InvalidArgument);
}

TEST(Alibi, CausalBias) {
  const pe::TableF b = pe::alibi_bias(0.5, 4);
  for (int m = 0; m < 4; ++m) {
    for (int n = 0; n < 4; ++n) {
      if (n > m) {
        EXPECT_EQ(b(m, n), -std::numeric_limits<float>::infinity());
      } else {
        EXPECT_FLOAT_EQ(b(m, n), -0.5f * static_cast<float>(m - n));
      }
    }
  }
  EXPECT_FALSE(std::signbit(b(2, 2)));  // the diagonal is +0
}

TEST(Alibi, RejectsBadBiasInput) {
  EXPECT_THROW(pe::alibi_bias(std::nan(""), 4), pe::InvalidArgument);
  EXPECT_THROW(pe::alibi_bias(-0.5, 4), pe::InvalidArgument);
  EXPECT_THROW(pe::alibi_bias(0.5, 0), pe::InvalidArgument);
  EXPECT_THROW(pe::alibi_bias(0.5, 1'000'000'000), pe::MemoryBudgetExceeded);
}

}  // namespace
