// The row arithmetic of pe/weights/qk_layout.hpp and the models the measure reads against
// (pe/weights/weights_model.hpp): which two rows form pair j in each storage order, GGUF
// metadata → heads, widths and storage order (per-layer arrays, MLA keys, llama.cpp's rope
// modes), and config.json → the same, with what must be refused named; open_weights.
#include <gtest/gtest.h>

#include <fstream>

#include "pe/models/config_diagnostics.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/qk_layout.hpp"
#include "pe/weights/weights_error.hpp"
#include "pe/weights/weights_model.hpp"
#include "weights_test_writer.hpp"

namespace {

using namespace pe_test;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(HeadRows, PairRowsInBothOrders) {
  // Head h of 8 rows starting at 100 + 24h (a GPT-NeoX-like stride), rotary rows 2 ... 5.
  pe::HeadRows r{100, 24, 3, 8, 2, 4, pe::PairConvention::HalfSplit};
  EXPECT_EQ(r.pairs(), 2);
  EXPECT_EQ(r.pair_rows(0, 0), (std::pair<long long, long long>{102, 104}));  // (j, j + rot/2)
  EXPECT_EQ(r.pair_rows(2, 1), (std::pair<long long, long long>{100 + 48 + 3, 100 + 48 + 5}));
  r.order = pe::PairConvention::Interleaved;
  EXPECT_EQ(r.pair_rows(0, 0), (std::pair<long long, long long>{102, 103}));  // (2j, 2j + 1)
  EXPECT_EQ(r.pair_rows(1, 1), (std::pair<long long, long long>{124 + 4, 124 + 5}));
  EXPECT_FALSE(r.rotary_row(1));
  EXPECT_TRUE(r.rotary_row(2));
  EXPECT_TRUE(r.rotary_row(5));
  EXPECT_FALSE(r.rotary_row(6));
}

GgufBuilder header(const std::string& arch) {
  GgufBuilder g;
  g.str("general.architecture", arch).u32(arch + ".block_count", 3).u32(arch + ".context_length", 4096);
  g.u32(arch + ".embedding_length", 64).u32(arch + ".attention.head_count", 4).f32(arch + ".rope.freq_base", 10000.0f);
  return g;
}

pe::WeightsModel model_of(const GgufBuilder& g) {
  return pe::gguf_weights_model(pe::GgufWeights::from_source(pe::memory_source(g.bytes(), "m.gguf")).config());
}

std::string error_of(const GgufBuilder& g) {
  try {
    model_of(g);
  } catch (const pe::WeightsError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(WeightsModel, GgufShapeAndStorageOrder) {
  GgufBuilder g = header("llama");
  g.u32("llama.attention.head_count_kv", 2);
  const pe::WeightsModel m = model_of(g);
  EXPECT_EQ(m.shape.num_hidden_layers, 3);
  EXPECT_EQ(m.shape.num_attention_heads, 4);
  EXPECT_EQ(m.shape.num_key_value_heads, 2);
  EXPECT_EQ(m.shape.head_dim, 16);  // embedding_length / head_count
  EXPECT_EQ(m.shape.hidden_size, 64);
  EXPECT_EQ(m.stored_order, pe::PairConvention::Interleaved);  // llama.cpp NORM: the converter permuted
  EXPECT_TRUE(contains(m.stored_order_reason, "LlamaModel.permute")) << m.stored_order_reason;
  EXPECT_EQ(m.plan.rows.size(), 3u);
  // Qwen2 is NEOX in llama.cpp: rows as Hugging Face stored them.
  EXPECT_EQ(model_of(header("qwen2")).stored_order, pe::PairConvention::HalfSplit);
}

TEST(WeightsModel, GgufPerLayerHeadCounts) {
  GgufBuilder g = header("llama");
  g.arr_u32("llama.attention.head_count_kv", {1, 2, 4});
  const pe::WeightsModel m = model_of(g);
  EXPECT_EQ(m.kv_heads_of(0), 1);
  EXPECT_EQ(m.kv_heads_of(2), 4);
  EXPECT_EQ(m.heads_of(1), 4);
  GgufBuilder bad = header("llama");
  bad.arr_u32("llama.attention.head_count_kv", {1, 2});
  EXPECT_TRUE(contains(error_of(bad), "llama.attention.head_count_kv: an array of 2 values; block_count is 3")) << error_of(bad);
}

TEST(WeightsModel, GgufMlaKeys) {
  GgufBuilder g = header("deepseek2");
  g.u32("deepseek2.attention.key_length", 576).u32("deepseek2.attention.key_length_mla", 192);
  g.u32("deepseek2.attention.kv_lora_rank", 512).u32("deepseek2.attention.q_lora_rank", 1536).u32("deepseek2.rope.dimension_count", 64);
  const pe::WeightsModel m = model_of(g);
  EXPECT_TRUE(m.shape.is_mla());
  EXPECT_EQ(m.shape.head_dim, 192);
  EXPECT_EQ(m.shape.qk_rope_head_dim, 64);
  EXPECT_EQ(m.shape.qk_nope_head_dim, 128);
  EXPECT_EQ(m.shape.kv_lora_rank, 512);
  EXPECT_EQ(m.shape.q_lora_rank, 1536);
  EXPECT_EQ(m.stored_order, pe::PairConvention::Interleaved);  // deepseek2 is NORM, weights as DeepSeek stores them
}

TEST(WeightsModel, GgufRefusals) {
  GgufBuilder no_heads;
  no_heads.str("general.architecture", "llama").u32("llama.block_count", 2).u32("llama.context_length", 64).u32("llama.attention.key_length", 8);
  EXPECT_TRUE(contains(error_of(no_heads), "m.gguf: llama.attention.head_count: missing")) << error_of(no_heads);
  // An architecture whose rope mode (hence row order) pe-viz does not know.
  const std::string unknown = error_of(header("brand-new-arch"));
  EXPECT_TRUE(contains(unknown, "m.gguf: general.architecture")) << unknown;
  EXPECT_TRUE(contains(unknown, "not known")) << unknown;
}

TEST(WeightsModel, FromConfigJson) {
  const std::string text = R"({"architectures": ["CohereForCausalLM"], "model_type": "cohere", "hidden_size": 64,
    "num_attention_heads": 4, "num_key_value_heads": 1, "num_hidden_layers": 3, "max_position_embeddings": 8192})";
  const pe::WeightsModel m = pe::hf_weights_model(pe::inspect_hf_config(text), pe::hf_checkpoint_layout(text));
  EXPECT_EQ(m.shape.num_attention_heads, 4);
  EXPECT_EQ(m.shape.num_key_value_heads, 1);
  EXPECT_EQ(m.shape.head_dim, 16);
  EXPECT_EQ(m.stored_order, pe::PairConvention::Interleaved);  // modeling_cohere.py rotates adjacent pairs
  EXPECT_EQ(m.plan.rows.size(), 3u);
  // An invalid config is refused with its errors named.
  const std::string bad = R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "rope_theta": -1,
    "max_position_embeddings": 64})";
  try {
    pe::hf_weights_model(pe::inspect_hf_config(bad), pe::hf_checkpoint_layout(bad));
    ADD_FAILURE() << "accepted";
  } catch (const pe::WeightsError& e) {
    EXPECT_TRUE(contains(e.what(), "config.json: the configuration is not usable")) << e.what();
    EXPECT_TRUE(contains(e.what(), "rope_theta")) << e.what();
  }
}

}  // namespace

