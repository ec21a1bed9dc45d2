// RoPE: golden values from seed 001 and independent double-precision formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"

namespace {

using pe::PairConvention;
using pe::RotationSign;

Eigen::VectorXd random_vector(long long dim, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd v(dim);
  for (long long j = 0; j < dim; ++j) v[j] = u(rng);
  return v;
}

// Independent reference: θ_i = base^(−2i/d) written as exp(−(2i/d)·ln base).
double reference_freq(long long i, long long dim, double base) {
  return std::exp(-(2.0 * static_cast<double>(i) / static_cast<double>(dim)) * std::log(base));
}

TEST(RopeFrequencies, Seed001PairFrequencies) {
  // Seed 001 step 1: d = 4, base 10000 → 1.0 and 1/100.
  const Eigen::ArrayXd f = pe::inverse_frequencies(4, 10000.0);
  ASSERT_EQ(f.size(), 2);
  EXPECT_DOUBLE_EQ(f[0], 1.0);
  EXPECT_NEAR(f[1], 0.01, 1e-15);
}

TEST(RopeFrequencies, MatchReferenceFormula) {
  for (long long dim : {2LL, 8LL, 64LL, 128LL, 256LL}) {
    for (double base : {10000.0, 500000.0, 1e6, 1.5}) {
      const Eigen::ArrayXd f = pe::inverse_frequencies(dim, base);
      ASSERT_EQ(f.size(), dim / 2);
      for (long long i = 0; i < dim / 2; ++i) EXPECT_NEAR(f[i], reference_freq(i, dim, base), 1e-14 * f[i]);
    }
  }
}

TEST(RopeApply, Seed001WorkedExampleExact) {
  // Seed 001, step 3 (interleaved pairs (0,1), (2,3)), position 1. SEED-ERRATA item 1:
  // the exact result is [0.17980, 0.83527, −0.50198, 0.19500].
  const Eigen::Vector4d q(0.8, 0.3, -0.5, 0.2);
  const Eigen::VectorXd y = pe::apply_rope(q, 1.0, pe::inverse_frequencies(4, 10000.0), PairConvention::Interleaved);
  const double exact[] = {0.17980, 0.83527, -0.50198, 0.19500};
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(y[j], exact[j], 1e-5) << "dim " << j;
  // The seed's printed values (cos/sin rounded to 3 decimals first) agree within 1e-3.
  const double printed[] = {0.179, 0.836, -0.502, 0.195};
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(y[j], printed[j], 1e-3) << "dim " << j;
}

TEST(RopeApply, PositionZeroIsIdentity) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(64);
  const Eigen::VectorXd x = random_vector(64, 1);
  for (auto c : {PairConvention::Interleaved, PairConvention::HalfSplit}) {
    const Eigen::VectorXd y = pe::apply_rope(x, 0.0, f, c);
    EXPECT_EQ(y, x);
  }
}

TEST(RopeApply, PreservesNorm) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(128);
  const Eigen::VectorXd x = random_vector(128, 2);
  for (auto c : {PairConvention::Interleaved, PairConvention::HalfSplit}) {
    for (double p : {1.0, 7.0, 1000.0, 123456.0, 1e6, -42.0}) {
      EXPECT_NEAR(pe::apply_rope(x, p, f, c).norm(), x.norm(), 1e-12) << "p = " << p;
    }
  }
}

TEST(RopeApply, NegativePositionInverts) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(32);
  const Eigen::VectorXd x = random_vector(32, 3);
  for (auto c : {PairConvention::Interleaved, PairConvention::HalfSplit}) {
    for (double p : {1.0, 17.0, 4096.0}) {
      const Eigen::VectorXd back = pe::apply_rope(pe::apply_rope(x, p, f, c), -p, f, c);
      EXPECT_LT((back - x).cwiseAbs().maxCoeff(), 1e-12);
    }
  }
}

