// "proportional" RoPE (p-RoPE, Barbero et al. 2025; transformers v5's
// _compute_proportional_rope_parameters, Gemma 4): the fastest int(p·head_dim // 2) pairs keep
// θ^(−2i/head_dim) — over the FULL head_dim — and the rest turn at frequency 0. Expected values
// are computed here from that description, and transformers' own test values
// (tests/utils/test_modeling_rope_utils.py: 16 non-zero of 64 at p = 0.25, head_dim 128;
// 0.86596 = 10000^(−2/128)).
#include <gtest/gtest.h>

#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/scaling/scaling.hpp"

namespace {

pe::RopeConfig proportional(double theta, long long head_dim, double p, double factor = 1.0) {
  pe::RopeConfig c;
  c.theta = theta;
  c.head_dim = head_dim;
  c.partial_rotary_factor = p;
  c.max_position_embeddings = 131072;
  c.scaling.type = pe::RopeType::Proportional;
  c.scaling.factor = factor;
  return c;
}

TEST(Proportional, KeepsTheFastestPairsOfTheFullHeadLadder) {
  const auto r = pe::scaled_frequencies(proportional(10000.0, 128, 0.25), 1);
  ASSERT_EQ(r.inv_freq.size(), 64);  // head_dim // 2, whatever p is
  EXPECT_EQ(r.rotary_dim, 128);
  int nonzero = 0;
  for (Eigen::Index i = 0; i < 64; ++i) {
    const double expected = i < 16 ? std::pow(10000.0, -2.0 * double(i) / 128.0) : 0.0;
    EXPECT_DOUBLE_EQ(r.inv_freq[i], expected) << "pair " << i;
    nonzero += r.inv_freq[i] != 0.0;
  }
  EXPECT_EQ(nonzero, 16);
  EXPECT_NEAR(r.inv_freq[1], 0.86596, 5e-6);  // transformers' snapshot value
  EXPECT_DOUBLE_EQ(r.attention_factor, 1.0);
  // The unscaled ladder is kept for comparison: what p-RoPE dropped.
  EXPECT_DOUBLE_EQ(r.original_inv_freq[40], std::pow(10000.0, -80.0 / 128.0));
}

TEST(Proportional, Gemma4FullAttentionLayers) {
  // Gemma 4: global_head_dim 512, p = 0.25, θ = 10^6 → 64 rotating pairs of 256.
  const pe::RopeConfig c = proportional(1e6, 512, 0.25);
  EXPECT_EQ(c.rotating_pairs(), 64);
  const auto r = pe::scaled_frequencies(c, 1);
  ASSERT_EQ(r.inv_freq.size(), 256);
  EXPECT_NEAR(r.inv_freq[63], std::pow(1e6, -126.0 / 512.0), 1e-15);
  EXPECT_NEAR(r.inv_freq[63], 0.03338, 5e-6);  // the slowest pair that still turns
  EXPECT_EQ(r.inv_freq[64], 0.0);
}

TEST(Proportional, FactorDividesAndPOneIsDefaultRope) {
  const auto scaled = pe::scaled_frequencies(proportional(10000.0, 64, 0.5, 4.0), 1);
  for (Eigen::Index i = 0; i < 16; ++i) EXPECT_DOUBLE_EQ(scaled.inv_freq[i], std::pow(10000.0, -2.0 * double(i) / 64.0) / 4.0);
  const auto full = pe::scaled_frequencies(proportional(10000.0, 64, 1.0), 1);
  for (Eigen::Index i = 0; i < 32; ++i) EXPECT_DOUBLE_EQ(full.inv_freq[i], std::pow(10000.0, -2.0 * double(i) / 64.0));
}

TEST(Proportional, FloorsLikePythonsIntOfFloorDivision) {
  // int(0.3 * 100 // 2) = int(30.000000000000004 // 2) = 15.
  EXPECT_EQ(proportional(10000.0, 100, 0.3).rotating_pairs(), 15);
  EXPECT_EQ(proportional(10000.0, 128, 0.1).rotating_pairs(), 6);  // 12.8 // 2 = 6
  EXPECT_EQ(proportional(10000.0, 100, 0.58).rotating_pairs(), 28);  // 57.99999999999999 // 2 = 28
}

TEST(Proportional, NoRotatingPairIsRefused) {
  try {
    pe::validate(proportional(10000.0, 8, 0.1));  // int(0.8 // 2) = 0
    FAIL() << "accepted";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "partial_rotary_factor");
  }
}