namespace {

// open_weights: a model folder with config.json, a .gguf, and what is missing.
TEST(OpenWeights, FoldersFilesAndGguf) {
  pe_test::TempPath dir("open");
  std::filesystem::create_directories(dir.path());
  pe_test::SafetensorsWriter w;
  w.values("model.layers.0.self_attn.q_proj.weight", "F32", {8, 8}, std::vector<double>(64, 0.5));
  w.values("model.layers.0.self_attn.k_proj.weight", "F32", {8, 8}, std::vector<double>(64, 0.25));
  pe_test::write_bytes(dir.path() / "model.safetensors", w.bytes());
  try {
    pe::open_weights(dir.path());
    ADD_FAILURE() << "opened without a config.json";
  } catch (const pe::WeightsError& e) {
    EXPECT_TRUE(contains(e.what(), "no config.json")) << e.what();
  }
  std::ofstream(dir.path() / "config.json") << R"({"model_type": "llama", "hidden_size": 8, "num_attention_heads": 2,
    "num_hidden_layers": 1, "max_position_embeddings": 64})";
  for (const auto& p : {dir.path(), dir.path() / "model.safetensors"}) {
    const pe::OpenedWeights o = pe::open_weights(p);
    EXPECT_EQ(o.model.shape.head_dim, 4);
    EXPECT_EQ(o.config_path, dir.path() / "config.json");
    const pe::FrequencyUsage u = pe::measure_frequency_usage(*o.tensors, o.model);
    // Every q value 0.5: a pair is two rows of eight, sqrt(2 · 8 · 0.25) = 2; k: sqrt(2 · 8 · 0.0625) = 1.
    EXPECT_EQ(u.q_pair_norms[0](1, 1), 2.0);
    EXPECT_EQ(u.k_pair_norms[0](0, 0), 1.0);
  }
  GgufBuilder g = header("qwen2");
  pe_test::write_bytes(dir.path() / "m.GGUF", g.bytes());
  EXPECT_EQ(pe::open_weights(dir.path() / "m.GGUF").model.shape.model_type, "qwen2");
}

}  // namespace