TEST(RopeApply, DotProductDependsOnlyOnOffset) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(64);
  const Eigen::VectorXd q = random_vector(64, 4), k = random_vector(64, 5);
  for (auto c : {PairConvention::Interleaved, PairConvention::HalfSplit}) {
    for (int delta : {-50, -3, 0, 1, 2, 9, 100}) {
      const double ref = pe::apply_rope(q, 0.0, f, c).dot(pe::apply_rope(k, delta, f, c));
      for (int m : {1, 5, 33, 500, 2048, 65536}) {
        const double s = pe::apply_rope(q, m, f, c).dot(pe::apply_rope(k, m + delta, f, c));
        EXPECT_NEAR(s, ref, 1e-9) << "m = " << m << ", delta = " << delta;
      }
    }
  }
}

TEST(RopeApply, ConventionsAgreeAfterPermutation) {
  const long long d = 16;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::VectorXd x = random_vector(d, 6);
  const auto perm = pe::pair_permutation(d, PairConvention::Interleaved, PairConvention::HalfSplit);
  Eigen::VectorXd xh(d);
  for (long long j = 0; j < d; ++j) xh[perm[j]] = x[j];
  const Eigen::VectorXd yi = pe::apply_rope(x, 37.0, f, PairConvention::Interleaved);
  const Eigen::VectorXd yh = pe::apply_rope(xh, 37.0, f, PairConvention::HalfSplit);
  for (long long j = 0; j < d; ++j) EXPECT_NEAR(yh[perm[j]], yi[j], 1e-14);
}

TEST(RopeApply, PairPermutationLayout) {
  // Interleaved dim 2i ↦ half-split dim i, dim 2i+1 ↦ i + d/2.
  const auto perm = pe::pair_permutation(8, PairConvention::Interleaved, PairConvention::HalfSplit);
  const std::vector<long long> expected = {0, 4, 1, 5, 2, 6, 3, 7};
  EXPECT_EQ(perm, expected);
  const auto back = pe::pair_permutation(8, PairConvention::HalfSplit, PairConvention::Interleaved);
  for (long long j = 0; j < 8; ++j) EXPECT_EQ(back[perm[j]], j);
  const auto same = pe::pair_permutation(6, PairConvention::HalfSplit, PairConvention::HalfSplit);
  for (long long j = 0; j < 6; ++j) EXPECT_EQ(same[j], j);
}

TEST(RopeApply, PairDims) {
  EXPECT_EQ(pe::pair_dims(PairConvention::Interleaved, 8, 3), std::make_pair(6LL, 7LL));
  EXPECT_EQ(pe::pair_dims(PairConvention::HalfSplit, 8, 3), std::make_pair(3LL, 7LL));
  EXPECT_THROW(pe::pair_dims(PairConvention::HalfSplit, 8, 4), pe::InvalidArgument);
  EXPECT_THROW(pe::pair_dims(PairConvention::HalfSplit, 7, 0), pe::InvalidArgument);
}

