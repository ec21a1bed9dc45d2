// Relative scores, decay bound, attention patterns, wavelengths, against direct formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"

namespace {

using pe::PairConvention;

Eigen::VectorXd random_vector(long long dim, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::VectorXd v(dim);
  for (long long j = 0; j < dim; ++j) v[j] = n(rng);
  return v;
}

// s(Δ) straight from the definition: ⟨R(m)q, R(m+Δ)k⟩.
double direct_score(const Eigen::VectorXd& q, const Eigen::VectorXd& k, const Eigen::ArrayXd& f, double m, double delta,
                    PairConvention c, pe::RotationSign sign = pe::RotationSign::Positive) {
  return pe::apply_rope(q, m, f, c, sign).dot(pe::apply_rope(k, m + delta, f, c, sign));
}

TEST(RelativeScore, ClosedFormEqualsDirectDotProducts) {
  const long long d = 32;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::VectorXd q = random_vector(d, 1), k = random_vector(d, 2);
  for (auto c : {PairConvention::Interleaved, PairConvention::HalfSplit}) {
    const auto coef = pe::relative_score_coefficients(q, k, d / 2, c);
    for (double delta : {-300.0, -7.0, -1.0, 0.0, 1.0, 2.5, 64.0, 4000.0}) {
      EXPECT_NEAR(pe::relative_score(coef, f, delta), direct_score(q, k, f, 11.0, delta, c), 1e-10) << delta;
    }
  }
}

TEST(RelativeScore, IdenticalVectorsAtZeroGiveSquaredNorm) {
  const Eigen::VectorXd q = random_vector(64, 3);
  const auto coef = pe::relative_score_coefficients(q, q, 32, PairConvention::HalfSplit);
  EXPECT_NEAR(pe::relative_score(coef, pe::inverse_frequencies(64), 0.0), q.squaredNorm(), 1e-12);
}

TEST(RelativeScore, PartialRotaryAddsPassthrough) {
  const Eigen::VectorXd q = random_vector(10, 4), k = random_vector(10, 5);
  const Eigen::ArrayXd f = pe::inverse_frequencies(4);
  const auto coef = pe::relative_score_coefficients(q, k, 2, PairConvention::HalfSplit);
  EXPECT_NEAR(coef.passthrough, q.tail(6).dot(k.tail(6)), 1e-15);
  for (double delta : {0.0, 3.0, -9.0}) {
    EXPECT_NEAR(pe::relative_score(coef, f, delta), direct_score(q, k, f, 5.0, delta, PairConvention::HalfSplit), 1e-12);
  }
}

TEST(RelativeScore, CurveOverManyDeltasMatchesPointwise) {
  const long long d = 128;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::VectorXd q = random_vector(d, 6), k = random_vector(d, 7);
  const auto coef = pe::relative_score_coefficients(q, k, d / 2, PairConvention::Interleaved);
  // Evenly spaced (recurrence path), shifted far out, and irregular (direct path).
  const Eigen::ArrayXd even = Eigen::ArrayXd::LinSpaced(5000, -2500.0, 2499.0);
  const Eigen::ArrayXd far = Eigen::ArrayXd::LinSpaced(3000, 1e6, 1e6 + 2999.0 * 0.5);
  Eigen::ArrayXd odd(5);
  odd << 0.0, 1.0, 3.0, 7.5, 100.0;
  for (const Eigen::ArrayXd& deltas : {even, far, odd}) {
    const Eigen::ArrayXd curve = pe::relative_score_curve(coef, f, deltas);
    ASSERT_EQ(curve.size(), deltas.size());
    for (Eigen::Index j = 0; j < deltas.size(); ++j) {
      // Reference in double from the closed form term by term.
      double ref = 0.0;
      for (long long i = 0; i < d / 2; ++i) ref += coef.a[i] * std::cos(deltas[j] * f[i]) + coef.b[i] * std::sin(deltas[j] * f[i]);
      EXPECT_NEAR(curve[j], ref, 1e-9) << "delta " << deltas[j];
    }
  }
}

TEST(RelativeScore, CurveMatchesDirectRotation) {
  const long long d = 16;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::VectorXd q = random_vector(d, 8), k = random_vector(d, 9);
  const auto coef = pe::relative_score_coefficients(q, k, d / 2, PairConvention::Interleaved);
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(200, -100.0, 99.0);
  const Eigen::ArrayXd curve = pe::relative_score_curve(coef, f, deltas);
  for (Eigen::Index j = 0; j < deltas.size(); ++j) {
    EXPECT_NEAR(curve[j], direct_score(q, k, f, 3.0, deltas[j], PairConvention::Interleaved), 1e-10);
  }
}

TEST(RelativeScore, Seed003SignMirrorsTheCurve) {
  // Rotating by −pθ (seed 003's code) turns s(Δ) into s(−Δ).
  const long long d = 16;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::VectorXd q = random_vector(d, 10), k = random_vector(d, 11);
  const auto coef = pe::relative_score_coefficients(q, k, d / 2, PairConvention::HalfSplit);
  for (double delta : {1.0, 2.0, 5.0, 40.0, 333.0}) {
    const double negative = direct_score(q, k, f, 7.0, delta, PairConvention::HalfSplit, pe::RotationSign::Negative);
    EXPECT_NEAR(negative, pe::relative_score(coef, f, -delta), 1e-10);
    EXPECT_NEAR(direct_score(q, k, f, 7.0, -delta, PairConvention::HalfSplit, pe::RotationSign::Negative),
                pe::relative_score(coef, f, delta), 1e-10);
    // Not symmetric in general, so the mirror is visible.
    EXPECT_GT(std::abs(pe::relative_score(coef, f, delta) - pe::relative_score(coef, f, -delta)), 1e-6);
  }
}

TEST(RelativeScore, RejectsBadInput) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(8);
  const Eigen::VectorXd q = random_vector(8, 1);
  EXPECT_THROW(pe::relative_score_coefficients(q, random_vector(6, 1), 4, PairConvention::Interleaved),
               pe::InvalidArgument);
  EXPECT_THROW(pe::relative_score_coefficients(q, q, 5, PairConvention::Interleaved), pe::InvalidArgument);
  EXPECT_THROW(pe::relative_score_coefficients(q, q, 0, PairConvention::Interleaved), pe::InvalidArgument);
  const auto coef = pe::relative_score_coefficients(q, q, 4, PairConvention::Interleaved);
  EXPECT_THROW(pe::relative_score(coef, pe::inverse_frequencies(6), 1.0), pe::InvalidArgument);
  EXPECT_THROW(pe::relative_score(coef, f, std::nan("")), pe::InvalidArgument);
  Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(4, 0, 3);
  deltas[2] = INFINITY;
  EXPECT_THROW(pe::relative_score_curve(coef, f, deltas), pe::InvalidArgument);
}

