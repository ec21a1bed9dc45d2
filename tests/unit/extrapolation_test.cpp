// Unseen rotation angles past the training length (SEED-ERRATA 5, issue 6): the counts in
// core are checked against an independent brute force that visits every position.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/scaling/extrapolation.hpp"

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The definition in extrapolation.hpp, evaluated position by position.
bool brute_unseen(double theta, long long train_length, double theta_inf, long long p) {
  const double arc = static_cast<double>(train_length - 1) * theta;
  if (arc >= kTwoPi) return false;
  const double x = static_cast<double>(p) * theta_inf;
  const double phi = std::fmod(x, kTwoPi);
  const double tol = kTwoPi * 1e-12 + 8.0 * DBL_EPSILON * x;
  return phi > arc + tol && phi < kTwoPi - tol;
}

struct Brute {
  long long count = 0;
  long long first = -1;
};

Brute brute(double theta, long long train_length, double theta_inf, long long length) {
  Brute b;
  for (long long p = 0; p < length; ++p) {
    if (brute_unseen(theta, train_length, theta_inf, p)) {
      ++b.count;
      if (b.first < 0) b.first = p;
    }
  }
  return b;
}

// The plainer reading "(p·θ' mod 2π) > A·(1 + 1e-12)" (no wrap tolerance), for comparison.
long long brute_plain(double theta, long long train_length, double theta_inf, long long length) {
  const double arc = static_cast<double>(train_length - 1) * theta;
  if (arc >= kTwoPi) return 0;
  long long c = 0;
  for (long long p = 0; p < length; ++p) c += std::fmod(static_cast<double>(p) * theta_inf, kTwoPi) > arc * (1 + 1e-12);
  return c;
}

// LLaMA-2-7B: head_dim 128, rope_theta 10000, max_position_embeddings 4096.
constexpr long long kDim = 128;
constexpr double kBase = 10000.0;
constexpr long long kTrain = 4096;

Eigen::ArrayXd freqs(double base) {
  Eigen::ArrayXd f(kDim / 2);
  for (long long i = 0; i < kDim / 2; ++i) f[i] = std::pow(base, -2.0 * static_cast<double>(i) / kDim);
  return f;
}

struct Expected {
  std::vector<long long> counts;
  long long pairs_with_unseen = 0;
  long long first_unseen_pair = -1;
  double mean = 0.0;
};

Expected brute_report(const Eigen::ArrayXd& train, const Eigen::ArrayXd& infer, long long length) {
  Expected e;
  for (Eigen::Index i = 0; i < train.size(); ++i) {
    const Brute b = brute(train[i], kTrain, infer[i], length);
    e.counts.push_back(b.count);
    e.mean += static_cast<double>(b.count) / static_cast<double>(length);
    if (b.count > 0) {
      ++e.pairs_with_unseen;
      if (e.first_unseen_pair < 0) e.first_unseen_pair = i;
    }
  }
  e.mean /= static_cast<double>(train.size());
  return e;
}

// Checks the report against brute force; returns it for scenario-specific checks.
pe::ExtrapolationReport check_against_brute(const char* label, const Eigen::ArrayXd& infer, long long length) {
  const Eigen::ArrayXd train = freqs(kBase);
  const pe::ExtrapolationReport r = pe::extrapolation_report(train, kTrain, infer, length);
  const Expected e = brute_report(train, infer, length);
  EXPECT_EQ(r.unseen_fraction.size(), train.size());
  for (Eigen::Index i = 0; i < train.size(); ++i) {
    const double arc = static_cast<double>(kTrain - 1) * train[i];
    EXPECT_DOUBLE_EQ(r.train_arc_rad[i], std::min(arc, kTwoPi)) << label << " pair " << i;
    EXPECT_DOUBLE_EQ(r.max_angle_rad[i], static_cast<double>(length - 1) * infer[i]) << label << " pair " << i;
    // Exact counts: the fraction is count / L.
    EXPECT_EQ(r.unseen_fraction[i], static_cast<double>(e.counts[i]) / static_cast<double>(length))
        << label << " pair " << i;
    EXPECT_EQ(pe::unseen_position_count(train[i], kTrain, infer[i], length), e.counts[i]) << label << " pair " << i;
    EXPECT_EQ(pe::first_unseen_position(train[i], kTrain, infer[i], length),
              brute(train[i], kTrain, infer[i], length).first)
        << label << " pair " << i;
    // The plainer reading of "unseen" gives the same counts on these real frequencies.
    EXPECT_EQ(brute_plain(train[i], kTrain, infer[i], length), e.counts[i]) << label << " pair " << i;
    // Pairs that completed a turn in training have seen every angle.
    if (arc >= kTwoPi) {
      EXPECT_EQ(r.unseen_fraction[i], 0.0) << label << " pair " << i;
    }
  }
  EXPECT_NEAR(r.mean_unseen_fraction, e.mean, 1e-15) << label;
  EXPECT_EQ(r.pairs_with_unseen, e.pairs_with_unseen) << label;
  EXPECT_EQ(r.first_unseen_pair, e.first_unseen_pair) << label;
  std::printf("[ LLaMA-2-7B ] %-26s L = %6lld: mean unseen fraction %.6f (%.4f%%), pairs with unseen %lld of %lld, "
              "first unseen pair %lld\n",
              label, length, r.mean_unseen_fraction, 100.0 * r.mean_unseen_fraction, r.pairs_with_unseen,
              static_cast<long long>(train.size()), r.first_unseen_pair);
  return r;
}

