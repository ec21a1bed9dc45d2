// transformers v5's rope_parameters beside v4's rope_scaling: the same model in both shapes
// gives the same numbers, the precedence rules of convert_rope_params_to_dict and
// standardize_rope_params (modeling_rope_utils.py, v5), the query scalings of Ministral 3 and
// Llama 4, and the bad v5 inputs, each named by its key path. Expected values are the published
// configs' own numbers and formulas evaluated here.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/scaling/scaling.hpp"

namespace {

const pe::Diagnostic* find_error(const pe::InspectedConfig& c, const std::string& key) {
  for (const auto& d : c.loaded.diagnostics)
    if (d.severity == pe::Severity::Error && d.key == key) return &d;
  return nullptr;
}

std::string all_notes(const pe::InspectedConfig& c) {
  std::string s;
  for (const auto& d : c.loaded.diagnostics) s += std::string(pe::to_string(d.severity)) + " " + d.key + ": " + d.message + "\n";
  return s;
}

// Llama 3.1 8B's positional keys as v4 wrote them, and as v5's save_pretrained writes them
// (rope_theta inside rope_parameters, original_max_position_embeddings there too).
const char* kLlamaV4 = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
  "max_position_embeddings": 131072, "rope_theta": 500000.0,
  "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"}})";
const char* kLlamaV5 = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
  "max_position_embeddings": 131072,
  "rope_parameters": {"rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                      "original_max_position_embeddings": 8192, "rope_type": "llama3"}})";

TEST(V5Config, BothShapesGiveTheSameFrequencies) {
  const pe::RopeConfig a = pe::parse_hf_config(kLlamaV4), b = pe::parse_hf_config(kLlamaV5);
  EXPECT_DOUBLE_EQ(b.theta, 500000.0);
  EXPECT_EQ(b.scaling.type, pe::RopeType::Llama3);
  const auto fa = pe::scaled_frequencies(a, 8192), fb = pe::scaled_frequencies(b, 8192);
  ASSERT_EQ(fa.inv_freq.size(), 64);
  for (Eigen::Index i = 0; i < 64; ++i) EXPECT_DOUBLE_EQ(fa.inv_freq[i], fb.inv_freq[i]);
  // Meta's apply_scaling by hand at the slowest pair: λ > 8192 / 1, so θ_63 / 8.
  EXPECT_DOUBLE_EQ(fb.inv_freq[63], std::pow(500000.0, -126.0 / 128.0) / 8.0);
}

TEST(V5Config, AnUnknownLayerTypeIsRefusedByName) {
  // layer_type_validation: every entry must be in ALLOWED_LAYER_TYPES (a typo is a ValueError).
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"model_type": "gemma3_text", "head_dim": 128,
      "num_hidden_layers": 3, "max_position_embeddings": 8192,
      "layer_types": ["sliding_attention", "chunked_attendion", "full_attention"]})");
  EXPECT_FALSE(c.valid);
  const pe::Diagnostic* d = find_error(c, "layer_types[1]");
  ASSERT_NE(d, nullptr) << all_notes(c);
  EXPECT_NE(d->message.find("chunked_attendion"), std::string::npos) << d->message;
  // The legacy names transformers remaps, and the newer types, are accepted.
  EXPECT_TRUE(pe::inspect_hf_config(R"({"head_dim": 64, "max_position_embeddings": 64, "num_hidden_layers": 2,
      "layer_types": ["attention", "deepseek_sparse_attention"]})").valid);
}

TEST(V5Config, OnlySlidingLayersRotateWithTheLocalBase) {
  // full_attention: null (global layers without RoPE): the sliding block is the configuration,
  // and without its own rope_theta its base is the local one (Gemma 3: 10^4), whether or not
  // the file writes it (found by fuzz_hf_config: the two spellings disagreed).
  const char* without = R"({"model_type": "gemma3_text", "head_dim": 128, "num_hidden_layers": 2, "max_position_embeddings": 8192,
      "layer_types": ["sliding_attention", "full_attention"],
      "rope_parameters": {"full_attention": null, "sliding_attention": {"rope_type": "default"}}})";
  const char* with = R"({"model_type": "gemma3_text", "head_dim": 128, "num_hidden_layers": 2, "max_position_embeddings": 8192,
      "layer_types": ["sliding_attention", "full_attention"],
      "rope_parameters": {"full_attention": null, "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})";
  EXPECT_EQ(pe::parse_hf_config(without).theta, 10000.0);
  EXPECT_EQ(pe::parse_hf_config(with).theta, 10000.0);
}