TEST(VectorChoiceCurves, IdenticalStartsAtSquaredNormAndIsSeeded) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(64);
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(100, 0.0, 99.0);
  const Eigen::ArrayXd a = pe::relative_score_curve(pe::VectorChoice::Identical, f, deltas, 42);
  const Eigen::ArrayXd b = pe::relative_score_curve(pe::VectorChoice::Identical, f, deltas, 42);
  EXPECT_TRUE((a == b).all());
  // s(0) = ‖q‖² is the maximum of the curve (Cauchy–Schwarz).
  EXPECT_GE(a[0], a.maxCoeff() - 1e-12);
  EXPECT_GT(a[0], 0.0);
  const Eigen::ArrayXd c = pe::relative_score_curve(pe::VectorChoice::Identical, f, deltas, 43);
  EXPECT_FALSE((a == c).all());
}

TEST(VectorChoiceCurves, MeansApproachTheirLimits) {
  const long long d = 64;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(50, 0.0, 49.0);
  const long long samples = 4000;
  // Mean of q = k: E[a_i] = 2, E[b_i] = 0 → Σ 2 cos(Δθ_i); standard error ~ √(2·d/samples).
  const Eigen::ArrayXd ident = pe::relative_score_curve(pe::VectorChoice::MeanOfIdentical, f, deltas, 1, samples);
  const Eigen::ArrayXd pairs = pe::relative_score_curve(pe::VectorChoice::MeanOfRandomPairs, f, deltas, 1, samples);
  for (Eigen::Index j = 0; j < deltas.size(); ++j) {
    const double limit = 2.0 * (deltas[j] * f).cos().sum();
    EXPECT_NEAR(ident[j], limit, 1.5) << deltas[j];
    EXPECT_NEAR(pairs[j], 0.0, 1.5) << deltas[j];
  }
  EXPECT_NEAR(ident[0], static_cast<double>(d), 1.5);
  EXPECT_THROW(pe::relative_score_curve(pe::VectorChoice::MeanOfIdentical, f, deltas, 1, 0), pe::InvalidArgument);
}

