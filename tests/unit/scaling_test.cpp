// RoPE scaling: every expected value is computed here, in double, from the published
// formula (not by calling the code under test), at the configs of real models.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/scaling/scaling.hpp"

namespace {

using pe::RopeConfig;
using pe::RopeType;

constexpr double kPi = std::numbers::pi;

double theta_i(double base, long long d, long long i) { return std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(d)); }

void expect_rel(double actual, double expected, double rel, const std::string& what) {
  EXPECT_NEAR(actual, expected, rel * std::abs(expected)) << what;
}

RopeConfig make(double theta, long long d, long long max_pos, RopeType type = RopeType::Default, double factor = 1.0) {
  RopeConfig c;
  c.theta = theta;
  c.head_dim = d;
  c.max_position_embeddings = max_pos;
  c.scaling.type = type;
  c.scaling.factor = factor;
  return c;
}

TEST(Scaling, DefaultIsPlainRope) {
  const auto r = pe::scaled_frequencies(make(10000.0, 64, 128), 128);
  ASSERT_EQ(r.inv_freq.size(), 32);
  EXPECT_EQ(r.rotary_dim, 64);
  for (long long i = 0; i < 32; ++i) expect_rel(r.inv_freq[i], theta_i(10000.0, 64, i), 1e-14, "pair " + std::to_string(i));
  EXPECT_DOUBLE_EQ(r.inv_freq[0], 1.0);  // pair 0 turns one radian per position (errata 4)
  EXPECT_EQ(r.attention_factor, 1.0);
  EXPECT_EQ(r.effective_theta, 10000.0);
  EXPECT_EQ(r.logit_scale, 1.0);
}

TEST(Scaling, LinearDividesEveryFrequency) {
  // Position Interpolation (Chen et al. 2023): θ_i / s.
  const auto r = pe::scaled_frequencies(make(10000.0, 128, 4096, RopeType::Linear, 4.0), 16384);
  for (long long i = 0; i < 64; ++i) expect_rel(r.inv_freq[i], theta_i(10000.0, 128, i) / 4.0, 1e-14, "pair");
  for (long long i = 0; i < 64; ++i) expect_rel(r.original_inv_freq[i], theta_i(10000.0, 128, i), 1e-14, "orig");
  EXPECT_EQ(r.attention_factor, 1.0);
  EXPECT_EQ(r.factor, 4.0);
}

TEST(Scaling, NtkAwareChangesTheBase) {
  // bloc97: base' = base·α^(d/(d−2)); the slowest pair is then interpolated by exactly α.
  const double base = 10000.0, alpha = 8.0;
  const long long d = 128;
  const auto r = pe::scaled_frequencies(make(base, d, 4096, RopeType::NtkAware, alpha), 4096);
  const double base2 = base * std::pow(alpha, 128.0 / 126.0);
  expect_rel(r.effective_theta, base2, 1e-14, "effective theta");
  for (long long i = 0; i < d / 2; ++i) expect_rel(r.inv_freq[i], theta_i(base2, d, i), 1e-13, "pair");
  EXPECT_DOUBLE_EQ(r.inv_freq[0], 1.0);  // fastest pair untouched
  expect_rel(r.inv_freq[d / 2 - 1], theta_i(base, d, d / 2 - 1) / alpha, 1e-12, "slowest pair ÷ alpha");
}