TEST(RopeApply, HalfSplitMatchesRotateHalfFormula) {
  // HF: x·cos + rotate_half(x)·sin with cos/sin = cat(freqs, freqs), rotate_half = [−x2, x1].
  const long long d = 8;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::VectorXd x = random_vector(d, 7);
  const double p = 5.0;
  Eigen::VectorXd expected(d);
  for (long long i = 0; i < d / 2; ++i) {
    const double c = std::cos(p * f[i]), s = std::sin(p * f[i]);
    expected[i] = x[i] * c - x[i + d / 2] * s;
    expected[i + d / 2] = x[i + d / 2] * c + x[i] * s;
  }
  const Eigen::VectorXd y = pe::apply_rope(x, p, f, PairConvention::HalfSplit);
  EXPECT_LT((y - expected).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(RopeApply, NegativeSignIsSeed003Rotation) {
  // Seed 003: y1 = x1 cos + x2 sin, y2 = −x1 sin + x2 cos (half-split).
  const long long d = 8;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::VectorXd x = random_vector(d, 8);
  const double p = 3.0;
  Eigen::VectorXd expected(d);
  for (long long i = 0; i < d / 2; ++i) {
    const double c = std::cos(p * f[i]), s = std::sin(p * f[i]);
    expected[i] = x[i] * c + x[i + d / 2] * s;
    expected[i + d / 2] = -x[i] * s + x[i + d / 2] * c;
  }
  const Eigen::VectorXd y = pe::apply_rope(x, p, f, PairConvention::HalfSplit, RotationSign::Negative);
  EXPECT_LT((y - expected).cwiseAbs().maxCoeff(), 1e-15);
  // And it is the rotation to −p.
  EXPECT_LT((y - pe::apply_rope(x, -p, f, PairConvention::HalfSplit)).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(RopeApply, PartialRotaryLeavesTailUnchanged) {
  // rotary_dim 4 of 10 dims: the HF partial-rotary layout, halves inside the first 4 dims.
  const Eigen::ArrayXd f = pe::inverse_frequencies(4, 10000.0);
  const Eigen::VectorXd x = random_vector(10, 9);
  const Eigen::VectorXd y = pe::apply_rope(x, 11.0, f, PairConvention::HalfSplit);
  EXPECT_EQ(y.tail(6), x.tail(6));
  const Eigen::VectorXd head = pe::apply_rope(x.head(4), 11.0, f, PairConvention::HalfSplit);
  EXPECT_EQ(y.head(4), head);
  EXPECT_NEAR(y.norm(), x.norm(), 1e-13);
}

TEST(RopeApply, MatrixVersionMatchesVectorVersion) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(16);
  pe::MatrixD rows(5, 16);
  for (int r = 0; r < 5; ++r) rows.row(r) = random_vector(16, 20 + r).transpose();
  Eigen::ArrayXd positions(5);
  positions << 0, 1, 2, 100, -7.5;
  const pe::MatrixD y = pe::apply_rope(rows, positions, f, PairConvention::Interleaved);
  for (int r = 0; r < 5; ++r) {
    const Eigen::VectorXd v = pe::apply_rope(rows.row(r).transpose(), positions[r], f, PairConvention::Interleaved);
    EXPECT_LT((y.row(r).transpose() - v).cwiseAbs().maxCoeff(), 1e-15);
  }
}

TEST(RopeApply, RejectsBadInput) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(8);
  EXPECT_THROW(pe::apply_rope(Eigen::VectorXd::Ones(6), 1.0, f, PairConvention::Interleaved), pe::InvalidArgument);
  EXPECT_THROW(pe::apply_rope(Eigen::VectorXd::Ones(8), std::nan(""), f, PairConvention::Interleaved),
               pe::InvalidArgument);
  EXPECT_THROW(pe::apply_rope(Eigen::VectorXd::Ones(8), INFINITY, f, PairConvention::Interleaved),
               pe::InvalidArgument);
  Eigen::VectorXd bad = Eigen::VectorXd::Ones(8);
  bad[3] = std::nan("");
  EXPECT_THROW(pe::apply_rope(bad, 1.0, f, PairConvention::Interleaved), pe::InvalidArgument);
  Eigen::ArrayXd bad_f = f;
  bad_f[1] = -1.0;
  EXPECT_THROW(pe::apply_rope(Eigen::VectorXd::Ones(8), 1.0, bad_f, PairConvention::Interleaved), pe::InvalidArgument);
  EXPECT_THROW(pe::apply_rope(Eigen::VectorXd::Ones(8), 1.0, Eigen::ArrayXd(), PairConvention::Interleaved),
               pe::InvalidArgument);
  EXPECT_THROW(pe::apply_rope(pe::MatrixD::Ones(3, 8), Eigen::ArrayXd::Zero(2), f, PairConvention::Interleaved),
               pe::InvalidArgument);
}

TEST(RopeValidation, OddDimension) {
  try {
    pe::inverse_frequencies(7);
    FAIL() << "odd dim accepted";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "dim = 7: RoPE needs an even dimension, 2 ... 65536");
    EXPECT_EQ(e.parameter(), "dim");
    EXPECT_EQ(e.value(), "7");
  }
}

TEST(RopeValidation, DimensionRange) {
  EXPECT_THROW(pe::inverse_frequencies(0), pe::InvalidArgument);
  EXPECT_THROW(pe::inverse_frequencies(-2), pe::InvalidArgument);
  EXPECT_THROW(pe::inverse_frequencies(65538), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::inverse_frequencies(2));
}

TEST(RopeValidation, ThetaAtMostOne) {
  EXPECT_THROW(pe::inverse_frequencies(8, 1.0), pe::InvalidArgument);
  EXPECT_THROW(pe::inverse_frequencies(8, 0.5), pe::InvalidArgument);
  EXPECT_THROW(pe::inverse_frequencies(8, -10000.0), pe::InvalidArgument);
}

TEST(RopeValidation, ThetaNotFinite) {
  try {
    pe::inverse_frequencies(8, std::nan(""));
    FAIL() << "NaN theta accepted";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "theta");
    EXPECT_EQ(e.value(), "nan");
  }
  EXPECT_THROW(pe::inverse_frequencies(8, INFINITY), pe::InvalidArgument);
}