TEST(DecayBound, MatchesDefinitionAndDecays) {
  const long long d = 128;
  const Eigen::ArrayXd f = pe::inverse_frequencies(d);
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(300, 0.0, 299.0 * 10.0);
  const Eigen::ArrayXd bound = pe::long_term_decay_bound(f, deltas);
  for (Eigen::Index j = 0; j < deltas.size(); j += 37) {
    std::complex<double> s = 0.0;
    double total = 0.0;
    for (long long i = 0; i < d / 2; ++i) {
      s += std::polar(1.0, deltas[j] * f[i]);
      total += std::abs(s);
    }
    EXPECT_NEAR(bound[j], total / (d / 2), 1e-9);
  }
  // At Δ = 0 every S_j = j: mean of 1 ... d/2 = (d/2 + 1)/2.
  EXPECT_NEAR(bound[0], (d / 2 + 1) / 2.0, 1e-12);
  // RoFormer Fig. 2: the bound falls as the distance grows.
  EXPECT_LT(bound.tail(50).mean(), 0.5 * bound[0]);
}

class AttentionPatterns : public ::testing::TestWithParam<pe::AttentionMethod> {};

TEST_P(AttentionPatterns, RowsSumToOneAndFutureIsMasked) {
  pe::AttentionParams params;
  params.length = 24;
  params.dim = 32;
  params.seed = 5;
  const pe::TableF a = pe::attention_pattern(GetParam(), params);
  ASSERT_EQ(a.rows(), 24);
  ASSERT_EQ(a.cols(), 24);
  for (long long m = 0; m < 24; ++m) {
    double total = 0.0;
    for (long long n = 0; n < 24; ++n) {
      if (n > m) {
        EXPECT_EQ(a(m, n), 0.0f);
      } else {
        EXPECT_GE(a(m, n), 0.0f);
        total += a(m, n);
      }
    }
    EXPECT_NEAR(total, 1.0, 1e-5) << "row " << m;
  }
  EXPECT_EQ(a(0, 0), 1.0f);
  // Seeded: the same parameters give the same picture.
  EXPECT_TRUE((a == pe::attention_pattern(GetParam(), params)).all());
}

INSTANTIATE_TEST_SUITE_P(AllMethods, AttentionPatterns,
                         ::testing::Values(pe::AttentionMethod::NoPosition, pe::AttentionMethod::Sinusoidal,
                                           pe::AttentionMethod::Learned, pe::AttentionMethod::Rope,
                                           pe::AttentionMethod::Alibi),
                         [](const auto& info) { return std::string(pe::to_string(info.param)); });

// A view keeps the seeded tokens while θ is dragged: patterns from kept tokens equal fresh
// ones at the new θ, for the methods θ moves and the ones it does not; tokens made for another
// length, d or seed are refused by name.
TEST(Attention, KeptTokensGiveTheFreshPatterns) {
  pe::AttentionParams params;
  params.length = 20;
  params.dim = 32;
  params.seed = 9;
  const pe::AttentionTokens tokens = pe::attention_tokens(params.length, params.dim, params.seed);
  for (const double theta : {100.0, 1e6}) {
    params.theta = theta;
    for (const auto m : {pe::AttentionMethod::Sinusoidal, pe::AttentionMethod::Rope, pe::AttentionMethod::Learned,
                         pe::AttentionMethod::NoPosition}) {
      EXPECT_TRUE((pe::attention_pattern(m, params, tokens) == pe::attention_pattern(m, params)).all()) << pe::to_string(m);
    }
  }
  params.theta = 100.0;
  const pe::TableF low = pe::attention_pattern(pe::AttentionMethod::Rope, params, tokens);
  params.theta = 1e6;
  EXPECT_GT((low - pe::attention_pattern(pe::AttentionMethod::Rope, params, tokens)).abs().maxCoeff(), 1e-4);
  for (int change = 0; change < 3; ++change) {
    pe::AttentionParams other = params;
    if (change == 0) other.length = 21;
    if (change == 1) other.dim = 16;
    if (change == 2) other.seed = 10;
    try {
      pe::attention_pattern(pe::AttentionMethod::Rope, other, tokens);
      ADD_FAILURE() << "tokens for another shape accepted, change " << change;
    } catch (const pe::InvalidArgument& e) {
      EXPECT_EQ(e.parameter(), "tokens");
    }
  }
}

TEST(Attention, MethodsDifferAndAlibiFavoursRecent) {
  pe::AttentionParams params;
  params.length = 32;
  params.dim = 16;
  params.alibi_slope = 4.0;  // steep: most weight on the diagonal
  const pe::TableF none = pe::attention_pattern(pe::AttentionMethod::NoPosition, params);
  const pe::TableF rope = pe::attention_pattern(pe::AttentionMethod::Rope, params);
  const pe::TableF alibi = pe::attention_pattern(pe::AttentionMethod::Alibi, params);
  EXPECT_GT((none - rope).abs().maxCoeff(), 1e-3);
  EXPECT_GT(alibi.matrix().diagonal().mean(), none.matrix().diagonal().mean());
}

