// The q/k pair-norm measure (pe/weights/frequency_usage.hpp) on checkpoints written here with
// known weights. The expected norms are computed in the test, in double, from the logical
// matrices and each family's row order written out by hand (weights_test_writer.hpp):
// Hugging Face half-split heads, llama.cpp's interleaved permutation, Phi-3's stacked
// qkv_proj, GPT-NeoX's per-head query_key_value, MLA's nope/rope split with interleaved rope
// rows. The weights are multiples of 1/16 (or quantisation blocks of small dyadic values), so
// every sum of squares is exact in double whatever the order: norms compare with ==.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <random>

#include "pe/models/config_diagnostics.hpp"
#include "pe/models/gguf_conversion.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/weights_error.hpp"
#include "weights_test_writer.hpp"

namespace {

using namespace pe_test;
namespace fs = std::filesystem;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

pe::WeightsModel hf_model(const std::string& config_json) {
  const pe::InspectedConfig c = pe::inspect_hf_config(config_json, "config.json");
  return pe::hf_weights_model(c, pe::hf_checkpoint_layout(config_json));
}

pe::SafetensorsCheckpoint in_memory(const SafetensorsWriter& w, const std::string& name = "model.safetensors") {
  return pe::SafetensorsCheckpoint::single(pe::memory_source(w.bytes(), name));
}

// A Llama-shaped model: 4 query heads, 2 key/value heads, head_dim 8, hidden 256 (one
// K-quant block per row), 2 layers, θ = 10^4, trained on 64 positions.
constexpr long long kHeads = 4, kKv = 2, kHd = 8, kHidden = 256, kLayers = 2;
const char* kLlamaConfig = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 256,
  "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8, "num_hidden_layers": 2,
  "max_position_embeddings": 64, "rope_theta": 10000.0})";

struct Llama {
  std::vector<Rows> q, k;  // per layer, Hugging Face (half-split) row order
  explicit Llama(unsigned seed = 7) {
    std::mt19937 rng(seed);
    for (long long l = 0; l < kLayers; ++l) {
      q.push_back(random_rows(kHeads * kHd, kHidden, rng));
      k.push_back(random_rows(kKv * kHd, kHidden, rng));
    }
  }
  SafetensorsWriter safetensors(const std::string& dtype) const {
    SafetensorsWriter w;
    for (long long l = 0; l < kLayers; ++l) {
      const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
      w.values(p + "q_proj.weight", dtype, {kHeads * kHd, kHidden}, flat(q[l]));
      w.values(p + "k_proj.weight", dtype, {kKv * kHd, kHidden}, flat(k[l]));
      w.values(p + "v_proj.weight", dtype, {kKv * kHd, kHidden}, flat(k[l]));  // read never
    }
    return w;
  }
};

// Half-split pair j of head h: rows h·hd + j and h·hd + j + rot/2 (Hugging Face rotate_half).
double hf_pair(const Rows& m, long long h, long long j, long long hd = kHd, long long rot = kHd) {
  return pair_norm(m, h * hd + j, h * hd + j + rot / 2);
}

void expect_llama_norms(const pe::FrequencyUsage& u, const Llama& m) {
  ASSERT_EQ(u.q_pair_norms.size(), static_cast<std::size_t>(kLayers));
  for (long long l = 0; l < kLayers; ++l) {
    ASSERT_EQ(u.q_pair_norms[l].rows(), kHeads);
    ASSERT_EQ(u.q_pair_norms[l].cols(), kHd / 2);
    ASSERT_EQ(u.k_pair_norms[l].rows(), kKv);
    for (long long h = 0; h < kHeads; ++h)
      for (long long j = 0; j < kHd / 2; ++j) EXPECT_EQ(u.q_pair_norms[l](h, j), hf_pair(m.q[l], h, j)) << l << " " << h << " " << j;
    for (long long h = 0; h < kKv; ++h)
      for (long long j = 0; j < kHd / 2; ++j) EXPECT_EQ(u.k_pair_norms[l](h, j), hf_pair(m.k[l], h, j)) << l << " " << h << " " << j;
    EXPECT_TRUE((u.q_nonrotary_norms[l] == 0).all());  // every dim rotates
  }
}

