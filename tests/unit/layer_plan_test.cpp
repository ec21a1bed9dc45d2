// Per-layer plans of published configs, against the model classes' rules written out here:
// Gemma 3 (global every 6th layer, local base 10000), Llama 4 (NoPE every 4th layer, RoPE
// layers chunked at 8192), Command R7B (RoPE only on the sliding layers), gpt-oss
// (alternating sliding 128 / full), DeepSeek MLA (64 of 192 q/k dims rotate), v5 per-layer-type
// rope_parameters.
#include <gtest/gtest.h>

#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/layer_plan.hpp"

namespace {

pe::LayerPlan plan_of(const std::string& preset) { return pe::layer_plan(pe::preset_text(preset)); }

TEST(LayerPlan, Gemma3FiveLocalToOneGlobal) {
  const pe::LayerPlan p = plan_of("gemma-3-27b");
  ASSERT_EQ(p.rows.size(), 62u);
  int global = 0;
  for (const auto& r : p.rows) {
    SCOPED_TRACE(r.index);
    const bool is_global = (r.index + 1) % 6 == 0;  // Gemma3TextConfig: sliding unless (i + 1) % 6 == 0
    EXPECT_TRUE(r.rotary);
    if (is_global) {
      ++global;
      EXPECT_EQ(r.attention, "full_attention");
      EXPECT_EQ(r.theta, 1e6);
      EXPECT_EQ(r.scaling, pe::RopeType::Linear);
      EXPECT_EQ(r.window, 0);
    } else {
      EXPECT_EQ(r.attention, "sliding_attention");
      EXPECT_EQ(r.theta, 10000.0);
      EXPECT_EQ(r.scaling, pe::RopeType::Default);
      EXPECT_EQ(r.window, 1024);
    }
    EXPECT_EQ(r.rotary_dims, 128);
    EXPECT_EQ(p.config_of(r).theta, r.theta);  // a row's RopeConfig is that layer's
    EXPECT_EQ(p.config_of(r).scaling.type, r.scaling);
  }
  EXPECT_EQ(global, 10);
  const auto groups = p.groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].layers.size(), 52u);
  EXPECT_EQ(groups[1].layers.front(), 5);
  EXPECT_EQ(pe::format_layer_ranges(groups[1].layers), "5, 11, 17, 23, 29, 35, 41, 47, 53, 59");
}

TEST(LayerPlan, Llama4NoPeEveryFourthLayer) {
  const pe::LayerPlan p = plan_of("llama-4-scout");
  ASSERT_EQ(p.rows.size(), 48u);
  int nope = 0;
  for (const auto& r : p.rows) {
    SCOPED_TRACE(r.index);
    // Llama4TextConfig: no_rope_layers [] → int((i + 1) % 4 != 0); 1 = RoPE.
    const bool rope = (r.index + 1) % 4 != 0;
    EXPECT_EQ(r.rotary, rope);
    if (rope) {
      EXPECT_EQ(r.attention, "chunked_attention");
      EXPECT_EQ(r.window, 8192);
      EXPECT_EQ(r.scaling, pe::RopeType::Llama3);
      EXPECT_EQ(r.theta, 500000.0);
    } else {
      ++nope;
      EXPECT_EQ(r.attention, "full_attention");
      EXPECT_EQ(r.window, 0);
      EXPECT_EQ(r.theta, 0.0);
    }
  }
  EXPECT_EQ(nope, 12);
  // An explicit list wins over the interval.
  const pe::LayerPlan q = pe::layer_plan(std::string(R"({"model_type": "llama4_text", "num_hidden_layers": 3,
      "head_dim": 128, "max_position_embeddings": 8192, "no_rope_layers": [0, 1, 1]})"));
  ASSERT_EQ(q.rows.size(), 3u);
  EXPECT_FALSE(q.rows[0].rotary);
  EXPECT_TRUE(q.rows[1].rotary);
}

TEST(LayerPlan, CommandR7bRotatesOnlyItsSlidingLayers) {
  const pe::LayerPlan p = plan_of("command-r7b");
  ASSERT_EQ(p.rows.size(), 32u);
  for (const auto& r : p.rows) {
    SCOPED_TRACE(r.index);
    const bool sliding = (r.index + 1) % 4 != 0;  // sliding_window_pattern 4
    EXPECT_EQ(r.rotary, sliding);
    EXPECT_EQ(r.window, sliding ? 4096 : 0);
    if (sliding) {
      EXPECT_EQ(r.theta, 50000.0);
    }
  }
}

