// The model's shape beside its RoPE (heads, kv heads, widths, layers, MLA's dims), read from
// config.json as published; the expected numbers are those files' own values.
#include <gtest/gtest.h>

#include "pe/models/config_diagnostics.hpp"

namespace {

// meta-llama/Llama-3.1-8B config.json (positional and shape keys as published).
const char* kLlama31 = R"({
  "architectures": ["LlamaForCausalLM"], "model_type": "llama",
  "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,
  "max_position_embeddings": 131072, "rope_theta": 500000.0,
  "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"}
})";

// deepseek-ai/DeepSeek-V3 config.json (MLA keys as published).
const char* kDeepSeekV3 = R"({
  "architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
  "hidden_size": 7168, "num_attention_heads": 128, "num_key_value_heads": 128, "num_hidden_layers": 61,
  "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
  "max_position_embeddings": 163840, "rope_theta": 10000,
  "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0,
                   "original_max_position_embeddings": 4096, "type": "yarn"}
})";

// EleutherAI/gpt-neox-20b config.json: no num_key_value_heads (every head has its own k).
const char* kNeox = R"({
  "architectures": ["GPTNeoXForCausalLM"], "model_type": "gpt_neox",
  "hidden_size": 6144, "num_attention_heads": 64, "num_hidden_layers": 44,
  "max_position_embeddings": 2048, "rotary_emb_base": 10000, "rotary_pct": 0.25
})";

TEST(ModelShape, GqaModelAsPublished) {
  const pe::InspectedConfig c = pe::inspect_hf_config(kLlama31);
  ASSERT_TRUE(c.valid);
  EXPECT_EQ(c.shape.model_type, "llama");
  ASSERT_EQ(c.shape.architectures.size(), 1u);
  EXPECT_EQ(c.shape.architectures[0], "LlamaForCausalLM");
  EXPECT_EQ(c.shape.hidden_size, 4096);
  EXPECT_EQ(c.shape.num_attention_heads, 32);
  EXPECT_EQ(c.shape.num_key_value_heads, 8);
  EXPECT_EQ(c.shape.num_hidden_layers, 32);
  EXPECT_EQ(c.shape.head_dim, 128);
  EXPECT_FALSE(c.shape.is_mla());
}

TEST(ModelShape, MlaHeadIsNopeThenRope) {
  const pe::InspectedConfig c = pe::inspect_hf_config(kDeepSeekV3);
  ASSERT_TRUE(c.valid);
  EXPECT_TRUE(c.shape.is_mla());
  EXPECT_EQ(c.shape.qk_rope_head_dim, 64);
  EXPECT_EQ(c.shape.qk_nope_head_dim, 128);
  EXPECT_EQ(c.shape.head_dim, 192);  // 128 unrotated + 64 rotated rows per q head
  EXPECT_EQ(c.shape.v_head_dim, 128);
  EXPECT_EQ(c.shape.kv_lora_rank, 512);
  EXPECT_EQ(c.shape.q_lora_rank, 1536);
  EXPECT_EQ(c.shape.num_attention_heads, 128);
  EXPECT_EQ(c.shape.num_hidden_layers, 61);
  EXPECT_EQ(c.loaded.config.head_dim, 64);  // RoPE itself spans only the rope part
}

TEST(ModelShape, KeyValueHeadsDefaultToQueryHeads) {
  const pe::InspectedConfig c = pe::inspect_hf_config(kNeox);
  ASSERT_TRUE(c.valid);
  EXPECT_EQ(c.shape.num_attention_heads, 64);
  EXPECT_EQ(c.shape.num_key_value_heads, 64);
  EXPECT_EQ(c.shape.head_dim, 96);  // 6144 / 64, of which rotary_pct 0.25 rotates
  EXPECT_EQ(c.loaded.config.rotary_dim(), 24);
}

TEST(ModelShape, MultiQueryMeansOneKeyValueHead) {
  const pe::InspectedConfig c = pe::inspect_hf_config(
      R"({"hidden_size": 4544, "num_attention_heads": 71, "multi_query": true, "num_hidden_layers": 32,
          "max_position_embeddings": 2048, "rope_theta": 10000})");
  ASSERT_TRUE(c.valid);
  EXPECT_EQ(c.shape.num_key_value_heads, 1);
  EXPECT_EQ(c.shape.head_dim, 64);
}

TEST(ModelShape, AMistypedShapeKeyLeavesItsNumberZeroAndTheConfigLoads) {
  const pe::InspectedConfig c = pe::inspect_hf_config(
      R"({"head_dim": 64, "num_attention_heads": 8, "num_key_value_heads": "two", "max_position_embeddings": 4096})");
  ASSERT_TRUE(c.valid);
  EXPECT_EQ(c.shape.num_attention_heads, 8);
  EXPECT_EQ(c.shape.num_key_value_heads, 8);  // unusable value: as if absent
}

}  // namespace