// The llama.cpp GGUF of the same model: q/k rows permuted to interleaved pairs.
GgufBuilder llama_gguf(const Llama& m, const std::string& type, std::mt19937* quant_rng = nullptr, std::vector<Rows>* q_out = nullptr,
                       std::vector<Rows>* k_out = nullptr) {
  GgufBuilder g;
  g.str("general.architecture", "llama").u32("llama.block_count", kLayers).u32("llama.context_length", 64);
  g.u32("llama.embedding_length", kHidden).u32("llama.attention.head_count", kHeads).u32("llama.attention.head_count_kv", kKv);
  g.u32("llama.attention.key_length", kHd).u32("llama.rope.dimension_count", kHd).f32("llama.rope.freq_base", 10000.0f);
  const GgmlType& t = ggml_type(type);
  for (long long l = 0; l < kLayers; ++l) {
    for (const auto& [kind, rows, heads] : {std::tuple{"attn_q", &m.q[l], kHeads}, std::tuple{"attn_k", &m.k[l], kKv}}) {
      const Rows stored = hf_to_interleaved(*rows, heads);
      const long long n = static_cast<long long>(stored.size());
      std::mt19937 unused(0);  // plain types encode the values given and draw nothing
      const Encoded e = gguf_matrix(type, n, kHidden, quant_rng ? std::vector<double>{} : flat(stored), quant_rng ? *quant_rng : unused);
      if (quant_rng) (std::string(kind) == "attn_q" ? q_out : k_out)->push_back(unflat(e.values, n, kHidden));
      g.tensor("blk." + std::to_string(l) + "." + kind + ".weight", {kHidden, n}, t.id, e.bytes.size(), e.bytes);
    }
  }
  return g;
}

pe::GgufWeights gguf_weights(const GgufBuilder& g, const std::string& name = "model.gguf") {
  return pe::GgufWeights::from_source(pe::memory_source(g.bytes(), name));
}

TEST(FrequencyUsage, SafetensorsHalfSplitInEveryDtype) {
  const Llama m;
  const pe::WeightsModel model = hf_model(kLlamaConfig);
  for (const std::string dtype : {"F32", "F16", "BF16"}) {
    const auto c = in_memory(m.safetensors(dtype));
    const pe::FrequencyUsage u = pe::measure_frequency_usage(c, model);
    SCOPED_TRACE(dtype);
    expect_llama_norms(u, m);
    EXPECT_EQ(u.dtype, dtype == "F32" ? "f32" : dtype == "F16" ? "f16" : "bf16");
    EXPECT_EQ(u.convention, "half-split");
    EXPECT_EQ(u.family, "q_proj/k_proj");
    EXPECT_EQ(u.layers, kLayers);
    EXPECT_EQ(u.heads, kHeads);
    EXPECT_EQ(u.kv_heads, kKv);
    EXPECT_EQ(u.source, "model.safetensors");
    // inv_freq[j] = θ^(−2j/d).
    ASSERT_EQ(u.inv_freq.size(), kHd / 2);
    for (long long j = 0; j < kHd / 2; ++j) EXPECT_DOUBLE_EQ(u.inv_freq(j), std::pow(10000.0, -2.0 * j / kHd));
    // q and k of two layers: 2 × (32 + 16) rows × 256 values × bytes per value.
    EXPECT_EQ(u.bytes_read, static_cast<std::uint64_t>(2 * 48 * 256 * (dtype == "F32" ? 4 : 2)));
  }
}

TEST(FrequencyUsage, GgufInterleavedGivesTheSameNormsAsSafetensorsHalfSplit) {
  const Llama m;
  const auto st = pe::measure_frequency_usage(in_memory(m.safetensors("F32")), hf_model(kLlamaConfig));
  for (const std::string type : {"f32", "f16", "bf16"}) {
    const pe::GgufWeights g = gguf_weights(llama_gguf(m, type));
    const pe::WeightsModel model = pe::gguf_weights_model(g.config());
    EXPECT_EQ(model.stored_order, pe::PairConvention::Interleaved);
    const auto u = pe::measure_frequency_usage(g, model);
    SCOPED_TRACE(type);
    EXPECT_EQ(u.convention, "interleaved");
    EXPECT_EQ(u.family, "attn_q/attn_k (GGUF)");
    EXPECT_EQ(u.dtype, type);
    expect_llama_norms(u, m);
    for (std::size_t l = 0; l < 2; ++l) {
      EXPECT_TRUE((u.q_pair_norms[l] == st.q_pair_norms[l]).all());
      EXPECT_TRUE((u.k_pair_norms[l] == st.k_pair_norms[l]).all());
    }
    EXPECT_TRUE((u.inv_freq == st.inv_freq).all());
  }
}