// Pairs whose training arc is not the whole circle: (L_train − 1)·θ_i < 2π.
long long first_slow_pair() {
  const Eigen::ArrayXd f = freqs(kBase);
  for (Eigen::Index i = 0; i < f.size(); ++i) {
    if (static_cast<double>(kTrain - 1) * f[i] < kTwoPi) return i;
  }
  return -1;
}

TEST(Extrapolation, Llama2PlainRopeAt2xAnd8x) {
  ASSERT_EQ(first_slow_pair(), 46);  // θ_46 = 10^-2.875: 4095·θ = 5.46 rad < 2π; pair 45: 6.31 rad
  for (long long factor : {2LL, 8LL}) {
    const long long length = factor * kTrain;
    const std::string label = "plain RoPE " + std::to_string(factor) + "x";
    const pe::ExtrapolationReport r = check_against_brute(label.c_str(), freqs(kBase), length);
    // Every slow pair meets unseen angles, every fast pair none: the seeds' "RoPE
    // extrapolates" fails exactly on the pairs that never completed a turn.
    EXPECT_EQ(r.pairs_with_unseen, kDim / 2 - 46);
    EXPECT_EQ(r.first_unseen_pair, 46);
    EXPECT_GT(r.mean_unseen_fraction, 0.05);
    // The slowest pair sees only its training arc again past L_train: positions
    // L_train ... L−1 are unseen (its angle stays below 2π).
    EXPECT_EQ(pe::first_unseen_position(freqs(kBase)[63], kTrain, freqs(kBase)[63], length), kTrain);
    EXPECT_EQ(r.unseen_fraction[63], static_cast<double>(length - kTrain) / static_cast<double>(length));
  }
}

TEST(Extrapolation, Llama2LinearScalingBringsAnglesBack) {
  for (long long factor : {2LL, 8LL}) {
    const long long length = factor * kTrain;
    const Eigen::ArrayXd infer = freqs(kBase) / static_cast<double>(factor);  // PI: θ' = θ/s
    const std::string label = "linear (PI) " + std::to_string(factor) + "x";
    const pe::ExtrapolationReport r = check_against_brute(label.c_str(), infer, length);
    // Positions p = s·m map exactly onto training angles; only the last s − 1 positions,
    // (L_train − 1) + j/s for j = 1 ... s−1, lie beyond the arc on the slow pairs.
    const double edge = static_cast<double>(factor - 1) / static_cast<double>(length);
    for (Eigen::Index i = 0; i < infer.size(); ++i) {
      EXPECT_EQ(r.unseen_fraction[i], i >= 46 ? edge : 0.0) << label << " pair " << i;
      EXPECT_LE(r.unseen_fraction[i], edge);
    }
    EXPECT_LE(r.mean_unseen_fraction, edge);
    EXPECT_EQ(pe::first_unseen_position(freqs(kBase)[63], kTrain, infer[63], length), factor * (kTrain - 1) + 1);
  }
}

TEST(Extrapolation, Llama2NtkAwareScaling) {
  for (long long factor : {2LL, 8LL}) {
    const long long length = factor * kTrain;
    // bloc97's NTK-aware base change: base' = base · α^(d/(d−2)).
    const double base = kBase * std::pow(static_cast<double>(factor), static_cast<double>(kDim) / (kDim - 2));
    const Eigen::ArrayXd infer = freqs(base);
    const std::string label = "NTK-aware " + std::to_string(factor) + "x";
    const pe::ExtrapolationReport r = check_against_brute(label.c_str(), infer, length);
    const pe::ExtrapolationReport plain = pe::extrapolation_report(freqs(kBase), kTrain, freqs(kBase), length);
    EXPECT_LT(r.mean_unseen_fraction, plain.mean_unseen_fraction);
    EXPECT_LE(r.pairs_with_unseen, plain.pairs_with_unseen);
  }
}