TEST(RopeValidation, ConventionNames) {
  EXPECT_STREQ(pe::to_string(PairConvention::Interleaved), "interleaved");
  EXPECT_STREQ(pe::to_string(PairConvention::HalfSplit), "half-split");
  EXPECT_EQ(pe::pair_convention_from_string("interleaved"), PairConvention::Interleaved);
  EXPECT_EQ(pe::pair_convention_from_string("Half-Split"), PairConvention::HalfSplit);
  EXPECT_THROW(pe::pair_convention_from_string("diagonal"), pe::InvalidArgument);
}

// Tables: |float − double reference| < 1e-6 everywhere, including far positions.
void expect_tables_accurate(const Eigen::ArrayXd& f, long long length, long long first) {
  const pe::RopeTables t = pe::rope_tables(f, length, first);
  ASSERT_EQ(t.cos.rows(), length);
  ASSERT_EQ(t.cos.cols(), f.size());
  double worst = 0.0;
  for (long long r = 0; r < length; ++r) {
    const double p = static_cast<double>(first + r);
    for (long long k = 0; k < f.size(); ++k) {
      worst = std::max(worst, std::abs(t.cos(r, k) - std::cos(p * f[k])));
      worst = std::max(worst, std::abs(t.sin(r, k) - std::sin(p * f[k])));
    }
  }
  EXPECT_LT(worst, 1e-6) << "first = " << first << ", length = " << length;
}

TEST(RopeTables, AccurateNearZero) { expect_tables_accurate(pe::inverse_frequencies(128), 5000, 0); }

TEST(RopeTables, AccurateNearOneMillion) {
  expect_tables_accurate(pe::inverse_frequencies(128), 3000, 999'000);
  expect_tables_accurate(pe::inverse_frequencies(64, 500000.0), 2100, 1'048'000);
}

TEST(RopeTables, AccurateOddStartsAndNegativePositions) {
  expect_tables_accurate(pe::inverse_frequencies(10), 1500, -777);
  expect_tables_accurate(pe::inverse_frequencies(6), 1, 123'456'789);
  expect_tables_accurate(pe::inverse_frequencies(2), 67, 3);
}

TEST(RopeTables, FirstRowsAreExact) {
  const pe::RopeTables t = pe::rope_tables(pe::inverse_frequencies(4), 2);
  EXPECT_EQ(t.cos(0, 0), 1.0f);
  EXPECT_EQ(t.sin(0, 1), 0.0f);
  EXPECT_NEAR(t.cos(1, 0), std::cos(1.0), 1e-7);
  EXPECT_NEAR(t.sin(1, 1), std::sin(0.01), 1e-7);
}

TEST(RopeTables, RejectsBadLengths) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(8);
  EXPECT_THROW(pe::rope_tables(f, 0), pe::InvalidArgument);
  EXPECT_THROW(pe::rope_tables(f, -5), pe::InvalidArgument);
  EXPECT_THROW(pe::rope_tables(f, 10, pe::kMaxLength), pe::InvalidArgument);
  Eigen::ArrayXd nan_f = f;
  nan_f[0] = std::nan("");
  EXPECT_THROW(pe::rope_tables(nan_f, 10), pe::InvalidArgument);
}