// Quantised GGUF q/k against the same dequantised values stored F32 in Hugging Face order.
TEST(FrequencyUsage, QuantisedGgufMatchesItsDequantisedValues) {
  const Llama shapes;
  for (const std::string type : {"q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "iq4_nl", "q2_K", "q3_K", "q4_K", "q5_K", "q6_K", "iq4_xs"}) {
    SCOPED_TRACE(type);
    std::mt19937 rng(11);
    std::vector<Rows> q_stored, k_stored;  // the values the blocks stand for, in GGUF (interleaved) order
    const pe::GgufWeights g = gguf_weights(llama_gguf(shapes, type, &rng, &q_stored, &k_stored));
    const auto u = pe::measure_frequency_usage(g, pe::gguf_weights_model(g.config()));
    EXPECT_EQ(u.dtype, type);
    // Expected straight from the interleaved rows: pair j of head h is rows h·hd + 2j, 2j + 1.
    for (long long l = 0; l < kLayers; ++l) {
      for (long long h = 0; h < kHeads; ++h)
        for (long long j = 0; j < kHd / 2; ++j)
          EXPECT_EQ(u.q_pair_norms[l](h, j), pair_norm(q_stored[l], h * kHd + 2 * j, h * kHd + 2 * j + 1)) << l << " " << h << " " << j;
      for (long long h = 0; h < kKv; ++h)
        for (long long j = 0; j < kHd / 2; ++j)
          EXPECT_EQ(u.k_pair_norms[l](h, j), pair_norm(k_stored[l], h * kHd + 2 * j, h * kHd + 2 * j + 1));
    }
    // The same values as Hugging Face F32 (rows un-permuted: HF row h·hd + j·hd/2 + i = GGUF row h·hd + 2i + j).
    Llama hf;
    for (long long l = 0; l < kLayers; ++l) {
      for (auto [stored, out, heads] : {std::tuple{&q_stored[l], &hf.q[l], kHeads}, std::tuple{&k_stored[l], &hf.k[l], kKv}})
        for (long long h = 0; h < heads; ++h)
          for (long long i = 0; i < kHd / 2; ++i)
            for (long long j = 0; j < 2; ++j) (*out)[h * kHd + j * kHd / 2 + i] = (*stored)[h * kHd + 2 * i + j];
    }
    const auto st = pe::measure_frequency_usage(in_memory(hf.safetensors("F32")), hf_model(kLlamaConfig));
    for (std::size_t l = 0; l < 2; ++l) {
      EXPECT_TRUE((u.q_pair_norms[l] == st.q_pair_norms[l]).all());
      EXPECT_TRUE((u.k_pair_norms[l] == st.k_pair_norms[l]).all());
    }
  }
}

TEST(FrequencyUsage, ShardedCheckpointOpensOnlyTheShardsItNeeds) {
  const Llama m;
  TempPath dir("usage-sharded");
  fs::create_directories(dir.path());
  // Shard 1: layer 0's q and k; shard 2: layer 1's; shard 3: only an MLP weight.
  std::string map;
  for (long long l = 0; l < kLayers; ++l) {
    SafetensorsWriter w;
    const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
    w.values(p + "q_proj.weight", "BF16", {kHeads * kHd, kHidden}, flat(m.q[l]));
    w.values(p + "k_proj.weight", "BF16", {kKv * kHd, kHidden}, flat(m.k[l]));
    const std::string file = "model-0000" + std::to_string(l + 1) + "-of-00003.safetensors";
    write_bytes(dir.path() / file, w.bytes());
    map += "\"" + p + "q_proj.weight\": \"" + file + "\", \"" + p + "k_proj.weight\": \"" + file + "\", ";
  }
  SafetensorsWriter mlp;
  mlp.values("model.layers.0.mlp.up_proj.weight", "BF16", {2, 2}, {1, 2, 3, 4});
  write_bytes(dir.path() / "model-00003-of-00003.safetensors", mlp.bytes());
  map += "\"model.layers.0.mlp.up_proj.weight\": \"model-00003-of-00003.safetensors\"";
  std::ofstream(dir.path() / "model.safetensors.index.json") << "{\"metadata\": {}, \"weight_map\": {" << map << "}}";

  const auto c = pe::SafetensorsCheckpoint::open(dir.path());
  const auto u = pe::measure_frequency_usage(c, hf_model(kLlamaConfig));
  expect_llama_norms(u, m);
  EXPECT_EQ(c.shards_opened(), 2u);  // the MLP shard was never opened
  EXPECT_TRUE(contains(u.source, "model.safetensors.index.json (3 shards)")) << u.source;
}

// StableLM: q_proj/k_proj, partial_rotary_factor 0.25 → head_dim 16 has 4 rotary dims
// (pairs (0, 2), (1, 3)); rows 4 ... 15 of each head never rotate.
TEST(FrequencyUsage, PartialRotary) {
  const long long heads = 2, hd = 16, hidden = 32, rot = 4;
  std::mt19937 rng(3);
  const Rows q = random_rows(heads * hd, hidden, rng), k = random_rows(heads * hd, hidden, rng);
  SafetensorsWriter w;
  w.values("model.layers.0.self_attn.q_proj.weight", "F32", {heads * hd, hidden}, flat(q));
  w.values("model.layers.0.self_attn.k_proj.weight", "F32", {heads * hd, hidden}, flat(k));
  const std::string config = R"({"model_type": "stablelm", "hidden_size": 32, "num_attention_heads": 2, "num_key_value_heads": 2,
    "num_hidden_layers": 1, "partial_rotary_factor": 0.25, "max_position_embeddings": 128, "rope_theta": 10000})";
  const auto u = pe::measure_frequency_usage(in_memory(w), hf_model(config));
  ASSERT_EQ(u.q_pair_norms[0].cols(), rot / 2);
  ASSERT_EQ(u.inv_freq.size(), rot / 2);
  EXPECT_DOUBLE_EQ(u.inv_freq(1), std::pow(10000.0, -2.0 / rot));  // frequencies over the rotary dims
  for (long long h = 0; h < heads; ++h) {
    for (long long j = 0; j < rot / 2; ++j) {
      EXPECT_EQ(u.q_pair_norms[0](h, j), hf_pair(q, h, j, hd, rot));
      EXPECT_EQ(u.k_pair_norms[0](h, j), hf_pair(k, h, j, hd, rot));
    }
    EXPECT_EQ(u.q_nonrotary_norms[0](h), rows_norm(q, h * hd + rot, hd - rot));
    EXPECT_EQ(u.k_nonrotary_norms[0](h), rows_norm(k, h * hd + rot, hd - rot));
  }
}