TEST(V5Config, InnerThetaBeatsTopLevel) {
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"head_dim": 64, "max_position_embeddings": 4096,
      "rope_theta": 10000, "rope_parameters": {"rope_type": "default", "rope_theta": 1000000}})");
  ASSERT_TRUE(c.valid) << all_notes(c);
  EXPECT_DOUBLE_EQ(c.loaded.config.theta, 1e6);  // setdefault: the dict's own value stays
}

TEST(V5Config, TopLevelPartialRotaryFactorBeatsTheDicts) {
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"head_dim": 128, "max_position_embeddings": 4096,
      "partial_rotary_factor": 0.5,
      "rope_parameters": {"rope_type": "default", "rope_theta": 10000, "partial_rotary_factor": 0.25}})");
  ASSERT_TRUE(c.valid) << all_notes(c);
  EXPECT_EQ(c.loaded.config.rotary_dim(), 64);
  EXPECT_NE(all_notes(c).find("rope_parameters.partial_rotary_factor"), std::string::npos) << all_notes(c);
}

TEST(V5Config, RopeScalingReplacesRopeParametersOutsideGemma) {
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"model_type": "llama", "head_dim": 64,
      "max_position_embeddings": 8192, "rope_theta": 10000,
      "rope_scaling": {"rope_type": "linear", "factor": 2.0},
      "rope_parameters": {"rope_type": "linear", "factor": 4.0}})");
  ASSERT_TRUE(c.valid);
  EXPECT_DOUBLE_EQ(c.loaded.config.scaling.factor, 2.0);  // rope_scaling or rope_parameters
}

TEST(V5Config, Gemma3MergesRopeScalingIntoFullAttention) {
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"model_type": "gemma3_text", "head_dim": 128,
      "num_hidden_layers": 6, "max_position_embeddings": 131072, "sliding_window": 1024,
      "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "sliding_attention",
                      "sliding_attention", "full_attention"],
      "rope_scaling": {"rope_type": "linear", "factor": 8.0},
      "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})");
  ASSERT_TRUE(c.valid) << all_notes(c);
  EXPECT_EQ(c.loaded.config.scaling.type, pe::RopeType::Linear);  // full_attention.update(rope_scaling)
  EXPECT_DOUBLE_EQ(c.loaded.config.theta, 1e6);                   // the dict's own θ kept
  EXPECT_EQ(c.plan.config_of(c.plan.rows[0]).scaling.type, pe::RopeType::Default);
  EXPECT_EQ(c.plan.config_of(c.plan.rows[5]).scaling.type, pe::RopeType::Linear);
}

TEST(V5Config, ALayerTypeWithoutItsBlockIsAnErrorNamingIt) {
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"model_type": "gemma3_text", "head_dim": 128,
      "num_hidden_layers": 3, "max_position_embeddings": 8192,
      "layer_types": ["sliding_attention", "chunked_attention", "full_attention"],
      "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})");
  EXPECT_FALSE(c.valid);
  const pe::Diagnostic* e = find_error(c, "layer_types[1]");
  ASSERT_NE(e, nullptr) << all_notes(c);
  EXPECT_NE(e->message.find("chunked_attention"), std::string::npos);
  EXPECT_NE(e->message.find("rope_parameters.chunked_attention"), std::string::npos);
}

TEST(V5Config, ANullBlockMakesNoPELayers) {
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"model_type": "gemma3_text", "head_dim": 128,
      "num_hidden_layers": 2, "max_position_embeddings": 8192,
      "layer_types": ["sliding_attention", "full_attention"],
      "rope_parameters": {"full_attention": null, "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})");
  ASSERT_TRUE(c.valid) << all_notes(c);
  ASSERT_EQ(c.plan.rows.size(), 2u);
  EXPECT_TRUE(c.plan.rows[0].rotary);
  EXPECT_FALSE(c.plan.rows[1].rotary);
}

TEST(V5Config, APerTypeDictWhereAFlatOneIsRequired) {
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"model_type": "llama", "head_dim": 128,
      "max_position_embeddings": 8192,
      "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 500000.0}}})");
  EXPECT_FALSE(c.valid);
  const pe::Diagnostic* e = find_error(c, "rope_parameters");
  ASSERT_NE(e, nullptr) << all_notes(c);
  EXPECT_NE(e->message.find("layer_types"), std::string::npos);
}