TEST(Scaling, DynamicNtkBelowAndAboveOriginalLength) {
  const double base = 10000.0, s = 2.0;
  const long long d = 128, l_orig = 4096;
  const RopeConfig c = make(base, d, l_orig, RopeType::Dynamic, s);
  // At or below L_orig: HF clamps L to L_orig, the bracket is 1, nothing changes.
  for (long long len : {1LL, 1000LL, 4096LL}) {
    const auto r = pe::scaled_frequencies(c, len);
    EXPECT_DOUBLE_EQ(r.effective_theta, base) << len;
    for (long long i = 0; i < d / 2; ++i) expect_rel(r.inv_freq[i], theta_i(base, d, i), 1e-13, "below");
  }
  // Above: base' = base·((s·L/L_orig) − (s − 1))^(d/(d−2)).
  for (long long len : {4097LL, 8192LL, 32768LL}) {
    const double b2 = base * std::pow(s * static_cast<double>(len) / 4096.0 - (s - 1.0), 128.0 / 126.0);
    const auto r = pe::scaled_frequencies(c, len);
    expect_rel(r.effective_theta, b2, 1e-13, "dynamic base at " + std::to_string(len));
    for (long long i = 0; i < d / 2; ++i) expect_rel(r.inv_freq[i], theta_i(b2, d, i), 1e-12, "above");
  }
  // L = 8192, s = 2: bracket = 3.
  const auto r = pe::scaled_frequencies(c, 8192);
  expect_rel(r.effective_theta, base * std::pow(3.0, 128.0 / 126.0), 1e-13, "bracket 3");
  // The base grows with the length (the GUI's length slider moves it).
  EXPECT_GT(pe::scaled_frequencies(c, 65536).effective_theta, r.effective_theta);
  // original_max_position_embeddings, when given, is the L_orig.
  RopeConfig c2 = c;
  c2.max_position_embeddings = 16384;
  c2.scaling.original_max_position_embeddings = 4096;
  expect_rel(pe::scaled_frequencies(c2, 8192).effective_theta, r.effective_theta, 1e-14, "orig field");
}

RopeConfig llama31() {
  RopeConfig c = make(500000.0, 128, 131072, RopeType::Llama3, 8.0);
  c.scaling.low_freq_factor = 1.0;
  c.scaling.high_freq_factor = 4.0;
  c.scaling.original_max_position_embeddings = 8192;
  return c;
}

TEST(Scaling, Llama31Frequencies) {
  const auto r = pe::scaled_frequencies(llama31(), 131072);
  ASSERT_EQ(r.inv_freq.size(), 64);
  const double low_wl = 8192.0 / 1.0, high_wl = 8192.0 / 4.0;
  int unchanged = 0, divided = 0, blended = 0;
  double prev_ratio = 2.0;
  for (long long i = 0; i < 64; ++i) {
    const double f = theta_i(500000.0, 128, i);
    const double wl = 2.0 * kPi / f;
    double expected;
    if (wl < high_wl) {
      expected = f;
      ++unchanged;
    } else if (wl > low_wl) {
      expected = f / 8.0;
      ++divided;
    } else {
      const double smooth = (8192.0 / wl - 1.0) / (4.0 - 1.0);
      expected = (1.0 - smooth) * f / 8.0 + smooth * f;
      ++blended;
    }
    expect_rel(r.inv_freq[i], expected, 1e-13, "pair " + std::to_string(i));
    // ratio scaled/original falls monotonically from 1 to 1/8 across the band
    const double ratio = r.inv_freq[i] / r.original_inv_freq[i];
    EXPECT_LE(ratio, prev_ratio + 1e-15) << i;
    EXPECT_GE(ratio, 1.0 / 8.0 - 1e-15);
    EXPECT_LE(ratio, 1.0 + 1e-15);
    prev_ratio = ratio;
  }
  // θ = 5e5, d = 128: λ_i = 2π·5e5^(i/64) crosses 2048 at i ≈ 28.2 and 8192 at i ≈ 35.0.
  EXPECT_EQ(unchanged, 29);
  EXPECT_EQ(blended, 6);
  EXPECT_EQ(divided, 29);
  EXPECT_DOUBLE_EQ(r.inv_freq[0], 1.0);
  expect_rel(r.inv_freq[63], theta_i(500000.0, 128, 63) / 8.0, 1e-14, "slowest ÷ 8");
  EXPECT_EQ(r.attention_factor, 1.0);
  for (long long i = 1; i < 64; ++i) EXPECT_LT(r.inv_freq[i], r.inv_freq[i - 1]) << i;  // still ordered
}