// GPT-NeoX: query_key_value holds per head q_h, k_h, v_h; rotary_pct 0.5 of head_dim 8.
TEST(FrequencyUsage, GptNeoxFusedQueryKeyValue) {
  const long long heads = 4, hd = 8, hidden = 32, rot = 4;
  std::mt19937 rng(5);
  SafetensorsWriter w;
  std::vector<Rows> qs, ks;
  for (int l = 0; l < 2; ++l) {
    qs.push_back(random_rows(heads * hd, hidden, rng));
    ks.push_back(random_rows(heads * hd, hidden, rng));
    const Rows v = random_rows(heads * hd, hidden, rng);
    w.values("gpt_neox.layers." + std::to_string(l) + ".attention.query_key_value.weight", "F16", {3 * heads * hd, hidden},
             flat(neox_qkv(qs[l], ks[l], v, heads)));
  }
  const std::string config = R"({"architectures": ["GPTNeoXForCausalLM"], "model_type": "gpt_neox", "hidden_size": 32,
    "num_attention_heads": 4, "num_hidden_layers": 2, "rotary_pct": 0.5, "rotary_emb_base": 10000, "max_position_embeddings": 2048})";
  const auto u = pe::measure_frequency_usage(in_memory(w), hf_model(config));
  EXPECT_EQ(u.family, "query_key_value (GPT-NeoX)");
  EXPECT_EQ(u.kv_heads, heads);
  // q, k and not v: 2 layers × 2/3 of 96 rows × 32 values × 2 bytes.
  EXPECT_EQ(u.bytes_read, static_cast<std::uint64_t>(2 * 64 * 32 * 2));
  for (int l = 0; l < 2; ++l)
    for (long long h = 0; h < heads; ++h) {
      for (long long j = 0; j < rot / 2; ++j) {
        EXPECT_EQ(u.q_pair_norms[l](h, j), hf_pair(qs[l], h, j, hd, rot)) << l << " " << h << " " << j;
        EXPECT_EQ(u.k_pair_norms[l](h, j), hf_pair(ks[l], h, j, hd, rot)) << l << " " << h << " " << j;
      }
      EXPECT_EQ(u.q_nonrotary_norms[l](h), rows_norm(qs[l], h * hd + rot, hd - rot));
      EXPECT_EQ(u.k_nonrotary_norms[l](h), rows_norm(ks[l], h * hd + rot, hd - rot));
    }
}

// Phi-3: qkv_proj stacks all q heads, then all k heads, then v; GQA 4 : 2 here, and a
// partial rotary factor of 0.5 (as Phi-4-mini's 0.75, smaller).
TEST(FrequencyUsage, Phi3FusedQkvProj) {
  const long long heads = 4, kv = 2, hd = 8, hidden = 32, rot = 4;
  std::mt19937 rng(9);
  const Rows q = random_rows(heads * hd, hidden, rng), k = random_rows(kv * hd, hidden, rng), v = random_rows(kv * hd, hidden, rng);
  SafetensorsWriter w;
  w.values("model.layers.0.self_attn.qkv_proj.weight", "BF16", {(heads + 2 * kv) * hd, hidden}, flat(stacked({&q, &k, &v})));
  const std::string config = R"({"architectures": ["Phi3ForCausalLM"], "model_type": "phi3", "hidden_size": 32,
    "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 1, "partial_rotary_factor": 0.5,
    "max_position_embeddings": 4096, "rope_theta": 10000})";
  const auto u = pe::measure_frequency_usage(in_memory(w), hf_model(config));
  EXPECT_EQ(u.family, "qkv_proj (Phi-3)");
  EXPECT_EQ(u.bytes_read, static_cast<std::uint64_t>((heads + kv) * hd * hidden * 2));  // v skipped
  for (long long h = 0; h < heads; ++h) {
    for (long long j = 0; j < rot / 2; ++j) EXPECT_EQ(u.q_pair_norms[0](h, j), hf_pair(q, h, j, hd, rot));
    EXPECT_EQ(u.q_nonrotary_norms[0](h), rows_norm(q, h * hd + rot, hd - rot));
  }
  for (long long h = 0; h < kv; ++h) {
    for (long long j = 0; j < rot / 2; ++j) EXPECT_EQ(u.k_pair_norms[0](h, j), hf_pair(k, h, j, hd, rot));
    EXPECT_EQ(u.k_nonrotary_norms[0](h), rows_norm(k, h * hd + rot, hd - rot));
  }
}