// A Gemma 4 text config as its converter writes it (rope_parameters per layer type,
// global_head_dim for the full-attention layers).
const char* kGemma4 = R"({
  "model_type": "gemma4_text", "hidden_size": 1536, "num_hidden_layers": 5, "num_attention_heads": 8,
  "num_key_value_heads": 1, "head_dim": 256, "global_head_dim": 512, "max_position_embeddings": 131072,
  "sliding_window": 512,
  "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "sliding_attention", "full_attention"],
  "rope_parameters": {"full_attention": {"rope_theta": 1000000.0, "rope_type": "proportional", "partial_rotary_factor": 0.25},
                      "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"}}
})";

TEST(Proportional, Gemma4ConfigReadsBothLayerTypes) {
  const pe::InspectedConfig in = pe::inspect_hf_config(kGemma4);
  ASSERT_TRUE(in.valid);
  const pe::RopeConfig& full = in.loaded.config;
  EXPECT_EQ(full.scaling.type, pe::RopeType::Proportional);
  EXPECT_EQ(full.head_dim, 512);
  EXPECT_DOUBLE_EQ(full.theta, 1e6);
  EXPECT_EQ(full.rotating_pairs(), 64);
  ASSERT_EQ(in.plan.rows.size(), 5u);
  const pe::RopeConfig& sliding = in.plan.config_of(in.plan.rows[0]);
  EXPECT_EQ(sliding.head_dim, 256);
  EXPECT_DOUBLE_EQ(sliding.theta, 10000.0);
  EXPECT_EQ(sliding.scaling.type, pe::RopeType::Default);
  EXPECT_EQ(in.plan.config_of(in.plan.rows[4]).head_dim, 512);
}

TEST(Proportional, UnknownTypeNamesTheKnownOnesAndTheNearest) {
  try {
    pe::parse_hf_config(R"({"head_dim": 64, "max_position_embeddings": 4096,
                            "rope_parameters": {"rope_type": "proportinal", "rope_theta": 10000}})");
    FAIL() << "accepted";
  } catch (const pe::ConfigError& e) {
    EXPECT_EQ(e.key(), "rope_parameters.rope_type");
    const std::string what = e.what();
    EXPECT_NE(what.find("proportional"), std::string::npos) << what;
    EXPECT_NE(what.find("did you mean \"proportional\""), std::string::npos) << what;
  }
}

}  // namespace

namespace {

// The p-RoPE teaching control on any frequencies: the int(p·pairs) largest survive.
TEST(PRopeControl, KeepsTheFastestPairsOfAnyLadder) {
  pe::RopeConfig c;
  c.theta = 500000.0;
  c.head_dim = 128;
  c.max_position_embeddings = 131072;
  c.scaling.type = pe::RopeType::Llama3;
  c.scaling.factor = 8.0;
  c.scaling.original_max_position_embeddings = 8192;
  pe::ScaledFrequencies f = pe::scaled_frequencies(c, 8192);
  const Eigen::ArrayXd before = f.inv_freq;
  pe::keep_fastest_pairs(f, 0.75);
  EXPECT_EQ((f.inv_freq > 0.0).count(), 48);  // int(0.75 · 128 // 2)
  for (Eigen::Index i = 0; i < 64; ++i) EXPECT_EQ(f.inv_freq[i], i < 48 ? before[i] : 0.0) << i;
  pe::ScaledFrequencies same = pe::scaled_frequencies(c, 8192);
  pe::keep_fastest_pairs(same, 1.0);
  EXPECT_TRUE((same.inv_freq == before).all());
  EXPECT_EQ(pe::pairs_kept(64, 0.25), 16);
  for (double bad : {0.0, -0.5, 1.5}) {
    pe::ScaledFrequencies g = pe::scaled_frequencies(c, 8192);
    try {
      pe::keep_fastest_pairs(g, bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const pe::InvalidArgument& e) {
      EXPECT_EQ(e.parameter(), "p_rope");
    }
  }
}

}  // namespace