TEST(Extrapolation, WithinTrainingLengthNothingIsUnseen) {
  const Eigen::ArrayXd f = freqs(kBase);
  for (long long length : {1LL, 2LL, 1000LL, kTrain}) {
    const pe::ExtrapolationReport r = pe::extrapolation_report(f, kTrain, f, length);
    EXPECT_EQ(r.mean_unseen_fraction, 0.0) << length;
    EXPECT_EQ(r.pairs_with_unseen, 0) << length;
    EXPECT_EQ(r.first_unseen_pair, -1) << length;
    EXPECT_TRUE((r.unseen_fraction == 0.0).all()) << length;
    for (Eigen::Index i = 0; i < f.size(); ++i) EXPECT_EQ(pe::first_unseen_position(f[i], kTrain, f[i], length), -1);
  }
  // One position past it: exactly the slow pairs, at p = L_train.
  const pe::ExtrapolationReport r = pe::extrapolation_report(f, kTrain, f, kTrain + 1);
  EXPECT_EQ(r.pairs_with_unseen, kDim / 2 - 46);
  EXPECT_EQ(r.first_unseen_pair, 46);
  EXPECT_EQ(pe::first_unseen_position(f[46], kTrain, f[46], kTrain + 1), kTrain);
  EXPECT_EQ(pe::first_unseen_position(f[45], kTrain, f[45], kTrain + 1), -1);
}

TEST(Extrapolation, TrainLengthOneSeesOnlyAngleZero) {
  Eigen::ArrayXd f(3);
  f << 1.0, 1e-3, 0.0;
  const pe::ExtrapolationReport r = pe::extrapolation_report(f, 1, f, 1000);
  EXPECT_TRUE((r.train_arc_rad == 0.0).all());
  EXPECT_EQ(r.unseen_fraction[0], 999.0 / 1000.0);  // p mod 2π never returns to 0 for integer p
  EXPECT_EQ(r.unseen_fraction[1], 999.0 / 1000.0);
  EXPECT_EQ(r.unseen_fraction[2], 0.0);  // θ' = 0: every angle is 0
  EXPECT_EQ(r.pairs_with_unseen, 2);
  EXPECT_EQ(r.first_unseen_pair, 0);
  EXPECT_EQ(pe::first_unseen_position(1.0, 1, 1.0, 1000), 1);
  EXPECT_EQ(pe::first_unseen_position(1.0, 1, 1.0, 1), -1);
  EXPECT_EQ(pe::first_unseen_position(1.0, 1, 0.0, 1000), -1);
  // θ' = 2π/4: every 4th position is back at angle 0 (fmod may return 2π − rounding).
  EXPECT_EQ(pe::unseen_position_count(0.5, 1, kTwoPi / 4, 100), 75);
  EXPECT_EQ(pe::unseen_position_count(0.5, 1, kTwoPi / 4, 100), brute(0.5, 1, kTwoPi / 4, 100).count);
  EXPECT_EQ(pe::unseen_position_count(0.5, 1, kTwoPi, 1000), 0);
  // A tiny frequency leaves angle 0 only beyond the tolerance: p·θ' > 2π·1e-12 + ...
  EXPECT_EQ(pe::first_unseen_position(0.0, 1, 1e-15, 100000), brute(0.0, 1, 1e-15, 100000).first);
  EXPECT_EQ(pe::unseen_position_count(0.0, 1, 1e-15, 100000), brute(0.0, 1, 1e-15, 100000).count);
  // Trained frequency 0 with L_train > 1: still only angle 0.
  EXPECT_EQ(pe::unseen_position_count(0.0, 50, 0.1, 500), brute(0.0, 50, 0.1, 500).count);
}

TEST(Extrapolation, LargeInferenceFrequencyStepsOverTheGap) {
  // A = 6.2 rad, θ' just above 2π: angles creep forward 0.001 rad per position, and the
  // gap (6.2, 2π) is narrower than θ', so whole turns pass without an unseen position.
  const double theta = 6.2 / 99.0;
  const double inf = kTwoPi + 0.001;
  const Brute b = brute(theta, 100, inf, 20000);
  ASSERT_GT(b.first, 6000);
  EXPECT_EQ(pe::first_unseen_position(theta, 100, inf, 20000), b.first);
  EXPECT_EQ(pe::unseen_position_count(theta, 100, inf, 20000), b.count);
  EXPECT_EQ(pe::first_unseen_position(theta, 100, inf, b.first), -1);
  EXPECT_EQ(pe::first_unseen_position(theta, 100, inf, b.first + 1), b.first);
  // θ' far above 2π.
  for (double big : {7.0, 50.3, 1234.567, 3.0e6}) {
    const Brute bb = brute(theta, 100, big, 5000);
    EXPECT_EQ(pe::first_unseen_position(theta, 100, big, 5000), bb.first) << big;
    EXPECT_EQ(pe::unseen_position_count(theta, 100, big, 5000), bb.count) << big;
  }
}