RopeConfig yarn(double theta, long long d, long long orig, long long max_pos, double factor) {
  RopeConfig c = make(theta, d, max_pos, RopeType::Yarn, factor);
  c.scaling.original_max_position_embeddings = orig;
  return c;
}

// The reference YaRN ramp, written out: correction dims where the pair makes beta turns
// over L_orig, floor/ceil, clamp, linear ramp in the pair index.
std::vector<double> yarn_expected(double theta, long long d, double orig, double s, double bf = 32, double bs = 1,
                                  bool truncate = true) {
  auto corr = [&](double rot) { return d * std::log(orig / (rot * 2 * kPi)) / (2 * std::log(theta)); };
  double lo = corr(bf), hi = corr(bs);
  if (truncate) {
    lo = std::floor(lo);
    hi = std::ceil(hi);
  }
  lo = std::max(lo, 0.0);
  hi = std::min(hi, static_cast<double>(d - 1));
  if (lo == hi) hi += 0.001;
  std::vector<double> out;
  for (long long i = 0; i < d / 2; ++i) {
    double ramp = (static_cast<double>(i) - lo) / (hi - lo);
    ramp = std::min(1.0, std::max(0.0, ramp));
    const double f = theta_i(theta, d, i);
    out.push_back((1 - ramp) * f + ramp * f / s);
  }
  return out;
}

TEST(Scaling, YarnFactor4Qwen) {
  const auto c = yarn(1e6, 128, 32768, 131072, 4.0);
  const auto r = pe::scaled_frequencies(c, 131072);
  const auto e = yarn_expected(1e6, 128, 32768, 4.0);
  for (long long i = 0; i < 64; ++i) expect_rel(r.inv_freq[i], e[i], 1e-13, "pair " + std::to_string(i));
  // corr(32) = 128·ln(32768/(64π))/(2 ln 1e6) = 23.6 → 23; corr(1) = 128·ln(32768/2π)/(2 ln 1e6) = 39.6 → 40.
  EXPECT_DOUBLE_EQ(r.yarn_low, 23.0);
  EXPECT_DOUBLE_EQ(r.yarn_high, 40.0);
  EXPECT_DOUBLE_EQ(r.inv_freq[0], 1.0);
  expect_rel(r.inv_freq[63], theta_i(1e6, 128, 63) / 4.0, 1e-14, "slowest ÷ 4");
  expect_rel(r.attention_factor, 0.1 * std::log(4.0) + 1.0, 1e-15, "attention factor");
  expect_rel(r.logit_scale, std::pow(0.1 * std::log(4.0) + 1.0, 2), 1e-15, "logit scale");
  // Without truncation the ramp uses the fractional correction dims.
  auto c2 = c;
  c2.scaling.truncate = false;
  const auto r2 = pe::scaled_frequencies(c2, 1);
  const auto e2 = yarn_expected(1e6, 128, 32768, 4.0, 32, 1, false);
  for (long long i = 0; i < 64; ++i) expect_rel(r2.inv_freq[i], e2[i], 1e-13, "untruncated");
  // The frequencies do not depend on the current length (static YaRN).
  EXPECT_TRUE(((pe::scaled_frequencies(c, 10) .inv_freq - r.inv_freq).abs() == 0).all());
}