// MLA (DeepSeek-V3 shape, small): q_b_proj heads are qk_nope 4 rows then qk_rope 4 rows,
// the rope rows interleaved (rope_interleave, the DeepseekV3Config default); kv_a_proj_with_mqa
// is kv_lora_rank 8 latent rows then the 4 rows of the one shared rotary key.
constexpr long long kMlaHeads = 2, kNope = 4, kRope = 4, kLora = 8, kQLora = 16, kMlaHidden = 32;
struct Mla {
  std::vector<Rows> qb, kva;
  Mla() {
    std::mt19937 rng(13);
    for (int l = 0; l < 2; ++l) {
      qb.push_back(random_rows(kMlaHeads * (kNope + kRope), kQLora, rng));
      kva.push_back(random_rows(kLora + kRope, kMlaHidden, rng));
    }
  }
  void expect(const pe::FrequencyUsage& u) const {
    const long long hd = kNope + kRope;
    ASSERT_EQ(u.q_pair_norms.size(), 2u);
    for (int l = 0; l < 2; ++l) {
      ASSERT_EQ(u.q_pair_norms[l].rows(), kMlaHeads);
      ASSERT_EQ(u.q_pair_norms[l].cols(), kRope / 2);
      ASSERT_EQ(u.k_pair_norms[l].rows(), 1);  // one rotary key head, shared
      for (long long h = 0; h < kMlaHeads; ++h) {
        for (long long j = 0; j < kRope / 2; ++j)
          EXPECT_EQ(u.q_pair_norms[l](h, j), pair_norm(qb[l], h * hd + kNope + 2 * j, h * hd + kNope + 2 * j + 1)) << l << h << j;
        EXPECT_EQ(u.q_nonrotary_norms[l](h), rows_norm(qb[l], h * hd, kNope));
      }
      for (long long j = 0; j < kRope / 2; ++j) EXPECT_EQ(u.k_pair_norms[l](0, j), pair_norm(kva[l], kLora + 2 * j, kLora + 2 * j + 1));
      EXPECT_EQ(u.k_nonrotary_norms[l](0), rows_norm(kva[l], 0, kLora));
    }
  }
};

TEST(FrequencyUsage, MlaFromHuggingFace) {
  const Mla m;
  SafetensorsWriter w;
  for (int l = 0; l < 2; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
    w.values(p + "q_b_proj.weight", "BF16", {kMlaHeads * (kNope + kRope), kQLora}, flat(m.qb[l]));
    w.values(p + "kv_a_proj_with_mqa.weight", "BF16", {kLora + kRope, kMlaHidden}, flat(m.kva[l]));
  }
  const std::string config = R"({"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 32,
    "num_attention_heads": 2, "num_key_value_heads": 2, "num_hidden_layers": 2, "q_lora_rank": 16, "kv_lora_rank": 8,
    "qk_nope_head_dim": 4, "qk_rope_head_dim": 4, "v_head_dim": 4, "max_position_embeddings": 4096, "rope_theta": 10000})";
  const pe::WeightsModel model = hf_model(config);
  ASSERT_TRUE(model.shape.is_mla());
  const auto u = pe::measure_frequency_usage(in_memory(w), model);
  EXPECT_EQ(u.convention, "interleaved");
  EXPECT_EQ(u.family, "q_b_proj/kv_a_proj_with_mqa (MLA)");
  m.expect(u);
}

