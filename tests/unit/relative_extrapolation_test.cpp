// KERPLE (chijames/KERPLE), Sandwich (Chi et al. 2023), FIRE's transform (Li et al. 2023) and
// NoPE's causal signal (Kazemnejad et al. 2023): values computed by hand here.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/encodings/sinusoidal.hpp"
#include "pe/relative/fire.hpp"
#include "pe/relative/kerple.hpp"
#include "pe/relative/nope.hpp"
#include "pe/relative/sandwich.hpp"

namespace {

std::string refused_parameter(const std::function<void()>& f) {
  try {
    f();
  } catch (const pe::InvalidArgument& e) {
    return e.parameter();
  }
  return "(accepted)";
}

TEST(Kerple, LogAndPowerValues) {
  EXPECT_DOUBLE_EQ(pe::kerple_log_bias(4.0, {2.0, 0.5}), -2.0 * std::log(3.0));
  EXPECT_DOUBLE_EQ(pe::kerple_log_bias(0.0, {2.0, 0.5}), 0.0);
  EXPECT_DOUBLE_EQ(pe::kerple_power_bias(4.0, {0.5, 1.5}), -4.0);  // −0.5·4^1.5
  EXPECT_DOUBLE_EQ(pe::kerple_power_bias(9.0, {1.0, 0.5}), -3.0);
  EXPECT_DOUBLE_EQ(pe::kerple_power_bias(0.0, {1.0, 0.5}), 0.0);
  // Power with r2 = 1 is ALiBi with slope r1.
  EXPECT_DOUBLE_EQ(pe::kerple_power_bias(10.0, {0.25, 1.0}), -2.5);
  Eigen::ArrayXd d(3);
  d << 0, 1, 2;
  const Eigen::ArrayXd c = pe::kerple_log_curve(d, {1.0, 1.0});
  EXPECT_DOUBLE_EQ(c[2], -std::log(3.0));
}

TEST(Kerple, RefusesOutsideTheKernelsRange) {
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_log({0.0, 1.0}); }), "r1");
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_log({-1.0, 1.0}); }), "r1");
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_log({1.0, 0.0}); }), "r2");
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_log({1.0, -0.5}); }), "r2");
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_log({1.0, 5.0}); }), "(accepted)");  // log: any r2 > 0
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_power({1.0, 0.0}); }), "r2");
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_power({1.0, 2.0000001}); }), "r2");
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_power({1.0, 2.0}); }), "(accepted)");
  EXPECT_EQ(refused_parameter([] { pe::require_kerple_power({std::nan(""), 1.0}); }), "r1");
  EXPECT_EQ(refused_parameter([] { pe::kerple_log_bias(-1.0, {1.0, 1.0}); }), "distance");
  try {
    pe::require_kerple_power({1.0, 3.0});
  } catch (const pe::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("0 < r2 <= 2"), std::string::npos) << e.what();
  }
}

TEST(Sandwich, InnerProductOfSinusoids) {
  // d̄ = 4: frequencies 1 and 10000^(−1/2) = 0.01.
  EXPECT_NEAR(pe::sandwich_inner_product(3.0, 4), std::cos(3.0) + std::cos(0.03), 1e-15);
  EXPECT_EQ(pe::sandwich_bias(0.0, 128), 0.0);
  EXPECT_NEAR(pe::sandwich_bias(3.0, 4), std::cos(3.0) + std::cos(0.03) - 2.0, 1e-15);
  // It is the dot product of two rows of the sinusoidal table: p_m·p_n depends on m − n only.
  const pe::TableF t = pe::sinusoidal_table(40, 16);
  for (int m : {0, 7, 33})
    for (int n : {0, 5, 39})
      EXPECT_NEAR((t.row(m).cast<double>() * t.row(n).cast<double>()).sum(), pe::sandwich_inner_product(m - n, 16), 2e-5);
  EXPECT_EQ(refused_parameter([] { pe::sandwich_bias(1.0, 7); }), "sandwich_dim");
}

TEST(Fire, TransformValues) {
  const pe::FireParams p{1.0, 4.0};
  EXPECT_DOUBLE_EQ(pe::fire_transform(2, 0, p), std::log(3.0) / std::log(5.0));     // max(L, i) = 4
  EXPECT_DOUBLE_EQ(pe::fire_transform(10, 4, p), std::log(7.0) / std::log(11.0));   // max(L, i) = 10
  EXPECT_EQ(pe::fire_transform(0, 0, p), 0.0);
  EXPECT_DOUBLE_EQ(pe::fire_transform(10, 0, p), 1.0);  // the farthest key of a long query
  const pe::FireParams c{0.5, 4.0};
  EXPECT_DOUBLE_EQ(pe::fire_transform(6, 2, c), std::log(3.0) / std::log(4.0));
  Eigen::ArrayXd d(3);
  d << 0, 4, 100;  // 100 > query: clamped to the first key
  const Eigen::ArrayXd curve = pe::fire_transform_curve(10, d, p);
  EXPECT_DOUBLE_EQ(curve[1], std::log(5.0) / std::log(11.0));
  EXPECT_DOUBLE_EQ(curve[2], 1.0);
  const pe::TableD m = pe::fire_transform_matrix(6, p);
  EXPECT_EQ(m(1, 3), 0.0);
  EXPECT_DOUBLE_EQ(m(5, 1), std::log(5.0) / std::log(6.0));
  EXPECT_EQ(refused_parameter([] { pe::require_fire_params({0.0, 4.0}); }), "fire_c");
  EXPECT_EQ(refused_parameter([] { pe::require_fire_params({1.0, 0.0}); }), "fire_threshold");
  EXPECT_EQ(refused_parameter([] { pe::require_fire_params({1.0, -3.0}); }), "fire_threshold");
}

TEST(Nope, StartTokenShare) {
  EXPECT_EQ(pe::nope_start_token_share(0), 1.0);
  EXPECT_EQ(pe::nope_start_token_share(3), 0.25);
  const Eigen::ArrayXd s = pe::nope_position_signal(4);
  EXPECT_DOUBLE_EQ(s[2], 1.0 / 3.0);
  EXPECT_EQ(pe::nope_signal_step(0), 0.5);
  EXPECT_DOUBLE_EQ(pe::nope_signal_step(9), 1.0 / 110.0);
  EXPECT_EQ(refused_parameter([] { pe::nope_start_token_share(-1); }), "position");
}

}  // namespace