TEST(Extrapolation, RandomCasesMatchBruteForce) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int t = 0; t < 3000; ++t) {
    const long long train = 1 + static_cast<long long>(u(rng) * u(rng) * 3000);
    const long long length = 1 + static_cast<long long>(u(rng) * 4000);
    // θ spanning 1e-6 ... 10 (log-uniform); θ' = θ times a scale 1/16 ... 16, or unrelated.
    const double theta = std::pow(10.0, -6.0 + 7.0 * u(rng));
    double inf = theta * std::pow(2.0, -4.0 + 8.0 * u(rng));
    if (t % 5 == 0) inf = std::pow(10.0, -6.0 + 9.0 * u(rng));
    if (t % 7 == 0) inf = theta;
    const Brute b = brute(theta, train, inf, length);
    ASSERT_EQ(pe::unseen_position_count(theta, train, inf, length), b.count)
        << "theta " << theta << " L_train " << train << " theta' " << inf << " L " << length;
    ASSERT_EQ(pe::first_unseen_position(theta, train, inf, length), b.first)
        << "theta " << theta << " L_train " << train << " theta' " << inf << " L " << length;
    if (length > 1) {
      const long long p = static_cast<long long>(u(rng) * static_cast<double>(length - 1));
      ASSERT_EQ(pe::angle_unseen(theta, train, inf, p), brute_unseen(theta, train, inf, p));
    }
  }
}

TEST(Extrapolation, ClosedFormFallbackAgreesWithExactCount) {
  std::mt19937_64 rng(777);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int t = 0; t < 200; ++t) {
    const long long train = 2 + static_cast<long long>(u(rng) * 5000);
    const double theta = kTwoPi / static_cast<double>(train - 1) * (0.05 + 0.94 * u(rng));  // A < 2π
    const double inf = std::pow(10.0, -3.0 + 4.0 * u(rng));
    const long long length = 1 + static_cast<long long>(u(rng) * 3e5);
    const long long exact = pe::detail::unseen_position_count(theta, train, inf, length, pe::kExactTurnLimit);
    const long long closed = pe::detail::unseen_position_count(theta, train, inf, length, 0);
    const long long turns = static_cast<long long>(static_cast<double>(length - 1) * inf / kTwoPi);
    // Rounding at a turn boundary may move one position per turn at worst; in practice 0.
    EXPECT_LE(std::llabs(exact - closed), 1 + turns / 100000)
        << "theta " << theta << " L_train " << train << " theta' " << inf << " L " << length;
  }
  // Resonant θ' (angles return exactly to 0 every 4 positions) on the closed form.
  EXPECT_EQ(pe::detail::unseen_position_count(0.5, 1, kTwoPi / 4, 1000000, 0), 750000);
}

TEST(Extrapolation, FirstUnseenPastTheExactTurnLimit) {
  // θ' = 2π + 10^-6: one position per turn, the angle creeping 10^-6 rad per position, so
  // the gap (A, 2π) is first met after ~6·10^6 turns (> kExactTurnLimit): the closed-form
  // bisection path. Brute force over the first 7·10^6 positions finds the same position.
  const double theta = 6.2 / 99.0;
  const double inf = kTwoPi + 1e-6;
  const Brute b = brute(theta, 100, inf, 7'000'000);
  ASSERT_GT(b.first, pe::kExactTurnLimit);
  EXPECT_EQ(pe::first_unseen_position(theta, 100, inf, pe::kMaxLength), b.first);
  EXPECT_EQ(pe::first_unseen_position(theta, 100, inf, 7'000'000), b.first);
  EXPECT_EQ(pe::first_unseen_position(theta, 100, inf, b.first), -1);
}