TEST(FrequencyUsage, MlaFromGguf) {
  const Mla m;
  GgufBuilder g;
  g.str("general.architecture", "deepseek2").u32("deepseek2.block_count", 2).u32("deepseek2.context_length", 4096);
  g.u32("deepseek2.embedding_length", kMlaHidden).u32("deepseek2.attention.head_count", kMlaHeads);
  g.u32("deepseek2.attention.head_count_kv", 1);
  g.u32("deepseek2.attention.key_length", kLora + kRope).u32("deepseek2.attention.value_length", kLora);  // the absorbed cache row
  g.u32("deepseek2.attention.key_length_mla", kNope + kRope).u32("deepseek2.attention.value_length_mla", 4);
  g.u32("deepseek2.attention.kv_lora_rank", kLora).u32("deepseek2.attention.q_lora_rank", kQLora);
  g.u32("deepseek2.rope.dimension_count", kRope).f32("deepseek2.rope.freq_base", 10000.0f);
  std::mt19937 unused(0);
  for (int l = 0; l < 2; ++l) {
    const Encoded q = gguf_matrix("f32", kMlaHeads * (kNope + kRope), kQLora, flat(m.qb[l]), unused);
    const Encoded k = gguf_matrix("f16", kLora + kRope, kMlaHidden, flat(m.kva[l]), unused);
    g.tensor("blk." + std::to_string(l) + ".attn_q_b.weight", {kQLora, kMlaHeads * (kNope + kRope)}, 0, q.bytes.size(), q.bytes);
    g.tensor("blk." + std::to_string(l) + ".attn_kv_a_mqa.weight", {kMlaHidden, kLora + kRope}, 1, k.bytes.size(), k.bytes);
  }
  const pe::GgufWeights w = gguf_weights(g, "deepseek.gguf");
  const auto u = pe::measure_frequency_usage(w, pe::gguf_weights_model(w.config()));
  EXPECT_EQ(u.convention, "interleaved");
  EXPECT_EQ(u.dtype, "f32+f16");
  m.expect(u);
}

// A model whose second layer has no positional encoding (as Llama 4's every fourth): the
// model built by hand (ModelShape and a LayerPlan), not from a config.json.
TEST(FrequencyUsage, NoPELayersAreAllNonRotary) {
  const Llama m;
  pe::WeightsModel model;
  model.source = "hand-made";
  model.shape.num_hidden_layers = kLayers;
  model.shape.num_attention_heads = kHeads;
  model.shape.num_key_value_heads = kKv;
  model.shape.head_dim = kHd;
  model.shape.hidden_size = kHidden;
  model.rope.head_dim = kHd;
  model.rope.max_position_embeddings = 64;
  pe::LayerSchedule schedule;
  schedule.num_layers = kLayers;
  schedule.rotary = {true, false};
  model.plan = pe::layer_plan(model.rope, schedule);
  const auto u = pe::measure_frequency_usage(in_memory(m.safetensors("F32")), model);
  EXPECT_TRUE(u.layer_rotary[0]);
  EXPECT_FALSE(u.layer_rotary[1]);
  EXPECT_EQ(u.q_pair_norms[1].cols(), 0);
  EXPECT_EQ(u.layer_inv_freq[1].size(), 0);
  for (long long h = 0; h < kHeads; ++h) EXPECT_EQ(u.q_nonrotary_norms[1](h), rows_norm(m.q[1], h * kHd, kHd));
  for (long long h = 0; h < kKv; ++h) EXPECT_EQ(u.k_nonrotary_norms[1](h), rows_norm(m.k[1], h * kHd, kHd));
  const auto s = pe::summarize_usage(u);
  EXPECT_FALSE(s[1].rotary);
  EXPECT_EQ(s[1].total, 0.0);
  EXPECT_GT(s[1].nonrotary_qk, 0.0);
}

// The summary, by hand: w_j = Σ_h ‖q_{h,j}‖·‖k_{h/2,j}‖ (query heads 0, 1 share key head 0;
// 2, 3 key head 1); 4 pairs → quarters of 1, 2, 1 pairs; with 64 training positions the
// wavelengths 2π·10^(4j/4) are 6.3, 62.8, 628 and 6283: pairs 2 and 3 never turn once.
TEST(FrequencyUsage, SummaryByHand) {
  const Llama m;
  const auto u = pe::measure_frequency_usage(in_memory(m.safetensors("F32")), hf_model(kLlamaConfig));
  const auto s = pe::summarize_usage(u);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(u.training_context, 64);
  for (long long l = 0; l < kLayers; ++l) {
    std::vector<double> w(4, 0.0);
    for (long long h = 0; h < kHeads; ++h)
      for (long long j = 0; j < 4; ++j) w[j] += hf_pair(m.q[l], h, j) * hf_pair(m.k[l], h / 2, j);
    const double total = w[0] + w[1] + w[2] + w[3];
    EXPECT_EQ(s[l].layer, l);
    EXPECT_NEAR(s[l].total, total, 1e-12 * total);
    for (long long j = 0; j < 4; ++j) EXPECT_NEAR(s[l].qk(j), w[j], 1e-12 * total);
    EXPECT_EQ(s[l].fastest_pairs, 1);
    EXPECT_EQ(s[l].middle_pairs, 2);
    EXPECT_EQ(s[l].slowest_pairs, 1);
    EXPECT_NEAR(s[l].share_fastest, w[0] / total, 1e-12);
    EXPECT_NEAR(s[l].share_middle, (w[1] + w[2]) / total, 1e-12);
    EXPECT_NEAR(s[l].share_slowest, w[3] / total, 1e-12);
    EXPECT_EQ(s[l].pairs_beyond_context, (std::vector<long long>{2, 3}));
  }
  EXPECT_EQ(pe::quarter_pairs(0), 0);
  EXPECT_EQ(pe::quarter_pairs(1), 0);
  EXPECT_EQ(pe::quarter_pairs(2), 1);
  EXPECT_EQ(pe::quarter_pairs(6), 2);
  EXPECT_EQ(pe::quarter_pairs(64), 16);
}

