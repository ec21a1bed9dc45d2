// `pe-viz dump --emit-config v4|v5`: every bundled preset written in the other shape and back
// reads as the same model (frequencies, scaling, layer plan); the v5 form has what
// save_pretrained writes; what v4 cannot say is refused with its key path.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/config_emit.hpp"
#include "pe/scaling/scaling.hpp"

namespace {

using nlohmann::json;

void expect_same_model(const pe::InspectedConfig& a, const pe::InspectedConfig& b, const std::string& what) {
  ASSERT_EQ(a.valid, b.valid) << what;
  const pe::RopeConfig &x = a.loaded.config, &y = b.loaded.config;
  EXPECT_DOUBLE_EQ(x.theta, y.theta) << what;
  EXPECT_EQ(x.head_dim, y.head_dim) << what;
  EXPECT_DOUBLE_EQ(x.partial_rotary_factor, y.partial_rotary_factor) << what;
  EXPECT_EQ(x.max_position_embeddings, y.max_position_embeddings) << what;
  EXPECT_EQ(x.convention, y.convention) << what;
  EXPECT_EQ(x.scaling.type, y.scaling.type) << what;
  EXPECT_DOUBLE_EQ(x.scaling.factor, y.scaling.factor) << what;
  EXPECT_EQ(x.original_max_position_embeddings(), y.original_max_position_embeddings()) << what;
  EXPECT_EQ(x.scaling.mscale, y.scaling.mscale) << what;
  EXPECT_EQ(x.scaling.mscale_all_dim, y.scaling.mscale_all_dim) << what;
  EXPECT_EQ(x.scaling.attention_factor, y.scaling.attention_factor) << what;
  EXPECT_EQ(x.scaling.truncate, y.scaling.truncate) << what;
  EXPECT_EQ(x.scaling.short_factor, y.scaling.short_factor) << what;
  EXPECT_EQ(x.scaling.long_factor, y.scaling.long_factor) << what;
  EXPECT_DOUBLE_EQ(x.query_scaling.beta, y.query_scaling.beta) << what;
  EXPECT_EQ(x.multimodal.multi_axis.has_value(), y.multimodal.multi_axis.has_value()) << what;
  if (x.multimodal.multi_axis && y.multimodal.multi_axis) {
    EXPECT_EQ(x.multimodal.multi_axis->sections, y.multimodal.multi_axis->sections) << what;
    EXPECT_EQ(x.multimodal.multi_axis->scheme, y.multimodal.multi_axis->scheme) << what;
  }
  if (!a.valid) return;
  const auto fx = pe::scaled_frequencies(x, x.max_position_embeddings), fy = pe::scaled_frequencies(y, y.max_position_embeddings);
  ASSERT_EQ(fx.inv_freq.size(), fy.inv_freq.size()) << what;
  for (Eigen::Index i = 0; i < fx.inv_freq.size(); ++i) EXPECT_DOUBLE_EQ(fx.inv_freq[i], fy.inv_freq[i]) << what << " pair " << i;
  EXPECT_DOUBLE_EQ(fx.attention_factor, fy.attention_factor) << what;
  ASSERT_EQ(a.plan.rows.size(), b.plan.rows.size()) << what;
  for (std::size_t i = 0; i < a.plan.rows.size(); ++i) {
    const pe::LayerRow &r = a.plan.rows[i], &s = b.plan.rows[i];
    EXPECT_EQ(r.attention, s.attention) << what << " layer " << i;
    EXPECT_EQ(r.rotary, s.rotary) << what << " layer " << i;
    EXPECT_DOUBLE_EQ(r.theta, s.theta) << what << " layer " << i;
    EXPECT_EQ(r.scaling, s.scaling) << what << " layer " << i;
    EXPECT_EQ(r.rotary_dims, s.rotary_dims) << what << " layer " << i;
  }
}

TEST(ConfigEmit, EveryPresetRoundTripsThroughBothShapes) {
  for (const auto& p : pe::list_presets()) {
    const std::string text = pe::preset_text(p.key);
    const pe::InspectedConfig original = pe::inspect_hf_config(text, p.key);
    const std::string v5 = pe::emit_config(text, pe::ConfigShape::V5, p.key);
    expect_same_model(original, pe::inspect_hf_config(v5, p.key), p.key + " as v5");
    const json j5 = json::parse(v5);
    const json& block5 = j5.contains("text_config") ? j5["text_config"] : j5;
    EXPECT_FALSE(block5.contains("rope_scaling")) << p.key;
    EXPECT_FALSE(block5.contains("rope_theta")) << p.key;
    ASSERT_TRUE(block5.contains("rope_parameters")) << p.key;
    if (original.loaded.config.scaling.type == pe::RopeType::Proportional) {
      EXPECT_THROW(pe::emit_config(v5, pe::ConfigShape::V4, p.key), pe::ConfigError) << p.key;
      continue;
    }
    const std::string v4 = pe::emit_config(v5, pe::ConfigShape::V4, p.key);
    expect_same_model(original, pe::inspect_hf_config(v4, p.key), p.key + " as v5 then v4");
    const json j4 = json::parse(v4);
    const json& block4 = j4.contains("text_config") ? j4["text_config"] : j4;
    EXPECT_FALSE(block4.contains("rope_parameters")) << p.key;
    EXPECT_TRUE(block4.contains("rope_theta")) << p.key;
  }
}

TEST(ConfigEmit, Gemma3LegacyKeysBecomeOneBlockPerLayerType) {
  const json j = json::parse(pe::emit_config(R"({"model_type": "gemma3_text", "head_dim": 128, "num_hidden_layers": 6,
      "max_position_embeddings": 131072, "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
      "rope_scaling": {"rope_type": "linear", "factor": 8.0}})",
                                                pe::ConfigShape::V5));
  EXPECT_FALSE(j.contains("rope_local_base_freq"));
  const json& rp = j["rope_parameters"];
  EXPECT_EQ(rp["full_attention"]["rope_type"], "linear");
  EXPECT_EQ(rp["full_attention"]["factor"], 8.0);
  EXPECT_EQ(rp["full_attention"]["rope_theta"], 1000000.0);
  EXPECT_EQ(rp["sliding_attention"]["rope_type"], "default");
  EXPECT_EQ(rp["sliding_attention"]["rope_theta"], 10000.0);
}