TEST(Scaling, YarnFactor40DeepSeekMscale) {
  auto c = yarn(10000.0, 64, 4096, 163840, 40.0);
  c.scaling.mscale = 1.0;
  c.scaling.mscale_all_dim = 1.0;
  // Without DeepSeek's attention (Ministral 3 has these keys too) the logits scale by the
  // rotary factor² only: get_mscale(40, 1) / get_mscale(40, 1) = 1.
  EXPECT_DOUBLE_EQ(pe::scaled_frequencies(c, 163840).logit_scale, 1.0);
  c.softmax_mscale = true;
  const auto r = pe::scaled_frequencies(c, 163840);
  const auto e = yarn_expected(10000.0, 64, 4096, 40.0);
  for (long long i = 0; i < 32; ++i) expect_rel(r.inv_freq[i], e[i], 1e-13, "pair " + std::to_string(i));
  // corr(32) = 64·ln(4096/(64π))/(2 ln 1e4) = 10.5 → 10, corr(1) = 64·ln(4096/2π)/(2 ln 1e4) = 22.5 → 23.
  EXPECT_DOUBLE_EQ(r.yarn_low, 10.0);
  EXPECT_DOUBLE_EQ(r.yarn_high, 23.0);
  // mscale == mscale_all_dim: the rotary factor cancels to 1 ...
  EXPECT_DOUBLE_EQ(r.attention_factor, 1.0);
  // ... and DeepSeek's attention applies get_mscale(40, 1)² to the softmax scale instead.
  const double m = 0.1 * 1.0 * std::log(40.0) + 1.0;
  expect_rel(r.logit_scale, m * m, 1e-15, "deepseek logit scale");
  EXPECT_NEAR(r.logit_scale, 1.873, 1e-3);
  // Unequal mscales (DeepSeek-V2-style knobs): ratio of the two get_mscale values.
  c.scaling.mscale = 1.0;
  c.scaling.mscale_all_dim = 0.707;
  const auto r2 = pe::scaled_frequencies(c, 1);
  expect_rel(r2.attention_factor, (0.1 * std::log(40.0) + 1) / (0.0707 * std::log(40.0) + 1), 1e-14, "ratio");
  const double m2 = 0.0707 * std::log(40.0) + 1;
  expect_rel(r2.logit_scale, r2.attention_factor * r2.attention_factor * m2 * m2, 1e-14, "ratio logit");
  // Explicit attention_factor wins.
  c.scaling.attention_factor = 1.25;
  EXPECT_DOUBLE_EQ(pe::scaled_frequencies(c, 1).attention_factor, 1.25);
  // yarn_get_mscale / yarn_correction_dim helpers.
  EXPECT_DOUBLE_EQ(pe::yarn_get_mscale(1.0, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(pe::yarn_get_mscale(0.5, 1.0), 1.0);
  expect_rel(pe::yarn_get_mscale(40.0, 0.707), 0.0707 * std::log(40.0) + 1, 1e-15, "mscale");
  expect_rel(pe::yarn_correction_dim(32, 64, 10000, 4096), 64 * std::log(4096 / (64 * kPi)) / (2 * std::log(1e4)), 1e-15,
             "correction dim");
}

RopeConfig phi3_like() {
  RopeConfig c = make(10000.0, 96, 131072, RopeType::LongRope, 1.0);
  c.scaling.original_max_position_embeddings = 4096;
  for (int i = 0; i < 48; ++i) {
    c.scaling.short_factor.push_back(1.0 + 0.04 * i);
    c.scaling.long_factor.push_back(1.0 + 1.3 * i);
  }
  return c;
}

TEST(Scaling, LongRopeShortLongSwitchAndAttentionFactor) {
  const RopeConfig c = phi3_like();
  const double att = std::sqrt(1.0 + std::log(131072.0 / 4096.0) / std::log(4096.0));
  for (long long len : {1LL, 4096LL, 4097LL, 131072LL}) {
    const auto r = pe::scaled_frequencies(c, len);
    const bool use_long = len > 4096;
    EXPECT_EQ(r.uses_long_factor, use_long) << len;
    for (long long i = 0; i < 48; ++i) {
      const double ext = use_long ? 1.0 + 1.3 * i : 1.0 + 0.04 * i;
      expect_rel(r.inv_freq[i], theta_i(10000.0, 96, i) / ext, 1e-13, "pair " + std::to_string(i));
    }
    // Same attention factor for short and long (Phi-3 applies it always).
    expect_rel(r.attention_factor, att, 1e-15, "attention");
    EXPECT_DOUBLE_EQ(r.factor, 32.0);  // derived: 131072 / 4096
  }
  EXPECT_NEAR(att, 1.1902381, 1e-7);  // what llama.cpp's GGUF of Phi-3-mini-128k stores
  // Without original_max_position_embeddings HF uses factor and L_orig = max_position_embeddings.
  RopeConfig c2 = c;
  c2.scaling.original_max_position_embeddings = 0;
  c2.max_position_embeddings = 4096;
  c2.scaling.factor = 8.0;
  const auto r2 = pe::scaled_frequencies(c2, 8192);
  EXPECT_TRUE(r2.uses_long_factor);
  expect_rel(r2.attention_factor, std::sqrt(1.0 + std::log(8.0) / std::log(4096.0)), 1e-15, "factor path");
  // factor <= 1 → attention factor 1.
  c2.scaling.factor = 1.0;
  EXPECT_EQ(pe::scaled_frequencies(c2, 10).attention_factor, 1.0);
}

TEST(Scaling, PartialRotaryLeavesTailDimsUntouched) {
  // GPT-NeoX-20B: head_dim 96, rotary_pct 0.25 → 24 rotating dims, θ_i = base^(-2i/24).
  RopeConfig c = make(10000.0, 96, 2048);
  c.partial_rotary_factor = 0.25;
  EXPECT_EQ(c.rotary_dim(), 24);
  const auto r = pe::scaled_frequencies(c, 2048);
  ASSERT_EQ(r.inv_freq.size(), 12);
  EXPECT_EQ(r.rotary_dim, 24);
  for (long long i = 0; i < 12; ++i) expect_rel(r.inv_freq[i], theta_i(10000.0, 24, i), 1e-14, "uses rotary_dim as d");

  Eigen::VectorXd x(96);
  for (int j = 0; j < 96; ++j) x[j] = std::sin(0.37 * j + 0.1);
  for (auto conv : {pe::PairConvention::HalfSplit, pe::PairConvention::Interleaved}) {
    const Eigen::VectorXd y = pe::apply_rope(x, 777.0, r.inv_freq, conv);
    for (int j = 24; j < 96; ++j) EXPECT_EQ(y[j], x[j]) << "tail dim " << j;
    EXPECT_NEAR(y.head(24).norm(), x.head(24).norm(), 1e-12);
    EXPECT_GT((y.head(24) - x.head(24)).norm(), 1e-3);  // the head did rotate
  }

  // Phi-2: 80·0.4 = 32 (floating point must not give 31 → 30).
  RopeConfig p = make(10000.0, 80, 2048);
  p.partial_rotary_factor = 0.4;
  EXPECT_EQ(p.rotary_dim(), 32);
  // Odd products round down to even.
  RopeConfig o = make(10000.0, 10, 64);
  o.partial_rotary_factor = 0.5;
  EXPECT_EQ(o.rotary_dim(), 4);
  // Partial rotary composes with scaling: yarn on 24 dims uses d = 24 throughout.
  RopeConfig y = yarn(10000.0, 96, 2048, 8192, 4.0);
  y.partial_rotary_factor = 0.25;
  const auto ry = pe::scaled_frequencies(y, 8192);
  const auto ey = yarn_expected(10000.0, 24, 2048, 4.0);
  ASSERT_EQ(ry.inv_freq.size(), 12);
  for (long long i = 0; i < 12; ++i) expect_rel(ry.inv_freq[i], ey[i], 1e-13, "partial yarn");
}

template <class F>
std::string rejected_parameter(F&& f) {
  try {
    f();
  } catch (const pe::InvalidArgument& e) {
    return e.parameter();
  }
  return "(accepted)";
}

TEST(Scaling, ValidationNamesTheKey) {
  auto run = [](RopeConfig c, long long len = 100) { return rejected_parameter([&] { pe::scaled_frequencies(c, len); }); };
  EXPECT_EQ(run(make(1.0, 64, 128)), "rope_theta");
  EXPECT_EQ(run(make(NAN, 64, 128)), "rope_theta");
  EXPECT_EQ(run(make(10000, 0, 128)), "head_dim");
  EXPECT_EQ(run(make(10000, -64, 128)), "head_dim");
  EXPECT_EQ(run(make(10000, 64, 0)), "max_position_embeddings");
  EXPECT_EQ(run(make(10000, 64, 128), 0), "length");
  EXPECT_EQ(run(make(10000, 64, 128, RopeType::Linear, 0.5)), "rope_scaling.factor");
  EXPECT_EQ(run(make(10000, 64, 128, RopeType::Yarn, INFINITY)), "rope_scaling.factor");
  EXPECT_EQ(run(make(10000, 64, 128, RopeType::Default, 0.5)), "(accepted)");  // unused there
  RopeConfig p = make(10000, 64, 128);
  p.partial_rotary_factor = 0.0;
  EXPECT_EQ(run(p), "partial_rotary_factor");
  p.partial_rotary_factor = 1.5;
  EXPECT_EQ(run(p), "partial_rotary_factor");
  p.partial_rotary_factor = 0.01;  // 0.64 dims → 0
  EXPECT_EQ(run(p), "partial_rotary_factor");
  RopeConfig y = yarn(10000, 64, 4096, 8192, 2.0);
  y.scaling.beta_fast = 0.5;  // below beta_slow = 1: an inverted ramp
  EXPECT_EQ(run(y), "rope_scaling.beta_fast");
  y.scaling.beta_fast = 1.0;  // equal: accepted, as transformers does (Kimi K2 ships it)
  EXPECT_EQ(run(y), "(accepted)");
  y.scaling.beta_fast = 32;
  y.scaling.beta_slow = -1;
  EXPECT_EQ(run(y), "rope_scaling.beta_slow");
  y.scaling.beta_slow = 1;
  y.scaling.mscale_all_dim = -0.5;
  EXPECT_EQ(run(y), "rope_scaling.mscale_all_dim");
  y.scaling.mscale_all_dim.reset();
  y.scaling.attention_factor = 0.0;
  EXPECT_EQ(run(y), "rope_scaling.attention_factor");
  RopeConfig l = llama31();
  l.scaling.high_freq_factor = 1.0;  // = low_freq_factor: transformers warns and computes (Llama 4 Scout)
  EXPECT_EQ(run(l), "(accepted)");
  l.scaling.high_freq_factor = 0.0;
  EXPECT_EQ(run(l), "rope_scaling.high_freq_factor");
  l = llama31();
  l.scaling.low_freq_factor = 0.0;
  EXPECT_EQ(run(l), "rope_scaling.low_freq_factor");
  RopeConfig lr = phi3_like();
  lr.scaling.short_factor.pop_back();
  EXPECT_EQ(run(lr), "rope_scaling.short_factor");
  lr = phi3_like();
  lr.scaling.long_factor[5] = -1.0;
  EXPECT_EQ(run(lr), "rope_scaling.long_factor[5]");
  RopeConfig n = make(10000, 2, 128, RopeType::Dynamic, 2.0);  // d/(d−2) undefined
  EXPECT_EQ(run(n), "head_dim");
  RopeConfig o = make(10000, 64, 128, RopeType::Linear, 2.0);
  o.scaling.original_max_position_embeddings = -5;
  EXPECT_EQ(run(o), "rope_scaling.original_max_position_embeddings");
}

TEST(Scaling, TypeNames) {
  for (RopeType t : pe::all_rope_types()) EXPECT_EQ(pe::rope_type_from_string(pe::to_string(t)), t);
  EXPECT_EQ(pe::all_rope_types().size(), 8u);  // the seven of transformers 4 and v5's "proportional"
  EXPECT_EQ(pe::rope_type_from_string("su"), RopeType::LongRope);
  EXPECT_EQ(pe::rope_type_from_string("YaRN"), RopeType::Yarn);
  EXPECT_EQ(pe::rope_type_from_string("mrope"), RopeType::Default);
  EXPECT_STREQ(pe::to_string(RopeType::NtkAware), "ntk");
  EXPECT_EQ(rejected_parameter([] { pe::rope_type_from_string("rope2d"); }), "rope_type");
}

}  // namespace
