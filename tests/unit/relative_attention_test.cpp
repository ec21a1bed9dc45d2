// The relative families as attention methods (analysis' attention_pattern with the inputs
// pe/relative makes): each is checked against what it must be, derived here — a bias only
// reweights a row by exp(bias), xPos with ζ = 1 is RoPE with θ = 10000 in interleaved pairs.
#include <gtest/gtest.h>

#include <cmath>

#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"
#include "pe/relative/attention_inputs.hpp"
#include "pe/relative/kerple.hpp"
#include "pe/relative/t5_bias.hpp"
#include "pe/relative/t5_buckets.hpp"

namespace {

pe::AttentionParams base_params() {
  pe::AttentionParams p;
  p.length = 12;
  p.dim = 8;
  p.seed = 5;
  const pe::T5BucketParams t5{8, 16, true};
  pe::set_relative_attention_inputs(p, t5, pe::t5_illustrative_bias_table(t5, 4), 2, {0.7, 0.9}, 64.0);
  return p;
}

// softmax(s + b) / softmax(s) at (m, n) over the same at (m, m) is exp(b(m, n) − b(m, m)).
void expect_reweighted(const pe::TableF& with, const pe::TableF& without, const pe::TableD& bias, long long n) {
  for (long long m = 0; m < n; ++m)
    for (long long k = 0; k <= m; ++k) {
      const double ratio = (double(with(m, k)) / double(with(m, m))) / (double(without(m, k)) / double(without(m, m)));
      EXPECT_NEAR(ratio, std::exp(bias(m, k) - bias(m, m)), 2e-5 * std::max(1.0, ratio)) << m << ", " << k;
    }
}

TEST(RelativeAttention, T5AndKerpleAddTheirBiasToTheContentScore) {
  const pe::AttentionParams p = base_params();
  const pe::TableF none = pe::attention_pattern(pe::AttentionMethod::NoPosition, p);
  // T5's bias of query m, key n: the illustrative table's entry for bucket(n − m), head 2.
  const pe::T5BucketParams t5{8, 16, true};
  const pe::T5BiasTable table = pe::t5_illustrative_bias_table(t5, 4);
  pe::TableD t5_bias(p.length, p.length), kerple_bias = pe::TableD::Zero(p.length, p.length);
  for (long long m = 0; m < p.length; ++m)
    for (long long k = 0; k < p.length; ++k) {
      t5_bias(m, k) = table.bias(pe::t5_relative_bucket(k - m, t5), 2);
      if (k <= m) kerple_bias(m, k) = -0.7 * std::log(1.0 + 0.9 * double(m - k));
    }
  EXPECT_EQ(p.t5_bias.rows(), p.length);
  expect_reweighted(pe::attention_pattern(pe::AttentionMethod::T5Bias, p), none, t5_bias, p.length);
  expect_reweighted(pe::attention_pattern(pe::AttentionMethod::Kerple, p), none, kerple_bias, p.length);
}

TEST(RelativeAttention, XposWithUnitZetaIsRopeAndWithItsZetaFavoursNearKeys) {
  pe::AttentionParams p = base_params();
  p.theta = 10000.0;
  p.convention = pe::PairConvention::Interleaved;
  pe::AttentionParams unit = p;
  unit.xpos_zeta = Eigen::ArrayXd::Ones(p.dim / 2);
  const pe::TableF rope = pe::attention_pattern(pe::AttentionMethod::Rope, p);
  const pe::TableF xpos_unit = pe::attention_pattern(pe::AttentionMethod::Xpos, unit);
  EXPECT_LT((rope - xpos_unit).abs().maxCoeff(), 1e-6);
  // With ζ < 1 every score is scaled toward 0 the farther its key: the pattern differs.
  const pe::TableF xpos = pe::attention_pattern(pe::AttentionMethod::Xpos, p);
  EXPECT_GT((rope - xpos).abs().maxCoeff(), 1e-3);
  for (long long m = 0; m < p.length; ++m) EXPECT_NEAR(xpos.row(m).sum(), 1.0, 1e-5);
  EXPECT_STREQ(pe::to_string(pe::AttentionMethod::T5Bias), "t5");
  EXPECT_STREQ(pe::to_string(pe::AttentionMethod::Kerple), "kerple");
  EXPECT_STREQ(pe::to_string(pe::AttentionMethod::Xpos), "xpos");
}

TEST(RelativeAttention, MissingInputsAreNamed) {
  pe::AttentionParams p;
  p.length = 6;
  p.dim = 8;
  try {
    pe::attention_pattern(pe::AttentionMethod::T5Bias, p);
    ADD_FAILURE() << "no bias accepted";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "t5_bias");
  }
  try {
    pe::attention_pattern(pe::AttentionMethod::Xpos, p);
    ADD_FAILURE() << "no zeta accepted";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "xpos_zeta");
  }
  p.dim = 7;
  EXPECT_THROW(pe::attention_pattern(pe::AttentionMethod::Xpos, p), pe::InvalidArgument);
}

}  // namespace