TEST(ConfigEmit, V5FillsThetaTypeAndOriginalLength) {
  const json j = json::parse(pe::emit_config(R"({"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
      "max_position_embeddings": 131072, "rope_theta": 1000000.0, "vocab_size": 152064,
      "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}})",
                                                pe::ConfigShape::V5));
  const json& rp = j["rope_parameters"];
  EXPECT_EQ(rp["rope_type"], "yarn");
  EXPECT_FALSE(rp.contains("type"));
  EXPECT_EQ(rp["rope_theta"], 1000000.0);
  EXPECT_EQ(rp["original_max_position_embeddings"], 32768);
  EXPECT_EQ(j["vocab_size"], 152064);  // every other key kept
}

TEST(ConfigEmit, V5KeepsWhatRopeScalingReplaced) {
  // Beside a per-layer-type rope_parameters, rope_scaling replaces it in every class but Gemma 3
  // and 4 (`rope_scaling or rope_parameters`): θ 10^4 (the default) and linear ×8 for all
  // layers. The v5 form must say that, not the per-type blocks (found by fuzz_hf_config).
  const char* text = R"({"model_type": "qwen2", "head_dim": 128, "num_hidden_layers": 6, "max_position_embeddings": 131072,
      "rope_scaling": {"rope_type": "linear", "factor": 8.0},
      "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})";
  const pe::RopeConfig a = pe::parse_hf_config(text);
  ASSERT_EQ(a.theta, 10000.0);
  ASSERT_EQ(a.scaling.type, pe::RopeType::Linear);
  const std::string v5 = pe::emit_config(text, pe::ConfigShape::V5);
  const json rp = json::parse(v5)["rope_parameters"];
  EXPECT_EQ(rp["rope_type"], "linear") << v5;
  EXPECT_EQ(rp["factor"], 8.0) << v5;
  EXPECT_EQ(rp["rope_theta"], 10000.0) << v5;
  const pe::RopeConfig b = pe::parse_hf_config(v5);
  EXPECT_EQ(b.theta, a.theta);
  EXPECT_EQ(b.scaling.type, a.scaling.type);
  EXPECT_EQ(b.scaling.factor, a.scaling.factor);
}

