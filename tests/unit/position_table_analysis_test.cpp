// The analysis of learned position tables against values worked out independently: the
// transformer's sinusoidal table has a closed-form similarity (2/d)·Σ_i cos(ω_i (p − q)),
// tables built from known sinusoids have their amplitudes at known DFT bins, and tables of
// known low rank have known principal components.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "pe/analysis/position_table_analysis.hpp"
#include "pe/base/errors.hpp"

namespace {

using pe::MatrixF;
constexpr double kPi = std::numbers::pi;

// Vaswani et al.'s table: dims 2i, 2i+1 = sin, cos of p · 10000^(−2i/d).
MatrixF sinusoidal_table(long long P, long long d) {
  MatrixF t(P, d);
  for (long long p = 0; p < P; ++p)
    for (long long i = 0; i < d / 2; ++i) {
      const double w = std::pow(10000.0, -2.0 * double(i) / double(d));
      t(p, 2 * i) = static_cast<float>(std::sin(double(p) * w));
      t(p, 2 * i + 1) = static_cast<float>(std::cos(double(p) * w));
    }
  return t;
}

TEST(PositionCosineSimilarity, SinusoidalTableMatchesTheClosedFormAndIsABand) {
  const long long P = 96, d = 32;
  const pe::TableF s = pe::position_cosine_similarity(sinusoidal_table(P, d));
  ASSERT_EQ(s.rows(), P);
  ASSERT_EQ(s.cols(), P);
  for (long long p = 0; p < P; ++p)
    for (long long q = 0; q < P; ++q) {
      double expected = 0;  // e_p·e_q = Σ_i cos(ω_i (p − q)), ‖e_p‖² = d/2
      for (long long i = 0; i < d / 2; ++i) expected += std::cos(double(p - q) * std::pow(10000.0, -2.0 * double(i) / double(d)));
      expected *= 2.0 / double(d);
      ASSERT_NEAR(s(p, q), expected, 2e-6) << p << ", " << q;
    }
  // The bright band: a position looks most like itself, then its nearest neighbours, and
  // less like every position two or more steps away.
  for (long long p = 0; p < P; ++p)
    for (long long q = 0; q < P; ++q) {
      const long long gap = std::llabs(p - q);
      if (gap >= 1) {
        EXPECT_LT(s(p, q), s(p, p));
      }
      if (gap >= 2) {
        EXPECT_LT(s(p, q), s(p, p + (q > p ? 1 : -1))) << p << ", " << q;
      }
    }
}

TEST(PositionCosineSimilarity, MeanByDistanceOfAHandWorkedMatrix) {
  pe::TableF s(3, 3);
  s << 1, 0.5, 0.25, 0.5, 1, -0.5, 0.25, -0.5, 1;
  const Eigen::VectorXd m = pe::mean_similarity_by_distance(s);
  ASSERT_EQ(m.size(), 3);
  EXPECT_DOUBLE_EQ(m(0), 1.0);
  EXPECT_DOUBLE_EQ(m(1), 0.0);   // (0.5 − 0.5) / 2
  EXPECT_DOUBLE_EQ(m(2), 0.25);
  EXPECT_THROW(pe::mean_similarity_by_distance(pe::TableF(2, 3)), pe::InvalidArgument);
}

TEST(PositionCosineSimilarity, HandWorkedRowsAndAZeroRow) {
  MatrixF t(4, 2);
  t << 1, 0, 0, 2, 3, 3, 0, 0;
  const pe::TableF s = pe::position_cosine_similarity(t);
  EXPECT_FLOAT_EQ(s(0, 0), 1.0f);
  EXPECT_FLOAT_EQ(s(0, 1), 0.0f);
  EXPECT_NEAR(s(0, 2), 1.0 / std::sqrt(2.0), 1e-7);
  EXPECT_NEAR(s(2, 1), 1.0 / std::sqrt(2.0), 1e-7);
  EXPECT_EQ(s(3, 3), 0.0f);  // no direction: similar to nothing, itself included
  EXPECT_EQ(s(3, 0), 0.0f);
  EXPECT_THROW(pe::position_cosine_similarity(MatrixF(0, 3)), pe::InvalidArgument);
}

// X = a·u vᵀ + b·w zᵀ + mean, u and w orthogonal zero-mean columns, v and z orthonormal.
struct LowRank {
  MatrixF table;
  Eigen::VectorXd u, w, v, z;
  double a, b;
};

LowRank low_rank(long long P, long long d) {
  LowRank r;
  r.a = 3.0;
  r.b = 1.0;
  r.u.resize(P);
  r.w.resize(P);
  for (long long p = 0; p < P; ++p) r.u(p) = std::cos(2 * kPi * double(p) / double(P)), r.w(p) = std::sin(2 * kPi * double(p) / double(P));
  r.v = Eigen::VectorXd::Zero(d);
  r.z = Eigen::VectorXd::Zero(d);
  r.v(0) = 0.6, r.v(1) = 0.8;             // unit
  r.z(0) = -0.8, r.z(1) = 0.6, r.z(d - 1) = 0.0;  // unit, orthogonal to v
  Eigen::MatrixXd x = r.a * r.u * r.v.transpose() + r.b * r.w * r.z.transpose();
  for (long long j = 0; j < d; ++j) x.col(j).array() += 0.25 * double(j);  // a mean row to remove
  r.table = x.cast<float>();
  return r;
}

double trend_sign(const Eigen::VectorXd& s) {
  double t = 0;
  for (Eigen::Index p = 0; p < s.size(); ++p) t += (double(p) - 0.5 * double(s.size() - 1)) * s(p);
  return t > 0 ? 1.0 : -1.0;
}

void expect_low_rank_components(long long P, long long d) {
  const LowRank r = low_rank(P, d);
  const pe::PositionComponents c = pe::position_principal_components(r.table, 3);
  ASSERT_EQ(c.variance.size(), 3);
  // ‖u‖² = ‖w‖² = P/2 for P > 2: variances a²·P/2/(P − 1) and b²·P/2/(P − 1), the rest 0.
  const double v1 = r.a * r.a * double(P) / 2 / double(P - 1), v2 = r.b * r.b * double(P) / 2 / double(P - 1);
  EXPECT_NEAR(c.variance(0), v1, 1e-5 * v1);
  EXPECT_NEAR(c.variance(1), v2, 1e-5 * v1);
  EXPECT_NEAR(c.variance(2), 0.0, 1e-5 * v1);
  EXPECT_NEAR(c.total_variance, v1 + v2, 1e-5 * v1);
  EXPECT_NEAR(c.variance_share(0), v1 / (v1 + v2), 1e-6);
  for (long long j = 0; j < d; ++j) EXPECT_NEAR(c.mean(j), 0.25 * double(j), 1e-6);
  // Component 1 is ±v with scores ±a·u, oriented so the scores rise with position.
  const double s1 = trend_sign(r.a * r.u), s2 = trend_sign(r.b * r.w);
  for (long long j = 0; j < d; ++j) {
    EXPECT_NEAR(c.loadings(j, 0), s1 * r.v(j), 1e-5);
    EXPECT_NEAR(c.loadings(j, 1), s2 * r.z(j), 1e-5);
  }
  for (long long p = 0; p < P; ++p) {
    EXPECT_NEAR(c.scores(p, 0), s1 * r.a * r.u(p), 1e-5);
    EXPECT_NEAR(c.scores(p, 1), s2 * r.b * r.w(p), 1e-5);
  }
}

TEST(PositionPrincipalComponents, KnownLowRankTableMoreRowsThanDims) { expect_low_rank_components(40, 6); }
TEST(PositionPrincipalComponents, KnownLowRankTableMoreDimsThanRows) { expect_low_rank_components(5, 30); }

TEST(PositionPrincipalComponents, SignRuleMakesAFallingRampRise) {
  const long long P = 9, d = 4;
  MatrixF t(P, d);
  for (long long p = 0; p < P; ++p)
    for (long long j = 0; j < d; ++j) t(p, j) = static_cast<float>(-(double(p) - 4.0) * (j + 1));  // falls with p
  const pe::PositionComponents c = pe::position_principal_components(t, 1);
  EXPECT_LT(c.scores(0, 0), 0.0);
  EXPECT_GT(c.scores(P - 1, 0), 0.0);
  EXPECT_NEAR(c.variance_share(0), 1.0, 1e-9);
  // Loading ∝ −(1, 2, 3, 4) flipped: (−1, −2, −3, −4)/√30.
  for (long long j = 0; j < d; ++j) EXPECT_NEAR(c.loadings(j, 0), -double(j + 1) / std::sqrt(30.0), 1e-6);
}

TEST(PositionPrincipalComponents, RefusesOneRowAndBadCounts) {
  EXPECT_THROW(pe::position_principal_components(MatrixF::Ones(1, 4), 1), pe::InvalidArgument);
  EXPECT_THROW(pe::position_principal_components(MatrixF::Ones(3, 4), 0), pe::InvalidArgument);
  const pe::PositionComponents c = pe::position_principal_components(MatrixF::Random(3, 4), 10);
  EXPECT_EQ(c.variance.size(), 3);  // min(P, d)
}

TEST(DimensionSpectra, SinusoidsAtBinsHaveTheirAmplitudesThere) {
  const long long P = 64;
  MatrixF t(P, 3);
  for (long long p = 0; p < P; ++p) {
    t(p, 0) = static_cast<float>(2.0 * std::cos(2 * kPi * 5.0 * double(p) / double(P) + 0.3));
    t(p, 1) = static_cast<float>(0.5 * std::sin(2 * kPi * 12.0 * double(p) / double(P)) + 7.0);
    t(p, 2) = static_cast<float>(p % 2 == 0 ? 1.0 : -1.0);  // f = 0.5
  }
  const pe::DimensionSpectra s = pe::dimension_spectra(t);
  ASSERT_TRUE(s.exact_bins);
  ASSERT_EQ(s.frequency.size(), P / 2 + 1);
  for (long long k = 0; k <= P / 2; ++k) {
    EXPECT_DOUBLE_EQ(s.frequency(k), double(k) / double(P));
    EXPECT_NEAR(s.amplitude(k, 0), k == 5 ? 2.0 : 0.0, 2e-6) << k;
    EXPECT_NEAR(s.amplitude(k, 1), k == 12 ? 0.5 : 0.0, 2e-6) << k;
    EXPECT_NEAR(s.amplitude(k, 2), k == P / 2 ? 2.0 : 0.0, 2e-6) << k;  // at f = 0.5 the cosine counts twice
  }
  EXPECT_DOUBLE_EQ(s.dominant_frequency(0), 5.0 / 64.0);
  EXPECT_DOUBLE_EQ(s.dominant_frequency(1), 12.0 / 64.0);
  EXPECT_DOUBLE_EQ(s.dominant_frequency(2), 0.5);
  EXPECT_NEAR(s.mean(1), 7.0, 1e-6);
}

TEST(DimensionSpectra, SinusoidalTablePeaksNearEachPairsFrequency) {
  const long long P = 512, d = 16;  // any P: no power of two needed, but here the bins are fine
  const pe::DimensionSpectra s = pe::dimension_spectra(sinusoidal_table(P, d));
  for (long long i = 0; i < d / 2; ++i) {
    const double f = std::pow(10000.0, -2.0 * double(i) / double(d)) / (2 * kPi);  // cycles per position
    if (f < 4.0 / double(P)) continue;  // fewer than 4 cycles in the table: no sharp peak to find
    EXPECT_NEAR(s.dominant_frequency(2 * i), f, 1.0 / double(P)) << "dim " << 2 * i;
    EXPECT_NEAR(s.dominant_frequency(2 * i + 1), f, 1.0 / double(P)) << "dim " << 2 * i + 1;
  }
}

TEST(DimensionSpectra, OddLengthBetweenBinsAndTheFrequencyCap) {
  const long long P = 197;  // ViT-B/16's 196 patches + the class token
  MatrixF t(P, 1);
  for (long long p = 0; p < P; ++p) t(p, 0) = static_cast<float>(std::cos(2 * kPi * 0.1234 * double(p)));
  const pe::DimensionSpectra s = pe::dimension_spectra(t);
  EXPECT_EQ(s.frequency.size(), 99);
  EXPECT_NEAR(s.dominant_frequency(0), 0.1234, 0.5 / double(P) + 1e-12);

  // 4096 positions have 2049 bins: capped at 1025 evenly spaced frequencies, every other bin.
  const long long Q = 4096;
  MatrixF u(Q, 1);
  for (long long p = 0; p < Q; ++p) u(p, 0) = static_cast<float>(std::cos(2 * kPi * 200.0 * double(p) / double(Q)));
  const pe::DimensionSpectra c = pe::dimension_spectra(u, 1025);
  EXPECT_FALSE(c.exact_bins);
  ASSERT_EQ(c.frequency.size(), 1025);
  EXPECT_DOUBLE_EQ(c.frequency(100), 200.0 / double(Q));
  EXPECT_NEAR(c.amplitude(100, 0), 1.0, 1e-5);
  EXPECT_DOUBLE_EQ(c.dominant_frequency(0), 200.0 / double(Q));
  EXPECT_THROW(pe::dimension_spectra(u, 1), pe::InvalidArgument);
}

TEST(DimensionSpectra, ConstantColumnHasNoDominantFrequency) {
  const pe::DimensionSpectra s = pe::dimension_spectra(MatrixF::Constant(10, 2, 0.1f));
  EXPECT_EQ(s.dominant_frequency(0), 0.0);
  EXPECT_EQ(s.dominant_frequency(1), 0.0);
}

}  // namespace