TEST(RopeTables, RefusesOneBillionPositions) {
  try {
    pe::rope_tables(pe::inverse_frequencies(128), 1'000'000'000);
    FAIL() << "1e9 positions accepted";
  } catch (const pe::MemoryBudgetExceeded& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("memory budget"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1000000000"), std::string::npos) << msg;
  }
}

}  // namespace

namespace {

TEST(RopeTables, IntoReusesStorageAndMatches) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(32);
  pe::RopeTables t;
  pe::rope_tables_into(t, f, 300, 5);
  const float* storage = t.cos.data();
  pe::rope_tables_into(t, f, 300, 1000);  // same shape: same storage, new values
  EXPECT_EQ(t.cos.data(), storage);
  const pe::RopeTables fresh = pe::rope_tables(f, 300, 1000);
  EXPECT_TRUE((t.cos == fresh.cos).all());
  EXPECT_TRUE((t.sin == fresh.sin).all());
  EXPECT_THROW(pe::rope_tables_into(t, f, 0), pe::InvalidArgument);
  EXPECT_EQ(t.cos.rows(), 300);  // untouched by the refused call
}

}  // namespace

// SEED-ERRATA 3: seed 004's mixed tables. Expected values are written out from the seed's
// indexing (cos[..., ::2], sin[..., 1::2] of cat(freqs, freqs)) for d = 8, independently
// of the implementation, and the consequences are checked: not norm-preserving, and the
// score of the same pair of vectors depends on absolute position.
TEST(HalfSplitCacheMix, ReproducesTheBuggyIndexingAndIsNotARotation) {
  const int d = 8;
  const double theta = 10000.0;
  const double p = 3.0;
  Eigen::VectorXd x(d);
  x << 0.8, 0.3, -0.5, 0.2, 0.1, -0.7, 0.4, 0.6;
  std::vector<double> freqs(d / 2);
  for (int i = 0; i < d / 2; ++i) freqs[i] = 1.0 / std::pow(theta, 2.0 * i / d);
  std::vector<double> emb(d);  // cat(freqs, freqs) · p
  for (int j = 0; j < d; ++j) emb[j] = p * freqs[j % (d / 2)];
  Eigen::VectorXd expected(d);
  for (int i = 0; i < d / 2; ++i) {
    expected[2 * i] = x[2 * i] * std::cos(emb[2 * i]) - x[2 * i + 1] * std::sin(emb[2 * i]);
    expected[2 * i + 1] = x[2 * i] * std::sin(emb[2 * i + 1]) + x[2 * i + 1] * std::cos(emb[2 * i + 1]);
  }
  const Eigen::ArrayXd inv_freq = pe::inverse_frequencies(d, theta);
  const Eigen::VectorXd y = pe::apply_half_split_cache_mix(x, p, inv_freq);
  for (int j = 0; j < d; ++j) EXPECT_NEAR(y[j], expected[j], 1e-12) << "dim " << j;
  EXPECT_GT(std::abs(y.norm() - x.norm()), 1e-3) << "the mixed tables should not preserve the norm";

  // Same vectors, same Δ = 2, different absolute positions: the real RoPE score is equal,
  // the mixed-table score is not.
  auto score = [&](bool mixed, double m) {
    const Eigen::VectorXd a = mixed ? pe::apply_half_split_cache_mix(x, m, inv_freq)
                                    : pe::apply_rope(x, m, inv_freq, pe::PairConvention::Interleaved);
    const Eigen::VectorXd b = mixed ? pe::apply_half_split_cache_mix(x, m + 2, inv_freq)
                                    : pe::apply_rope(x, m + 2, inv_freq, pe::PairConvention::Interleaved);
    return a.dot(b);
  };
  EXPECT_NEAR(score(false, 1.0), score(false, 40.0), 1e-9);
  EXPECT_GT(std::abs(score(true, 1.0) - score(true, 40.0)), 1e-3);
}

TEST(HalfSplitCacheMix, RejectsBadInput) {
  const Eigen::ArrayXd inv_freq = pe::inverse_frequencies(8, 10000.0);
  EXPECT_THROW(pe::apply_half_split_cache_mix(Eigen::VectorXd::Zero(6), 1.0, inv_freq), pe::InvalidArgument);
  EXPECT_THROW(pe::apply_half_split_cache_mix(Eigen::VectorXd::Zero(8), std::nan(""), inv_freq), pe::InvalidArgument);
}