TEST(ConfigEmit, Gemma3LayerTypesBeyondFullAndSlidingGetTheGlobalBlock) {
  // A v4 Gemma 3 config whose layer_types name chunked_attention: read as the global layers'
  // RoPE; its v5 form needs a block for that type too, or v5 refuses it (found by fuzz_hf_config).
  const char* text = R"({"model_type": "gemma3_text", "head_dim": 128, "num_hidden_layers": 3, "max_position_embeddings": 8192,
      "layer_types": ["sliding_attention", "chunked_attention", "full_attention"]})";
  const std::string v5 = pe::emit_config(text, pe::ConfigShape::V5);
  const json rp = json::parse(v5)["rope_parameters"];
  ASSERT_TRUE(rp.contains("chunked_attention")) << v5;
  EXPECT_EQ(rp["chunked_attention"], rp["full_attention"]) << v5;
  const pe::InspectedConfig a = pe::inspect_hf_config(text), b = pe::inspect_hf_config(v5);
  ASSERT_TRUE(b.valid) << v5;
  ASSERT_EQ(a.plan.rows.size(), b.plan.rows.size());
  for (std::size_t i = 0; i < a.plan.rows.size(); ++i) EXPECT_EQ(a.plan.rows[i].theta, b.plan.rows[i].theta) << i;
}

TEST(ConfigEmit, AClassDefaultScalingIsWrittenOut) {
  // No rope block at all: Ministral3Config's own yarn ×16 (θ 10^6) applies, and the v5 form
  // must carry it, not a plain default block (found by fuzz_hf_config).
  const char* text = R"({"model_type": "ministral3", "head_dim": 128, "max_position_embeddings": 262144})";
  const pe::RopeConfig a = pe::parse_hf_config(text);
  ASSERT_EQ(a.scaling.type, pe::RopeType::Yarn);
  const std::string v5 = pe::emit_config(text, pe::ConfigShape::V5);
  const json rp = json::parse(v5)["rope_parameters"];
  EXPECT_EQ(rp["rope_type"], "yarn") << v5;
  EXPECT_EQ(rp["factor"], 16.0) << v5;
  const pe::RopeConfig b = pe::parse_hf_config(v5);
  EXPECT_EQ(b.scaling.type, a.scaling.type);
  EXPECT_EQ(b.scaling.factor, a.scaling.factor);
  EXPECT_EQ(b.theta, a.theta);
}

TEST(ConfigEmit, V4HasNoNullGlobalBlock) {
  // Global layers without RoPE (full_attention: null) exist only in v5 (found by fuzz_hf_config).
  try {
    pe::emit_config(R"({"model_type": "gemma3_text", "head_dim": 128, "max_position_embeddings": 8192,
        "rope_parameters": {"full_attention": null, "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})",
                    pe::ConfigShape::V4);
    FAIL() << "accepted";
  } catch (const pe::ConfigError& e) {
    EXPECT_EQ(e.key(), "rope_parameters.full_attention");
  }
}

TEST(ConfigEmit, V4HasNoProportional) {
  try {
    pe::emit_config(R"({"head_dim": 256, "max_position_embeddings": 8192,
        "rope_parameters": {"rope_type": "proportional", "rope_theta": 1000000.0, "partial_rotary_factor": 0.25}})",
                    pe::ConfigShape::V4);
    FAIL() << "accepted";
  } catch (const pe::ConfigError& e) {
    EXPECT_EQ(e.key(), "rope_parameters.rope_type");
  }
}

TEST(ConfigEmit, ShapeNames) {
  EXPECT_EQ(pe::config_shape_from_string("v4"), pe::ConfigShape::V4);
  EXPECT_EQ(pe::config_shape_from_string("v5"), pe::ConfigShape::V5);
  EXPECT_THROW(pe::config_shape_from_string("5"), pe::InvalidArgument);
}

}  // namespace