TEST(Extrapolation, AngleUnseenAgreesWithTheCounts) {
  const Eigen::ArrayXd f = freqs(kBase);
  for (Eigen::Index i : {40, 46, 52, 63}) {
    long long n = 0, first = -1;
    for (long long p = 0; p < 3 * kTrain; ++p) {
      if (pe::angle_unseen(f[i], kTrain, f[i] / 1.5, p)) {
        ++n;
        if (first < 0) first = p;
      }
    }
    EXPECT_EQ(pe::unseen_position_count(f[i], kTrain, f[i] / 1.5, 3 * kTrain), n) << i;
    EXPECT_EQ(pe::first_unseen_position(f[i], kTrain, f[i] / 1.5, 3 * kTrain), first) << i;
  }
}

TEST(Extrapolation, HugeLengthsStayFast) {
  // 10^12 positions: pair 0 of a train-length-1 model makes 1.6·10^11 turns (closed form).
  EXPECT_EQ(pe::first_unseen_position(1.0, 1, 1.0, pe::kMaxLength), 1);
  const long long c = pe::unseen_position_count(1.0, 1, 1.0, pe::kMaxLength);
  EXPECT_GT(c, pe::kMaxLength - pe::kMaxLength / 100);  // near-multiples of 2π within tolerance are few
  EXPECT_LE(c, pe::kMaxLength - 1);
  // A real model at 10^12: LLaMA-2-7B slow pairs, plain RoPE.
  const Eigen::ArrayXd f = freqs(kBase);
  const pe::ExtrapolationReport r = pe::extrapolation_report(f, kTrain, f, pe::kMaxLength);
  EXPECT_EQ(r.first_unseen_pair, 46);
  EXPECT_EQ(r.pairs_with_unseen, kDim / 2 - 46);
  // Equidistributed slow pairs: unseen fraction ≈ 1 − A/2π.
  for (Eigen::Index i = 46; i < 60; ++i) {
    EXPECT_NEAR(r.unseen_fraction[i], 1.0 - static_cast<double>(kTrain - 1) * f[i] / kTwoPi, 1e-3) << i;
  }
}

TEST(Extrapolation, InvalidInputsAreRefused) {
  const Eigen::ArrayXd f = freqs(kBase);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto parameter_of = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const pe::InvalidArgument& e) {
      return e.parameter();
    }
    return "<no throw>";
  };
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, 0, f, 10); }), "train_length");
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, 10, f, 0); }), "infer_length");
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, -5, f, 10); }), "train_length");
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, 10, f, pe::kMaxLength + 1); }), "infer_length");
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, 10, f.head(10), 10); }), "infer_inv_freq size");
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(Eigen::ArrayXd(), 10, Eigen::ArrayXd(), 10); }),
            "train_inv_freq size");
  Eigen::ArrayXd bad = f;
  bad[3] = nan;
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(bad, 10, f, 10); }), "train_inv_freq[3]");
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, 10, bad, 10); }), "infer_inv_freq[3]");
  bad[3] = -1.0;
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, 10, bad, 10); }), "infer_inv_freq[3]");
  bad[3] = inf;
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, 10, bad, 10); }), "infer_inv_freq[3]");
  bad[3] = 1e300;  // finite, but p·θ' overflows any meaningful angle
  EXPECT_EQ(parameter_of([&] { pe::extrapolation_report(f, 10, bad, 10); }), "infer_inv_freq[3]");

  EXPECT_EQ(parameter_of([&] { pe::first_unseen_position(nan, 10, 1.0, 10); }), "train_inv_freq");
  EXPECT_EQ(parameter_of([&] { pe::first_unseen_position(1.0, 10, -1.0, 10); }), "infer_inv_freq");
  EXPECT_EQ(parameter_of([&] { pe::first_unseen_position(1.0, 10, inf, 10); }), "infer_inv_freq");
  EXPECT_EQ(parameter_of([&] { pe::first_unseen_position(1.0, 0, 1.0, 10); }), "train_length");
  EXPECT_EQ(parameter_of([&] { pe::first_unseen_position(1.0, 10, 1.0, 0); }), "infer_length");
  EXPECT_EQ(parameter_of([&] { pe::first_unseen_position(1.0, 10, 1e10, pe::kMaxLength); }), "infer_inv_freq");
  EXPECT_EQ(parameter_of([&] { pe::unseen_position_count(1.0, std::numeric_limits<long long>::max(), 1.0, 10); }),
            "train_length");
  EXPECT_EQ(parameter_of([&] { pe::angle_unseen(1.0, 10, 1.0, -1); }), "position");
  EXPECT_EQ(parameter_of([&] { pe::angle_unseen(1.0, 10, 1.0, pe::kMaxLength); }), "position");
  // Large but valid: the training arc overflowing is just "the whole circle".
  EXPECT_EQ(pe::first_unseen_position(1e300, pe::kMaxLength, 1.0, 10), -1);
}

}  // namespace
