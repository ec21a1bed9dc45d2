// The angle table (angle-addition rows between exact anchors) against what the views used
// before it: apply_rope and the seeds' mixed tables, which call cos/sin per entry.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "pe/encodings/angle_table.hpp"
#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/analysis/interleaved_cache_mix.hpp"

namespace {

Eigen::VectorXd random_vector(Eigen::Index n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i) x[i] = normal(rng);
  return x;
}

TEST(AngleTable, EntriesMatchLongDoubleCosAndSin) {
  // d = 1024 at θ = 10⁴ and θ = 10⁷, positions well past several anchors.
  for (const double theta : {1e4, 1e7}) {
    const Eigen::ArrayXd inv = pe::inverse_frequencies(1024, theta);
    pe::AngleTable t;
    pe::angle_table_into(t, inv, 700);
    double worst = 0;
    for (long long p = 0; p < 700; ++p)
      for (Eigen::Index i = 0; i < inv.size(); ++i) {
        const long double a = (long double)p * (long double)inv[i];
        worst = std::max(worst, double(std::fabs((long double)t.cos_row(p)[i] - std::cos(a))));
        worst = std::max(worst, double(std::fabs((long double)t.sin_row(p)[i] - std::sin(a))));
      }
    EXPECT_LT(worst, 1e-13) << "theta " << theta;
  }
}

TEST(AngleTable, RotationsMatchApplyRopeAndTheSeedMixes) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(256, 10000.0);
  const Eigen::VectorXd x = random_vector(256, 7);
  pe::AngleTable t;
  pe::angle_table_into(t, inv, 520);
  Eigen::VectorXd y(256);
  for (long long p : {0LL, 1LL, 15LL, 16LL, 17LL, 100LL, 511LL, 519LL}) {
    for (auto conv : {pe::PairConvention::Interleaved, pe::PairConvention::HalfSplit}) {
      pe::rotate_with_angles(t, p, x.data(), y.data(), conv);
      EXPECT_LT((y - pe::apply_rope(x, double(p), inv, conv)).cwiseAbs().maxCoeff(), 1e-12) << p;
    }
    pe::half_split_cache_mix_with_angles(t, p, x.data(), y.data());
    EXPECT_LT((y - pe::apply_half_split_cache_mix(x, double(p), inv)).cwiseAbs().maxCoeff(), 1e-12) << p;
    pe::interleaved_cache_mix_with_angles(t, p, x.data(), y.data());
    EXPECT_LT((y - pe::apply_interleaved_cache_mix(x, double(p), inv)).cwiseAbs().maxCoeff(), 1e-12) << p;
  }
}

TEST(AngleTable, ReusesStorageAndRejectsBadInput) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(64, 10000.0);
  pe::AngleTable t;
  pe::angle_table_into(t, inv, 40);
  EXPECT_EQ(t.positions, 40);
  EXPECT_EQ(t.pairs, 32);
  EXPECT_EQ(t.cos.size(), 40u * 32u);
  EXPECT_THROW(pe::angle_table_into(t, inv, -1), pe::InvalidArgument);
  Eigen::ArrayXd bad = inv;
  bad[3] = NAN;
  EXPECT_THROW(pe::angle_table_into(t, bad, 4), pe::InvalidArgument);
  pe::angle_table_into(t, inv, 0);
  EXPECT_TRUE(t.cos.empty());
}

}  // namespace
