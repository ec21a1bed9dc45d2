// Men et al.'s B(m) and the smallest base it implies, against sums of std::cos computed here
// one m at a time; Liu et al.'s critical dimension against the paper's LLaMA 2 value.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pe/analysis/theta_bounds.hpp"
#include "pe/base/errors.hpp"

namespace {

Eigen::ArrayXd plain(double theta, long long d) {
  Eigen::ArrayXd f(d / 2);
  for (long long i = 0; i < d / 2; ++i) f[i] = std::pow(theta, -2.0 * double(i) / double(d));
  return f;
}

double naive_b(const Eigen::ArrayXd& f, long long m) {
  double s = 0;
  for (Eigen::Index i = 0; i < f.size(); ++i) s += std::cos(double(m) * f[i]);
  return s;
}

long long naive_first_negative(const Eigen::ArrayXd& f, long long length) {
  for (long long m = 0; m <= length; ++m)
    if (naive_b(f, m) < 0.0) return m;
  return -1;
}

TEST(ThetaBounds, ScanMatchesTheSumAtEveryDistance) {
  const Eigen::ArrayXd f = plain(500.0, 32);
  const long long L = 70000;  // several blocks of 16 × 4096 and a partial one
  const pe::BaseSumScan s = pe::scan_base_sum(f, L, 100);
  EXPECT_EQ(s.scanned, L);
  EXPECT_EQ(s.first_negative, naive_first_negative(f, L));
  ASSERT_GE(s.first_negative, 0);
  double lo = std::numeric_limits<double>::infinity();
  long long arg = 0;
  for (long long m = 0; m <= L; ++m)
    if (const double v = naive_b(f, m); v < lo) lo = v, arg = m;
  EXPECT_NEAR(s.min_value, lo, 1e-9);
  EXPECT_EQ(s.argmin, arg);
  // Buckets cover every m with the exact extremes.
  ASSERT_EQ(s.bucket_start.size(), 100u);
  const long long per = (L + 1 + 99) / 100;
  for (std::size_t b : {std::size_t{0}, std::size_t{37}, std::size_t{99}}) {
    double bmin = 1e300, bmax = -1e300;
    for (long long m = s.bucket_start[b]; m < std::min(L + 1, s.bucket_start[b] + per); ++m) {
      bmin = std::min(bmin, naive_b(f, m));
      bmax = std::max(bmax, naive_b(f, m));
    }
    EXPECT_NEAR(s.bucket_min[b], bmin, 1e-9) << "bucket " << b;
    EXPECT_NEAR(s.bucket_max[b], bmax, 1e-9) << "bucket " << b;
  }
  EXPECT_DOUBLE_EQ(s.bucket_max[0], 16.0);  // B(0) = d/2
}

TEST(ThetaBounds, SmallestBaseIsTheEdgeOfNonNegativity) {
  const long long d = 16, L = 2000;
  const pe::SmallestBase b = pe::smallest_base_for_length(d, L, 1e-6);
  ASSERT_TRUE(b.found);
  EXPECT_EQ(naive_first_negative(plain(b.theta, d), L), -1) << "theta " << b.theta;
  EXPECT_GE(naive_first_negative(plain(b.theta * (1.0 - 1e-5), d), L), 0) << "just below still passes: not the smallest";
}

TEST(ThetaBounds, ALongerContextNeedsALargerBase) {
  const pe::SmallestBase short_ctx = pe::smallest_base_for_length(32, 1000);
  const pe::SmallestBase long_ctx = pe::smallest_base_for_length(32, 16000);
  ASSERT_TRUE(short_ctx.found && long_ctx.found);
  EXPECT_GT(long_ctx.theta, short_ctx.theta);
}

TEST(ThetaBounds, CriticalDimensionOfLlama2) {
  // Liu et al. 2023: LLaMA 2 (θ = 10^4, d = 128, 4K training) has d_extra = 92.
  EXPECT_EQ(pe::critical_dimension(10000.0, 128, 4096), 92);
  // By hand: (64·ln(4096/2π)/ln 10^4) = 45.03 → 46 pairs turn fully → 92.
  const double x = 64.0 * std::log(4096.0 / (2.0 * M_PI)) / std::log(10000.0);
  EXPECT_EQ(pe::critical_dimension(10000.0, 128, 4096), 2 * static_cast<long long>(std::ceil(x)));
  // Llama 3 (θ = 5·10^5, 8K): more of the head extrapolates.
  EXPECT_LT(pe::critical_dimension(500000.0, 128, 8192), 92);
  EXPECT_EQ(pe::critical_dimension(10000.0, 128, 2), 0);  // L < 2π: no pair turns fully
}

TEST(ThetaBounds, BadInputNamesTheParameter) {
  try {
    pe::scan_base_sum(Eigen::ArrayXd(0), 10);
    FAIL();
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "inv_freq");
  }
  try {
    pe::critical_dimension(10000.0, 127, 4096);
    FAIL();
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "dim");
  }
}

}  // namespace