TEST(V5Config, PartialRotaryFactorOutsideTheRangeNamesItsKeyPath) {
  for (const char* value : {"0", "1.5", "-0.25"}) {
    const pe::InspectedConfig c = pe::inspect_hf_config(std::string(R"({"head_dim": 128, "max_position_embeddings": 8192,
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000, "partial_rotary_factor": )") + value + "}}");
    EXPECT_FALSE(c.valid) << value;
    const pe::Diagnostic* e = find_error(c, "rope_parameters.partial_rotary_factor");
    ASSERT_NE(e, nullptr) << value << "\n" << all_notes(c);
    EXPECT_NE(e->message.find("0 < partial_rotary_factor <= 1"), std::string::npos) << e->message;
  }
}

TEST(V5Config, Ministral3QueriesAreScaledByBeta) {
  // Ministral-3-3B-2512's rope block as published.
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"model_type": "ministral3", "head_dim": 128,
      "hidden_size": 3072, "num_attention_heads": 32, "num_key_value_heads": 8, "max_position_embeddings": 262144,
      "rope_parameters": {"type": "yarn", "rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 16384,
                          "llama_4_scaling_beta": 0.1, "rope_theta": 1000000.0, "mscale": 1.0, "mscale_all_dim": 1.0,
                          "beta_fast": 32.0, "beta_slow": 1.0}})");
  ASSERT_TRUE(c.valid) << all_notes(c);
  const pe::QueryScaling& q = c.loaded.config.query_scaling;
  EXPECT_DOUBLE_EQ(q.beta, 0.1);
  EXPECT_EQ(q.period, 16384);
  EXPECT_EQ(q.position_offset, 0);
  EXPECT_DOUBLE_EQ(pe::query_scale(q, 16383), 1.0);
  EXPECT_DOUBLE_EQ(pe::query_scale(q, 16384), 1.0 + 0.1 * std::log(2.0));
  EXPECT_DOUBLE_EQ(pe::query_scale(q, 3 * 16384 + 5), 1.0 + 0.1 * std::log(4.0));
  // Ministral3Attention keeps head_dim^-0.5: the logits scale by the rotary factor² only,
  // get_mscale(16, 1) / get_mscale(16, 1) = 1 — not by DeepSeek's extra get_mscale(16, 1)².
  EXPECT_FALSE(c.loaded.config.softmax_mscale);
  EXPECT_DOUBLE_EQ(pe::scaled_frequencies(c.loaded.config, 262144).logit_scale, 1.0);
  // The same keys under DeepSeek-V3's attention do scale the softmax.
  const pe::InspectedConfig d = pe::inspect_hf_config(R"({"model_type": "deepseek_v3", "qk_rope_head_dim": 64,
      "qk_nope_head_dim": 128, "hidden_size": 7168, "num_attention_heads": 128, "max_position_embeddings": 163840,
      "rope_theta": 10000, "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096,
                                            "mscale": 1.0, "mscale_all_dim": 1.0, "beta_fast": 32, "beta_slow": 1}})");
  ASSERT_TRUE(d.valid) << all_notes(d);
  EXPECT_TRUE(d.loaded.config.softmax_mscale);
  EXPECT_DOUBLE_EQ(pe::scaled_frequencies(d.loaded.config, 163840).logit_scale, std::pow(0.1 * std::log(40.0) + 1.0, 2));
}

TEST(V5Config, Llama4TemperatureOnItsNoPELayers) {
  // Llama 4 Scout's text_config positional keys (attn_temperature_tuning written as 4).
  const pe::InspectedConfig c = pe::inspect_hf_config(R"({"model_type": "llama4_text", "head_dim": 128,
      "num_hidden_layers": 8, "max_position_embeddings": 10485760, "rope_theta": 500000.0,
      "attn_temperature_tuning": 4, "floor_scale": 8192, "attn_scale": 0.1, "no_rope_layers": [],
      "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
                       "original_max_position_embeddings": 8192, "rope_type": "llama3"}})");
  ASSERT_TRUE(c.valid) << all_notes(c);
  const pe::QueryScaling& q = c.loaded.config.query_scaling;
  EXPECT_TRUE(q.nope_layers_only);
  EXPECT_EQ(q.position_offset, 1);
  EXPECT_DOUBLE_EQ(pe::query_scale(q, 8190), 1.0);
  EXPECT_DOUBLE_EQ(pe::query_scale(q, 8191), 1.0 + 0.1 * std::log(2.0));  // ⌊(8191 + 1) / 8192⌋ = 1
}

}  // namespace