TEST(Attention, RejectsBadParams) {
  pe::AttentionParams p;
  p.dim = 7;
  EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::Rope, p), pe::InvalidArgument);
  EXPECT_NO_THROW(pe::attention_pattern(pe::AttentionMethod::NoPosition, p));
  p = {};
  p.length = 0;
  EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::Alibi, p), pe::InvalidArgument);
  p = {};
  p.theta = 1.0;
  EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::Sinusoidal, p), pe::InvalidArgument);
  p = {};
  p.learned_sigma = 0.0;
  EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::Learned, p), pe::InvalidArgument);
  p = {};
  p.alibi_slope = std::nan("");
  EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::Alibi, p), pe::InvalidArgument);
  p = {};
  p.length = 1'000'000'000;
  EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::Rope, p), pe::MemoryBudgetExceeded);
}

TEST(Wavelengths, TwoPiOverFrequencyAndTurns) {
  const Eigen::ArrayXd f = pe::inverse_frequencies(128, 10000.0);
  const Eigen::ArrayXd w = pe::wavelengths(f);
  EXPECT_NEAR(w[0], 2.0 * std::numbers::pi, 1e-15);
  // SEED-ERRATA item 2: the longest wavelength is 2π·θ^((d−2)/d).
  EXPECT_NEAR(w[63], 2.0 * std::numbers::pi * std::pow(10000.0, 126.0 / 128.0), 1e-8);
  const Eigen::ArrayXd turns = pe::full_turns(f, 4096);
  EXPECT_NEAR(turns[0], 4096.0 / (2.0 * std::numbers::pi), 1e-12);
  for (long long i = 0; i < 64; ++i) EXPECT_NEAR(turns[i], 4096.0 / w[i], 1e-9);
  EXPECT_THROW(pe::full_turns(f, 0), pe::InvalidArgument);
  EXPECT_THROW(pe::wavelengths(Eigen::ArrayXd()), pe::InvalidArgument);
}

TEST(Names, AttentionMethods) {
  EXPECT_STREQ(pe::to_string(pe::AttentionMethod::NoPosition), "none");
  EXPECT_STREQ(pe::to_string(pe::AttentionMethod::Alibi), "alibi");
}

}  // namespace

// relative_score_curves shares one cos/sin evaluation between curves; each column must
// equal the single-curve evaluation, and the extra column the decay bound. Deltas are
// given both evenly spaced (recurrence path) and log-spaced (direct path).
TEST(RelativeScoreCurves, ColumnsMatchSingleCurvesAndTheBound) {
  const Eigen::ArrayXd inv_freq = pe::inverse_frequencies(64, 10000.0);
  Eigen::ArrayXd linear = Eigen::ArrayXd::LinSpaced(700, 0.0, 5000.0);
  Eigen::ArrayXd logspaced(300);
  for (int k = 0; k < 300; ++k) logspaced[k] = std::pow(10.0, 4.0 * k / 299.0);
  for (const Eigen::ArrayXd& deltas : {linear, logspaced}) {
    const std::vector<pe::RelativeScoreCoefficients> sets = {
        pe::choice_coefficients(pe::VectorChoice::Identical, 32, 7),
        pe::choice_coefficients(pe::VectorChoice::MeanOfRandomPairs, 32, 7, 16)};
    const Eigen::ArrayXXd all = pe::relative_score_curves(sets, inv_freq, deltas, true);
    ASSERT_EQ(all.cols(), 3);
    ASSERT_EQ(all.rows(), deltas.size());
    const Eigen::ArrayXd identical = pe::relative_score_curve(pe::VectorChoice::Identical, inv_freq, deltas, 7);
    const Eigen::ArrayXd mean = pe::relative_score_curve(pe::VectorChoice::MeanOfRandomPairs, inv_freq, deltas, 7, 16);
    const Eigen::ArrayXd bound = pe::long_term_decay_bound(inv_freq, deltas);
    for (Eigen::Index j = 0; j < deltas.size(); ++j) {
      // Independent reference for the identical curve: Σ a_i cos(Δθ_i) + b_i sin(Δθ_i) in double.
      double reference = 0.0;
      for (Eigen::Index i = 0; i < inv_freq.size(); ++i)
        reference += sets[0].a[i] * std::cos(deltas[j] * inv_freq[i]) + sets[0].b[i] * std::sin(deltas[j] * inv_freq[i]);
      EXPECT_NEAR(all(j, 0), reference, 1e-9 * (1.0 + std::abs(reference)));
      EXPECT_NEAR(all(j, 0), identical[j], 1e-12 * (1.0 + std::abs(identical[j])));
      EXPECT_NEAR(all(j, 1), mean[j], 1e-12 * (1.0 + std::abs(mean[j])));
      EXPECT_NEAR(all(j, 2), bound[j], 1e-12 * (1.0 + bound[j]));
    }
  }
}