TEST(FrequencyUsage, ProgressCancelThreadsAndLayerSubsets) {
  const Llama m;
  const auto c = in_memory(m.safetensors("BF16"));
  const pe::WeightsModel model = hf_model(kLlamaConfig);
  std::vector<pe::WeightsProgress> seen;
  pe::WeightsReadOptions o;
  o.threads = 1;
  o.progress = [&](const pe::WeightsProgress& p) {
    seen.push_back(p);
    return true;
  };
  const auto one = pe::measure_frequency_usage(c, model, o);
  ASSERT_FALSE(seen.empty());
  for (std::size_t k = 1; k < seen.size(); ++k) EXPECT_GE(seen[k].bytes_read, seen[k - 1].bytes_read);
  EXPECT_EQ(seen.back().fraction, 1.0);
  EXPECT_EQ(seen.back().bytes_read, one.bytes_read);
  EXPECT_EQ(seen.back().bytes_total, one.bytes_read);
  EXPECT_EQ(seen.back().layer, 1);

  o.threads = 2;
  o.progress = {};
  const auto two = pe::measure_frequency_usage(c, model, o);
  for (std::size_t l = 0; l < 2; ++l) EXPECT_TRUE((one.q_pair_norms[l] == two.q_pair_norms[l]).all());

  o.progress = [](const pe::WeightsProgress&) { return false; };
  EXPECT_THROW(pe::measure_frequency_usage(c, model, o), pe::WeightsCancelled);

  o.progress = {};
  o.layers = {1};
  const auto just_one = pe::measure_frequency_usage(c, model, o);
  EXPECT_EQ(just_one.layer_index, std::vector<long long>{1});
  EXPECT_TRUE((just_one.q_pair_norms[0] == one.q_pair_norms[1]).all());
  o.layers = {2};
  try {
    pe::measure_frequency_usage(c, model, o);
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_TRUE(contains(e.what(), "layer 2 does not exist")) << e.what();
  }
}

// A vision tower beside the language model: the language model's layers are read.
TEST(FrequencyUsage, MultimodalCheckpointReadsTheLanguageModel) {
  const Llama m;
  SafetensorsWriter w;
  for (long long l = 0; l < kLayers; ++l) {
    const std::string p = "model.language_model.layers." + std::to_string(l) + ".self_attn.";
    w.values(p + "q_proj.weight", "F32", {kHeads * kHd, kHidden}, flat(m.q[l]));
    w.values(p + "k_proj.weight", "F32", {kKv * kHd, kHidden}, flat(m.k[l]));
  }
  w.values("model.vision_tower.encoder.layers.0.self_attn.q_proj.weight", "F32", {2, 2}, {1, 1, 1, 1});
  w.values("model.vision_tower.encoder.layers.0.self_attn.k_proj.weight", "F32", {2, 2}, {1, 1, 1, 1});
  const auto u = pe::measure_frequency_usage(in_memory(w), hf_model(kLlamaConfig));
  expect_llama_norms(u, m);
}

// ---- what must be refused, naming file and tensor ----

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const pe::WeightsError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("another exception: ") + e.what();
  }
  return "accepted";
}

