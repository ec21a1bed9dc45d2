#pragma once
// Small models and the files that fit them, shared by the fuzz targets (tests/fuzz/
// fuzz_safetensors.cpp, fuzz_gguf_tensors.cpp), their seed corpora and the test that keeps the
// seeds what these functions write (weights_fuzz_seeds_test.cpp).
//
// fuzz_safetensors reads its input's first byte as the model (byte % 4) and the rest as a
// safetensors file; GGUF files carry their model in their metadata.
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "pe/models/layer_plan.hpp"
#include "pe/weights/weights_model.hpp"
#include "weights_test_writer.hpp"

namespace pe_test {

// 0: Llama-like, 2 query heads sharing 1 key/value head, head_dim 4, 2 layers;
// 1: head_dim 8 with 4 rotary dims, the second layer NoPE;
// 2: GPT-NeoX-like, 2 heads of 4 dims, 2 of them rotary;
// 3: MLA, 2 heads of qk_nope 2 + qk_rope 2, kv_lora_rank 4, q_lora_rank 4, rope rows interleaved.
// All have hidden size 8.
inline pe::WeightsModel fuzz_model(int which) {
  pe::WeightsModel m;
  m.source = "fuzz model " + std::to_string(which);
  pe::ModelShape& s = m.shape;
  s.hidden_size = 8;
  m.rope.max_position_embeddings = 64;
  pe::LayerSchedule schedule;
  switch (which % 4) {
    case 0:
      s.num_hidden_layers = 2, s.num_attention_heads = 2, s.num_key_value_heads = 1, s.head_dim = 4;
      m.rope.head_dim = 4;
      break;
    case 1:
      s.num_hidden_layers = 2, s.num_attention_heads = 2, s.num_key_value_heads = 2, s.head_dim = 8;
      m.rope.head_dim = 8, m.rope.partial_rotary_factor = 0.5;
      schedule.rotary = {true, false};
      break;
    case 2:
      s.num_hidden_layers = 1, s.num_attention_heads = 2, s.num_key_value_heads = 2, s.head_dim = 4;
      m.rope.head_dim = 4, m.rope.partial_rotary_factor = 0.5;
      break;
    default:
      s.num_hidden_layers = 1, s.num_attention_heads = 2, s.num_key_value_heads = 2;
      s.qk_nope_head_dim = 2, s.qk_rope_head_dim = 2, s.head_dim = 4, s.kv_lora_rank = 4, s.q_lora_rank = 4, s.v_head_dim = 2;
      m.rope.head_dim = 2;
      m.stored_order = pe::PairConvention::Interleaved;
      schedule.qk_nope_head_dim = 2;
      break;
  }
  schedule.num_layers = s.num_hidden_layers;
  m.plan = pe::layer_plan(m.rope, schedule);
  return m;
}

// A safetensors file that fits fuzz_model(which) (the model's family: q_proj/k_proj for 0
// and 1, query_key_value for 2, q_b_proj + kv_a_proj_with_mqa for 3), in `dtype` (F8_E4M3 and
// F8_E5M2 with a …_scale_inv per weight, as DeepSeek-V3 stores them).
inline Bytes fuzz_safetensors_file(int which, const std::string& dtype, bool qkv_proj = false) {
  std::mt19937 rng(static_cast<unsigned>(100 + which));
  const pe::WeightsModel m = fuzz_model(which);
  const auto& s = m.shape;
  SafetensorsWriter w;
  const auto matrix = [&](const std::string& name, long long rows, long long cols) {
    const std::vector<double> v = flat(random_rows(rows, cols, rng));
    if (dtype == "F8_E4M3" || dtype == "F8_E5M2")  // with its 128 × 128 block scales (here one block)
      put_fp8(w, name, rows, cols, quantise_fp8(v, rows, cols, 128, 128, dtype == "F8_E4M3"), dtype == "F8_E4M3");
    else
      w.values(name, dtype, {static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols)}, v);
  };
  for (long long l = 0; l < s.num_hidden_layers; ++l) {
    const std::string p = (which % 4 == 2 ? "gpt_neox.layers." : "model.layers.") + std::to_string(l) + ".";
    if (which % 4 == 2) {
      matrix(p + "attention.query_key_value.weight", 3 * s.num_attention_heads * s.head_dim, s.hidden_size);
    } else if (which % 4 == 3) {
      matrix(p + "self_attn.q_b_proj.weight", s.num_attention_heads * s.head_dim, s.q_lora_rank);
      matrix(p + "self_attn.kv_a_proj_with_mqa.weight", s.kv_lora_rank + s.qk_rope_head_dim, s.hidden_size);
    } else if (qkv_proj) {
      matrix(p + "self_attn.qkv_proj.weight", (s.num_attention_heads + 2 * s.num_key_value_heads) * s.head_dim, s.hidden_size);
    } else {
      matrix(p + "self_attn.q_proj.weight", s.num_attention_heads * s.head_dim, s.hidden_size);
      matrix(p + "self_attn.k_proj.weight", s.num_key_value_heads * s.head_dim, s.hidden_size);
    }
  }
  w.metadata("format", "pt");
  return w.bytes();
}