TEST(LayerPlan, GptOssAlternates) {
  const pe::LayerPlan p = plan_of("gpt-oss-20b");
  ASSERT_EQ(p.rows.size(), 24u);
  for (const auto& r : p.rows) {
    EXPECT_EQ(r.attention, r.index % 2 == 0 ? "sliding_attention" : "full_attention") << r.index;
    EXPECT_EQ(r.window, r.index % 2 == 0 ? 128 : 0);
    EXPECT_EQ(r.scaling, pe::RopeType::Yarn);  // one rotary embedding for every layer
  }
}

TEST(LayerPlan, MlaRotatesOnlyTheRopePart) {
  const pe::LayerPlan p = plan_of("deepseek-v2-lite");
  ASSERT_EQ(p.rows.size(), 27u);
  EXPECT_EQ(p.rows[0].rotary_dims, 64);
  EXPECT_EQ(p.rows[0].qk_dims, 192);  // qk_rope 64 + qk_nope 128
  EXPECT_EQ(p.groups().size(), 1u);
  const pe::LayerPlan m = plan_of("minicpm3-4b");
  EXPECT_EQ(m.rows[0].rotary_dims, 32);
  EXPECT_EQ(m.rows[0].qk_dims, 96);
}

TEST(LayerPlan, PerLayerTypeRopeParameters) {
  // A transformers v5 export: one rope dict per layer type.
  const pe::LayerPlan p = pe::layer_plan(std::string(R"({"model_type": "gemma3_text", "head_dim": 128,
      "num_hidden_layers": 4, "max_position_embeddings": 131072,
      "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"],
      "sliding_window": 512,
      "rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})"));
  ASSERT_EQ(p.rows.size(), 4u);
  EXPECT_EQ(p.rows[0].theta, 10000.0);
  EXPECT_EQ(p.rows[0].window, 512);
  EXPECT_EQ(p.rows[3].theta, 1e6);
  EXPECT_EQ(p.rows[3].scaling, pe::RopeType::Linear);
  // The main config is the full-attention one.
  EXPECT_EQ(pe::parse_hf_config(R"({"model_type": "gemma3_text", "head_dim": 128, "max_position_embeddings": 131072,
      "rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})")
                .theta,
            1e6);
}

TEST(LayerPlan, UniformModelsAndQwenWindowLayers) {
  const pe::LayerPlan p = plan_of("llama-3.1-8b");  // its config.json: 32 layers, all alike
  ASSERT_EQ(p.rows.size(), 32u);
  EXPECT_EQ(p.groups().size(), 1u);
  // No model_type and no num_hidden_layers: one row stands for every layer.
  const pe::LayerPlan one = pe::layer_plan(std::string(R"({"head_dim": 128, "max_position_embeddings": 4096})"));
  ASSERT_EQ(one.rows.size(), 1u);
  // Gemma 2 9B (42 layers, sliding_window 4096, no layer_types): Gemma2Config's
  // "sliding_attention" if (i + 1) % 2 else "full_attention" — layer 0 slides.
  const pe::LayerPlan g = plan_of("gemma-2-9b");
  ASSERT_EQ(g.rows.size(), 42u);
  for (std::size_t i = 0; i < g.rows.size(); ++i) EXPECT_EQ(g.rows[i].window, (i + 1) % 2 ? 4096 : 0) << i;
  const pe::LayerPlan q = plan_of("qwen3-8b");  // use_sliding_window false: all full
  ASSERT_EQ(q.rows.size(), 36u);
  EXPECT_EQ(q.groups().size(), 1u);
  const pe::LayerPlan w = pe::layer_plan(std::string(R"({"model_type": "qwen2", "head_dim": 128,
      "max_position_embeddings": 32768, "num_hidden_layers": 4, "use_sliding_window": true, "sliding_window": 4096,
      "max_window_layers": 2})"));
  ASSERT_EQ(w.rows.size(), 4u);
  EXPECT_EQ(w.rows[1].window, 0);
  EXPECT_EQ(w.rows[2].window, 4096);  // layers >= max_window_layers slide
}

TEST(LayerPlan, LayerTypesLengthMustMatch) {
  const pe::InspectedConfig in = pe::inspect_hf_config(R"({"head_dim": 64, "max_position_embeddings": 64,
      "num_hidden_layers": 3, "layer_types": ["full_attention"]})");
  EXPECT_FALSE(in.valid);
}

TEST(LayerPlan, RangesFormat) {
  EXPECT_EQ(pe::format_layer_ranges({0, 1, 2, 4, 6, 7}), "0-2, 4, 6, 7");
  EXPECT_EQ(pe::format_layer_ranges({}), "");
  EXPECT_EQ(pe::format_layer_ranges({3}), "3");
}

}  // namespace