TEST(FrequencyUsageErrors, QkShapeDisagreeingWithTheConfig) {
  const Llama m;
  SafetensorsWriter w = m.safetensors("F32");
  // Layer 1's k_proj has one key/value head too many.
  w.values("model.layers.1.self_attn.k_proj.weight", "F32", {3 * kHd, kHidden}, std::vector<double>(3 * kHd * kHidden, 0.5));
  const std::string msg = error_of([&] { pe::measure_frequency_usage(in_memory(w, "ckpt.safetensors"), hf_model(kLlamaConfig)); });
  for (const std::string part : {"ckpt.safetensors", "tensor model.layers.1.self_attn.k_proj.weight", "[24, 256]", "expected [16, 256]",
                                 "2 key/value heads"})
    EXPECT_TRUE(contains(msg, part)) << "lacks " << part << ": " << msg;
  // The same in GGUF terms (ne order).
  GgufBuilder g = llama_gguf(m, "f32");
  const pe::GgufWeights gw = gguf_weights(g);
  pe::WeightsModel model = pe::gguf_weights_model(gw.config());
  model.shape.num_attention_heads = 8;
  const std::string gmsg = error_of([&] { pe::measure_frequency_usage(gw, model); });
  for (const std::string part : {"model.gguf", "tensor blk.0.attn_q.weight", "ne [256, 32]", "expected ne [256, 64]"})
    EXPECT_TRUE(contains(gmsg, part)) << "lacks " << part << ": " << gmsg;
}

TEST(FrequencyUsageErrors, GgufTensorPastTheEndOfTheFile) {
  const Llama m;
  Bytes b = llama_gguf(m, "f32").bytes();
  b.resize(b.size() - 100);  // blk.1.attn_k loses its last 100 bytes
  const pe::GgufWeights w = pe::GgufWeights::from_source(pe::memory_source(b, "cut.gguf"));
  const std::string msg = error_of([&] { pe::measure_frequency_usage(w, pe::gguf_weights_model(w.config())); });
  for (const std::string part : {"cut.gguf", "tensor blk.1.attn_k.weight", "past the end of the file"})
    EXPECT_TRUE(contains(msg, part)) << "lacks " << part << ": " << msg;
}

TEST(FrequencyUsageErrors, FormatsAndFamiliesNotRead) {
  // An iq2_xxs (ggml type 16: 66 bytes a block of 256) q/k in GGUF: the type by name and number, the tensor, what is read.
  GgufBuilder g;
  g.str("general.architecture", "llama").u32("llama.block_count", 1).u32("llama.context_length", 64);
  g.u32("llama.embedding_length", 256).u32("llama.attention.head_count", 1).u32("llama.attention.head_count_kv", 1);
  g.u32("llama.attention.key_length", 8);
  g.tensor("blk.0.attn_q.weight", {256, 8}, 16, 8 * 66, Bytes(8 * 66, 0)).tensor("blk.0.attn_k.weight", {256, 8}, 16, 8 * 66, Bytes(8 * 66, 0));
  const pe::GgufWeights w = gguf_weights(g, "iq2.gguf");
  const std::string msg = error_of([&] { pe::measure_frequency_usage(w, pe::gguf_weights_model(w.config())); });
  for (const std::string part : {"iq2.gguf: tensor blk.0.attn_q.weight: ggml type iq2_xxs (16) is not decoded", "q3_K", "iq4_xs"})
    EXPECT_TRUE(contains(msg, part)) << msg;

  // Falcon's fused self_attention.query_key_value: not a family read yet; the message lists what was found.
  SafetensorsWriter f;
  f.values("transformer.h.0.self_attention.query_key_value.weight", "F32", {2, 2}, {1, 2, 3, 4});
  const std::string config = R"({"model_type": "falcon", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 1,
    "max_position_embeddings": 2048})";
  const std::string fmsg = error_of([&] { pe::measure_frequency_usage(in_memory(f, "falcon.safetensors"), hf_model(config)); });
  for (const std::string part : {"falcon.safetensors", "not supported yet", "q_proj/k_proj"}) EXPECT_TRUE(contains(fmsg, part)) << fmsg;

  // q_proj without its k_proj.
  const Llama m;
  SafetensorsWriter half;
  half.values("model.layers.0.self_attn.q_proj.weight", "F32", {kHeads * kHd, kHidden}, flat(m.q[0]));
  half.values("model.layers.1.self_attn.q_proj.weight", "F32", {kHeads * kHd, kHidden}, flat(m.q[1]));
  half.values("model.layers.1.self_attn.k_proj.weight", "F32", {kKv * kHd, kHidden}, flat(m.k[1]));
  const std::string hmsg = error_of([&] { pe::measure_frequency_usage(in_memory(half), hf_model(kLlamaConfig)); });
  EXPECT_TRUE(contains(hmsg, "tensor model.layers.0.self_attn.k_proj.weight: missing")) << hmsg;

  // An I8 q_proj (a quantised checkpoint).
  SafetensorsWriter i8 = m.safetensors("F32");
  i8.tensor("model.layers.0.self_attn.q_proj.weight", "I8", {kHeads * kHd, kHidden}, Bytes(kHeads * kHd * kHidden, 1));
  const std::string imsg = error_of([&] { pe::measure_frequency_usage(in_memory(i8), hf_model(kLlamaConfig)); });
  EXPECT_TRUE(contains(imsg, "tensor model.layers.0.self_attn.q_proj.weight: dtype I8")) << imsg;
}

}  // namespace