// A GGUF file of `arch` ("llama", "gptneox" with attn_qkv, "deepseek2" with MLA tensors), its
// q/k in ggml type `type` (hidden size 256 for the K-quants, else 32).
inline Bytes fuzz_gguf_file(const std::string& arch, const std::string& type) {
  std::mt19937 rng(7);
  const GgmlType& t = ggml_type(type);
  const long long hidden = t.block_elements == 256 ? 256 : 32;
  const long long heads = 2, kv = arch == "llama" ? 1 : 2, hd = 4;
  GgufBuilder g;
  g.str("general.architecture", arch).u32(arch + ".block_count", 2).u32(arch + ".context_length", 64);
  g.u32(arch + ".embedding_length", static_cast<std::uint32_t>(hidden)).u32(arch + ".attention.head_count", heads);
  g.u32(arch + ".attention.head_count_kv", static_cast<std::uint32_t>(kv)).f32(arch + ".rope.freq_base", 10000.0f);
  if (arch == "deepseek2") {
    g.u32(arch + ".attention.key_length", 4 + 2).u32(arch + ".attention.key_length_mla", hd).u32(arch + ".attention.kv_lora_rank", 4);
    g.u32(arch + ".rope.dimension_count", 2);
  } else {
    g.u32(arch + ".attention.key_length", hd).u32(arch + ".rope.dimension_count", arch == "gptneox" ? 2 : 4);
  }
  const auto matrix = [&](const std::string& name, long long rows) {
    const Encoded e = gguf_matrix(type, rows, hidden, flat(random_rows(rows, hidden, rng)), rng);
    g.tensor(name, {hidden, rows}, t.id, e.bytes.size(), e.bytes);
  };
  for (int l = 0; l < 2; ++l) {
    const std::string p = "blk." + std::to_string(l) + ".";
    if (arch == "gptneox") {
      matrix(p + "attn_qkv.weight", 3 * heads * hd);
    } else if (arch == "deepseek2") {
      matrix(p + "attn_q.weight", heads * hd);  // no q_lora_rank: attn_q, hidden columns
      matrix(p + "attn_kv_a_mqa.weight", 4 + 2);
    } else {
      matrix(p + "attn_q.weight", heads * hd);
      matrix(p + "attn_k.weight", kv * hd);
    }
  }
  return g.bytes();
}

// Every seed: (corpus folder, file name, bytes). fuzz_safetensors seeds start with the model byte.
inline std::vector<std::tuple<std::string, std::string, Bytes>> fuzz_seeds() {
  std::vector<std::tuple<std::string, std::string, Bytes>> out;
  const auto st = [&](int which, const std::string& dtype, bool qkv, const std::string& name) {
    Bytes b = {static_cast<std::uint8_t>(which)};
    const Bytes f = fuzz_safetensors_file(which, dtype, qkv);
    b.insert(b.end(), f.begin(), f.end());
    out.emplace_back("fuzz_safetensors", name, std::move(b));
  };
  st(0, "F32", false, "llama-f32.bin");
  st(0, "BF16", true, "phi3-qkv-bf16.bin");
  st(1, "F16", false, "partial-nope-f16.bin");
  st(2, "BF16", false, "neox-bf16.bin");
  st(3, "F32", false, "mla-f32.bin");
  st(0, "F8_E4M3", false, "llama-f8_e4m3.bin");
  st(3, "F8_E4M3", false, "mla-f8_e4m3.bin");
  st(2, "F8_E5M2", false, "neox-f8_e5m2.bin");
  Bytes empty = {0};
  const Bytes header_only = SafetensorsWriter::file("{}", {});
  empty.insert(empty.end(), header_only.begin(), header_only.end());
  out.emplace_back("fuzz_safetensors", "empty-header.bin", empty);
  for (const std::string type :
       {"f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "iq4_nl", "q2_K", "q3_K", "q4_K", "q5_K", "q6_K", "iq4_xs"})
    out.emplace_back("fuzz_gguf_tensors", "llama-" + type + ".gguf", fuzz_gguf_file("llama", type));
  out.emplace_back("fuzz_gguf_tensors", "gptneox-qkv-f16.gguf", fuzz_gguf_file("gptneox", "f16"));
  out.emplace_back("fuzz_gguf_tensors", "deepseek2-mla-q8_0.gguf", fuzz_gguf_file("deepseek2", "q8_0"));
  return out;
}

}  // namespace pe_test
