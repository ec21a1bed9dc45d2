// The vector kernels (pe/encodings/simd.hpp): sines and cosines against long double, every
// instruction-set level giving bit-identical tables and curves, and the tables and curves
// within their documented bounds of a long double reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/encodings/simd.hpp"
#include "pe/encodings/sinusoidal.hpp"

namespace {

// The levels this CPU has (portable always), restoring the best one afterwards.
std::vector<std::string> levels() {
  std::vector<std::string> out;
  for (const char* l : {"portable", "avx2", "avx512"})
    if (pe::set_simd_level(l)) out.push_back(l);
  pe::set_simd_level(out.back());
  return out;
}

TEST(SimdKernels, UnknownOrMissingLevelsAreRefused) {
  const std::string before = pe::simd_level_name();
  EXPECT_FALSE(pe::set_simd_level("sse9"));
  EXPECT_EQ(before, pe::simd_level_name());
  EXPECT_TRUE(pe::set_simd_level("portable"));
  EXPECT_STREQ(pe::simd_level_name(), "portable");
  pe::set_simd_level(levels().back());
}

TEST(SimdKernels, SincosIsWithin4e16OfLongDouble) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> wide(-1.6e6, 1.6e6), narrow(-10.0, 10.0);
  std::vector<double> x;
  for (int i = 0; i < 20000; ++i) x.push_back(i % 2 ? wide(rng) : narrow(rng));
  // Quadrant edges, zero, and angles past the reduction's range (libm then).
  for (double v : {0.0, -0.0, 0.7853981633974483, 1.5707963267948966, 3.141592653589793, -2.356194490192345, 1e9, -3.5e12, 1e300})
    x.push_back(v);
  for (const std::string& level : levels()) {
    SCOPED_TRACE(level);
    ASSERT_TRUE(pe::set_simd_level(level));
    std::vector<double> s(x.size()), c(x.size());
    pe::sincos_batch(x.data(), s.data(), c.data(), (long long)x.size());
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const long double v = x[i];
      worst = std::max(worst, double(std::fabs((long double)s[i] - std::sin(v))));
      worst = std::max(worst, double(std::fabs((long double)c[i] - std::cos(v))));
    }
    EXPECT_LT(worst, 4e-16);
  }
  pe::set_simd_level(levels().back());
}

TEST(SimdKernels, EveryLevelGivesBitIdenticalTablesAndCurves) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 10000.0);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(128, -1.0, 1.0), k = Eigen::VectorXd::LinSpaced(128, 0.5, -0.25);
  const auto coeffs = pe::relative_score_coefficients(q, k, 64, pe::PairConvention::Interleaved);
  const Eigen::ArrayXd uniform = Eigen::ArrayXd::LinSpaced(5000, 0.0, 4999.0);
  const Eigen::ArrayXd log = Eigen::ArrayXd::LinSpaced(700, 0.0, 6.0).unaryExpr([](double e) { return std::pow(10.0, e); });
  pe::RopeTables base_rope;
  pe::TableF base_sin;
  Eigen::ArrayXd base_u, base_l;
  bool first = true;
  for (const std::string& level : levels()) {
    SCOPED_TRACE(level);
    ASSERT_TRUE(pe::set_simd_level(level));
    pe::RopeTables t;
    pe::rope_tables_into(t, inv, 3000, 999000);  // far positions: anchors and recurrence both matter
    const pe::TableF sinus = pe::sinusoidal_table(777, 131, 10000.0);  // odd d: a lone last sine
    const Eigen::ArrayXd u = pe::relative_score_curve(coeffs, inv, uniform), l = pe::relative_score_curve(coeffs, inv, log);
    if (first) {
      base_rope = t, base_sin = sinus, base_u = u, base_l = l, first = false;
      continue;
    }
    EXPECT_TRUE((t.cos.array() == base_rope.cos.array()).all());
    EXPECT_TRUE((t.sin.array() == base_rope.sin.array()).all());
    EXPECT_TRUE((sinus.array() == base_sin.array()).all());
    EXPECT_TRUE((u == base_u).all());
    EXPECT_TRUE((l == base_l).all());
  }
  pe::set_simd_level(levels().back());
}

// The kernels store whole 64-byte vectors per row; a table 16 bytes past a cache line (glibc's
// malloc, Eigen's default) makes every such store straddle two lines. EIGEN_MAX_ALIGN_BYTES=64
// (top-level CMakeLists.txt) puts every Eigen heap array on a cache line, large (mmap'd) or small.
TEST(SimdKernels, TablesStartOnACacheLine) {
  const auto line_offset = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64; };
  for (long long length : {3LL, 4096LL, 131072LL}) {
    SCOPED_TRACE(length);
    const pe::RopeTables t = pe::rope_tables(pe::inverse_frequencies(128, 10000.0), length);
    EXPECT_EQ(line_offset(t.cos.data()), 0u);
    EXPECT_EQ(line_offset(t.sin.data()), 0u);
    const pe::TableF s = pe::sinusoidal_table(length, 64, 10000.0);
    EXPECT_EQ(line_offset(s.data()), 0u);
  }
}

TEST(SimdKernels, TablesAndCurvesStayWithinTheirBoundsOfLongDouble) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(64, 10000.0);
  // The kernel writes rows two at a time: lengths whose last block has an odd row count (1,
  // 2101 = 32·64 + 53) reach its one-row tail too.
  for (long long length : {1LL, 2100LL, 2101LL}) {
    SCOPED_TRACE(length);
    pe::RopeTables t;
    pe::rope_tables_into(t, inv, length, 123456);
    double worst = 0;
    for (long long p = 0; p < length; ++p)
      for (Eigen::Index i = 0; i < inv.size(); ++i) {
        const long double a = (long double)(123456 + p) * (long double)inv[i];
        worst = std::max(worst, double(std::fabs((long double)t.cos(p, i) - std::cos(a))));
        worst = std::max(worst, double(std::fabs((long double)t.sin(p, i) - std::sin(a))));
      }
    EXPECT_LT(worst, 5e-7);  // rope.hpp: float rows, |error| < 5e-7
  }

  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(64, -1.0, 1.0);
  const auto c = pe::relative_score_coefficients(q, q, 32, pe::PairConvention::HalfSplit);
  for (const Eigen::ArrayXd& deltas : {Eigen::ArrayXd(Eigen::ArrayXd::LinSpaced(3000, 10.0, 3000 * 7.0 + 3.0)),
                                       Eigen::ArrayXd(Eigen::ArrayXd::LinSpaced(500, 0.0, 6.0).unaryExpr([](double e) { return std::pow(10.0, e); }))}) {
    const Eigen::ArrayXd s = pe::relative_score_curve(c, inv, deltas);
    double scale = 0, err = 0;
    for (Eigen::Index i = 0; i < 32; ++i) scale += std::fabs(c.a[i]) + std::fabs(c.b[i]);
    for (Eigen::Index j = 0; j < deltas.size(); ++j) {
      long double ref = c.passthrough;
      for (Eigen::Index i = 0; i < 32; ++i) {
        // The angle as core forms it, Δ·θ_i in double (at Δ = 10^6 its rounding alone moves a
        // cosine by 6e-11); the kernels must add no more than 1e-12 of the sum's scale to that.
        const long double angle = (long double)(deltas[j] * inv[i]);
        ref += c.a[i] * std::cos(angle) + c.b[i] * std::sin(angle);
      }
      err = std::max(err, double(std::fabs((long double)s[j] - ref)));
    }
    EXPECT_LT(err, 1e-12 * scale);
  }
}

}  // namespace
