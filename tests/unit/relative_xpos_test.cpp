// xPos against torchscale's xpos_relative_position.py: ζ_i, the scales, the centring, and the
// decayed relative score re-derived here by rotating and scaling q and k by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"
#include "pe/relative/xpos.hpp"

namespace {

TEST(Xpos, ZetaForDimEight) {
  // (2i + 0.4·8)/(1.4·8) = (2i + 3.2)/11.2.
  const Eigen::ArrayXd z = pe::xpos_zeta(8);
  ASSERT_EQ(z.size(), 4);
  EXPECT_NEAR(z[0], 3.2 / 11.2, 1e-16);
  EXPECT_NEAR(z[1], 5.2 / 11.2, 1e-16);
  EXPECT_NEAR(z[2], 7.2 / 11.2, 1e-16);
  EXPECT_NEAR(z[3], 9.2 / 11.2, 1e-16);
  // d = 128: the last ζ is (126 + 51.2)/179.2 < 1.
  EXPECT_NEAR(pe::xpos_zeta(128)[63], 177.2 / 179.2, 1e-15);
}

TEST(Xpos, QScalesAreZetaToThePositionOverScaleBase) {
  const pe::TableD s = pe::xpos_q_scales(8, 1025, 512.0);
  for (int i = 0; i < 4; ++i) {
    const double zeta = (2.0 * i + 3.2) / 11.2;
    EXPECT_EQ(s(0, i), 1.0);
    EXPECT_NEAR(s(512, i), zeta, 1e-15);
    EXPECT_NEAR(s(1024, i), zeta * zeta, 1e-15);
    EXPECT_NEAR(s(256, i), std::sqrt(zeta), 1e-15);
  }
  const pe::TableD shifted = pe::xpos_q_scales(8, 2, 512.0, -512);
  EXPECT_NEAR(shifted(0, 0), 11.2 / 3.2, 1e-14);  // ζ^−1
}

TEST(Xpos, TorchscaleCentresPositions) {
  // min_pos = -(L + offset) // 2 in Python.
  const Eigen::ArrayXd five = pe::xpos_torchscale_positions(5);
  const double expected5[] = {-3, -2, -1, 0, 1};
  for (int t = 0; t < 5; ++t) EXPECT_EQ(five[t], expected5[t]);
  const Eigen::ArrayXd four = pe::xpos_torchscale_positions(4);
  const double expected4[] = {-2, -1, 0, 1};
  for (int t = 0; t < 4; ++t) EXPECT_EQ(four[t], expected4[t]);
  // Decoding the fifth token alone (offset 4) gives the last row of the length-5 call.
  EXPECT_EQ(pe::xpos_torchscale_positions(1, 4)[0], 1.0);
  // q at row m (upscaled) times k at row n (downscaled) carries ζ^((m − n)/scale_base) whatever
  // the centring: ζ^((m + c)/b)·ζ^(−(n + c)/b).
  const Eigen::ArrayXd pos = pe::xpos_torchscale_positions(9);
  const double zeta = pe::xpos_zeta(8)[1];
  EXPECT_NEAR(std::pow(zeta, pos[7] / 512.0) * std::pow(zeta, -pos[2] / 512.0), std::pow(zeta, 5.0 / 512.0), 1e-15);
}

TEST(Xpos, DecayedScoreEqualsRotatingAndScalingByHand) {
  const long long d = 8;
  Eigen::VectorXd q(d), k(d);
  q << 0.3, -1.2, 0.7, 0.1, -0.4, 0.9, 1.5, -0.6;
  k << -0.8, 0.2, 0.5, 1.1, 0.3, -0.7, 0.4, 0.9;
  const double base = 16.0;  // small, so the decay is large over a few positions
  // torchscale: pair i = dims (2i, 2i+1), angle p·10000^(−2i/d), scale ζ^(±p/base) on cos and sin.
  auto encode = [&](const Eigen::VectorXd& x, long long p, double sign) {
    Eigen::VectorXd y(d);
    for (long long i = 0; i < d / 2; ++i) {
      const double theta = std::pow(10000.0, -2.0 * i / d);
      const double zeta = (2.0 * i + 0.4 * d) / (1.4 * d);
      const double s = std::pow(zeta, sign * static_cast<double>(p) / base);
      const double c = std::cos(p * theta), sn = std::sin(p * theta);
      y[2 * i] = s * (x[2 * i] * c - x[2 * i + 1] * sn);
      y[2 * i + 1] = s * (x[2 * i + 1] * c + x[2 * i] * sn);
    }
    return y;
  };
  const pe::RelativeScoreCoefficients coeff =
      pe::relative_score_coefficients(q, k, d / 2, pe::PairConvention::Interleaved);
  Eigen::ArrayXd deltas(5);
  deltas << 0, 1, 3, 7, 20;
  const Eigen::ArrayXd curve = pe::xpos_relative_score_curve(coeff, d, deltas, base);
  for (int r = 0; r < deltas.size(); ++r) {
    const long long n = 5, m = n + static_cast<long long>(deltas[r]);  // query m after key n
    const double expected = encode(q, m, +1.0).dot(encode(k, n, -1.0));
    EXPECT_NEAR(curve[r], expected, 1e-12) << "delta " << deltas[r];
  }
}

// The overload for a model's own frequencies: Σ_i ζ_i^(Δ/base)·(a_i cos Δθ'_i − b_i sin Δθ'_i), written out.
TEST(Xpos, DecayOnAnyFrequencies) {
  pe::RelativeScoreCoefficients c{Eigen::ArrayXd(3), Eigen::ArrayXd(3), 0.0};
  c.a << 1.5, -0.25, 2.0;
  c.b << 0.5, 1.0, -0.75;
  Eigen::ArrayXd f(3);
  f << 0.9, 0.05, 0.001;  // not 10000^(−2i/6): a model's (scaled) frequencies
  Eigen::ArrayXd deltas(3);
  deltas << 0, 17, 300;
  const Eigen::ArrayXd curve = pe::xpos_relative_score_curve(c, f, deltas, 64.0);
  for (int r = 0; r < 3; ++r) {
    double expected = 0;
    for (int i = 0; i < 3; ++i) {
      const double zeta = (2.0 * i + 0.4 * 6) / (1.4 * 6);
      expected += std::pow(zeta, deltas[r] / 64.0) * (c.a[i] * std::cos(deltas[r] * f[i]) - c.b[i] * std::sin(deltas[r] * f[i]));
    }
    EXPECT_NEAR(curve[r], expected, 1e-12) << deltas[r];
  }
}

TEST(Xpos, DecayAndMean) {
  Eigen::ArrayXd deltas(3);
  deltas << 0, 512, 1024;
  const pe::TableD decay = pe::xpos_decay(8, deltas, 512.0);
  EXPECT_EQ(decay(0, 2), 1.0);
  EXPECT_NEAR(decay(1, 2), 7.2 / 11.2, 1e-15);
  const Eigen::ArrayXd mean = pe::xpos_mean_decay(8, deltas, 512.0);
  EXPECT_NEAR(mean[1], (3.2 + 5.2 + 7.2 + 9.2) / 11.2 / 4.0, 1e-15);
}

TEST(Xpos, RefusesBadParameters) {
  auto expect_refused = [](long long dim, double base, const std::string& parameter) {
    try {
      pe::require_xpos_params(dim, base);
      ADD_FAILURE() << "accepted dim " << dim << " scale_base " << base;
    } catch (const pe::InvalidArgument& e) {
      EXPECT_EQ(e.parameter(), parameter);
    }
  };
  expect_refused(64, 0.0, "scale_base");
  expect_refused(64, -512.0, "scale_base");
  expect_refused(64, std::nan(""), "scale_base");
  expect_refused(64, INFINITY, "scale_base");
  expect_refused(7, 512.0, "dim");
  expect_refused(0, 512.0, "dim");
  EXPECT_NO_THROW(pe::require_xpos_params(2, 1e-3));
}

}  // namespace
