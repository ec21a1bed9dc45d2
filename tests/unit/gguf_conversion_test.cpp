// Conventions across a HF → GGUF conversion (pe/models/gguf_conversion.hpp). The permutation is
// checked against what it must achieve, computed here with plain loops: rotating the
// permuted q with llama.cpp's NORM pairs (2i, 2i+1) gives the permuted result of rotating
// the original q with HF's rotate_half pairs (i, i + d/2) — so q·k scores are unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gguf_test_writer.hpp"
#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"
#include "pe/models/gguf_conversion.hpp"

namespace {

using namespace pe_test;

// HF rotate_half RoPE: pair (j, j + d/2) turns by p·θ_j.
std::vector<double> rope_half_split(const std::vector<double>& x, double p, double theta) {
  const std::size_t d = x.size(), h = d / 2;
  std::vector<double> y(d);
  for (std::size_t j = 0; j < h; ++j) {
    const double a = p * std::pow(theta, -2.0 * static_cast<double>(j) / static_cast<double>(d));
    y[j] = x[j] * std::cos(a) - x[j + h] * std::sin(a);
    y[j + h] = x[j] * std::sin(a) + x[j + h] * std::cos(a);
  }
  return y;
}

// llama.cpp NORM RoPE: pair (2j, 2j+1) turns by p·θ_j.
std::vector<double> rope_interleaved(const std::vector<double>& x, double p, double theta) {
  const std::size_t d = x.size();
  std::vector<double> y(d);
  for (std::size_t j = 0; j < d / 2; ++j) {
    const double a = p * std::pow(theta, -2.0 * static_cast<double>(j) / static_cast<double>(d));
    y[2 * j] = x[2 * j] * std::cos(a) - x[2 * j + 1] * std::sin(a);
    y[2 * j + 1] = x[2 * j] * std::sin(a) + x[2 * j + 1] * std::cos(a);
  }
  return y;
}

std::vector<double> permuted(const std::vector<double>& x, const std::vector<long long>& rows) {
  std::vector<double> y(x.size());
  for (std::size_t r = 0; r < rows.size(); ++r) y[r] = x[static_cast<std::size_t>(rows[r])];
  return y;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

TEST(QkPermutation, IsLlamaModelPermuteForOneHead) {
  // reshape(1, 2, 4).swapaxes(1, 2) of rows 0..7: [[0,1,2,3],[4,5,6,7]] → [0,4,1,5,2,6,3,7].
  EXPECT_EQ(pe::llama_qk_permutation(8), (std::vector<long long>{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(pe::llama_qk_permutation(2), (std::vector<long long>{0, 1}));
  EXPECT_THROW(pe::llama_qk_permutation(7), pe::InvalidArgument);
  EXPECT_THROW(pe::llama_qk_permutation(0), pe::InvalidArgument);
}

TEST(QkPermutation, TurnsHalfSplitRotationIntoInterleavedRotation) {
  std::mt19937 rng(3);
  std::normal_distribution<double> n;
  const std::size_t d = 16;
  const auto rows = pe::llama_qk_permutation(static_cast<long long>(d));
  std::vector<double> q(d), k(d);
  for (auto& v : q) v = n(rng);
  for (auto& v : k) v = n(rng);
  for (double p : {0.0, 1.0, 7.0, 1234.0}) {
    const auto hf = permuted(rope_half_split(q, p, 10000.0), rows);
    const auto gguf = rope_interleaved(permuted(q, rows), p, 10000.0);
    for (std::size_t i = 0; i < d; ++i) EXPECT_NEAR(hf[i], gguf[i], 1e-12) << "p " << p << " dim " << i;
    // Scores: HF on the original weights equals llama.cpp on the permuted ones.
    const double s_hf = dot(rope_half_split(q, p, 10000.0), rope_half_split(k, 3.0, 10000.0));
    const double s_gguf = dot(rope_interleaved(permuted(q, rows), p, 10000.0), rope_interleaved(permuted(k, rows), 3.0, 10000.0));
    EXPECT_NEAR(s_hf, s_gguf, 1e-12);
  }
  // Without the permutation the interleaved rotation gives another score.
  const double wrong = dot(rope_interleaved(q, 5.0, 10000.0), rope_interleaved(k, 1.0, 10000.0));
  const double right = dot(rope_half_split(q, 5.0, 10000.0), rope_half_split(k, 1.0, 10000.0));
  EXPECT_GT(std::abs(wrong - right), 1e-3);
}

constexpr const char* kLlama31Json = R"({
  "architectures": ["LlamaForCausalLM"], "model_type": "llama",
  "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
  "rope_theta": 500000.0,
  "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                   "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
})";

bool has(const pe::ConversionConventions& c, pe::Severity s, const std::string& key, const std::string& text) {
  for (const auto& d : c.diagnostics)
    if (d.severity == s && d.key == key && d.message.find(text) != std::string::npos) return true;
  return false;
}

std::string dump(const pe::ConversionConventions& c) {
  std::string s;
  for (const auto& d : c.diagnostics) s += std::string(pe::to_string(d.severity)) + " " + d.key + ": " + d.message + "\n";
  return s;
}

TEST(Conversion, Llama31QkWeightsWerePermutedAndNumbersAgree) {
  const Bytes b = llama31_builder(1).bytes();
  const pe::GgufModelConfig g = pe::parse_gguf_config(b, "llama.gguf");
  const pe::RopeConfig hf = pe::parse_hf_config(kLlama31Json);
  const pe::HfCheckpointLayout layout = pe::hf_checkpoint_layout(kLlama31Json);
  EXPECT_EQ(layout.architecture, "LlamaForCausalLM");
  EXPECT_EQ(layout.convention, pe::PairConvention::HalfSplit);
  const pe::ConversionConventions c = pe::compare_conversion(g, hf, layout);
  EXPECT_EQ(c.hf, pe::PairConvention::HalfSplit);
  EXPECT_EQ(c.gguf, pe::PairConvention::Interleaved);
  EXPECT_EQ(c.rope_mode, pe::GgufRopeMode::Norm);
  EXPECT_TRUE(c.qk_permuted);
  EXPECT_TRUE(c.consistent) << dump(c);
  EXPECT_TRUE(has(c, pe::Severity::Info, "convention", "LlamaModel.permute")) << dump(c);
  EXPECT_TRUE(has(c, pe::Severity::Info, "inv_freq", "64 scaled frequencies agree")) << dump(c);
  EXPECT_TRUE(has(c, pe::Severity::Info, "rope_theta", "500000")) << dump(c);
}

TEST(Conversion, NeoxModelsNeedNoPermutation) {
  GgufBuilder g;
  g.str("general.architecture", "qwen2").u32("qwen2.context_length", 32768).u32("qwen2.embedding_length", 3584);
  g.u32("qwen2.attention.head_count", 28).f32("qwen2.rope.freq_base", 1000000.0f);
  const Bytes b = g.bytes();
  const std::string json = R"({"architectures": ["Qwen2ForCausalLM"], "hidden_size": 3584, "num_attention_heads": 28,
                               "max_position_embeddings": 32768, "rope_theta": 1000000.0})";
  const auto c = pe::compare_conversion(pe::parse_gguf_config(b), pe::parse_hf_config(json), pe::hf_checkpoint_layout(json));
  EXPECT_FALSE(c.qk_permuted);
  EXPECT_TRUE(c.consistent) << dump(c);
  EXPECT_TRUE(has(c, pe::Severity::Info, "convention", "copies the q/k rows unchanged")) << dump(c);
}

TEST(Conversion, InterleavedCheckpointsOnNormModeAreCopied) {
  // Llama 4 (HF rotates adjacent pairs as complex numbers; the converter sets undo_permute = False).
  GgufBuilder g;
  g.str("general.architecture", "llama4").u32("llama4.context_length", 10485760).u32("llama4.embedding_length", 5120);
  g.u32("llama4.attention.head_count", 40).f32("llama4.rope.freq_base", 500000.0f);
  const Bytes b = g.bytes();
  const std::string json = R"({"architectures": ["Llama4ForConditionalGeneration"], "hidden_size": 5120,
                               "num_attention_heads": 40, "max_position_embeddings": 10485760, "rope_theta": 500000.0})";
  const pe::HfCheckpointLayout layout = pe::hf_checkpoint_layout(json);
  EXPECT_EQ(layout.convention, pe::PairConvention::Interleaved);
  EXPECT_NE(layout.reason.find("view_as_complex"), std::string::npos);
  const auto c = pe::compare_conversion(pe::parse_gguf_config(b), pe::parse_hf_config(json), layout);
  EXPECT_FALSE(c.qk_permuted);
  EXPECT_TRUE(c.consistent) << dump(c);
}

TEST(Conversion, InterleavedCheckpointOnNeoxModeIsFlagged) {
  GgufBuilder g;
  g.str("general.architecture", "qwen2").u32("qwen2.context_length", 8192).u32("qwen2.embedding_length", 4096);
  g.u32("qwen2.attention.head_count", 32).f32("qwen2.rope.freq_base", 20000.0f);
  const Bytes b = g.bytes();
  const std::string json = R"({"architectures": ["CohereForCausalLM"], "hidden_size": 4096, "num_attention_heads": 32,
                               "max_position_embeddings": 8192, "rope_theta": 10000.0})";
  const auto c = pe::compare_conversion(pe::parse_gguf_config(b), pe::parse_hf_config(json), pe::hf_checkpoint_layout(json));
  EXPECT_FALSE(c.consistent);
  EXPECT_FALSE(c.qk_permuted);
  EXPECT_TRUE(has(c, pe::Severity::Warning, "convention", "inverse of LlamaModel.permute")) << dump(c);
  EXPECT_TRUE(has(c, pe::Severity::Warning, "rope_theta", "config.json 10000, GGUF 20000")) << dump(c);
  EXPECT_TRUE(has(c, pe::Severity::Warning, "inv_freq", "differ")) << dump(c);
}

TEST(Conversion, CheckpointLayoutEvidence) {
  EXPECT_EQ(pe::hf_checkpoint_layout(R"({"rope_interleave": true})").convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(pe::hf_checkpoint_layout(R"({"model_type": "deepseek_v3", "rope_interleave": false})").convention,
            pe::PairConvention::HalfSplit);
  EXPECT_EQ(pe::hf_checkpoint_layout(R"({"model_type": "deepseek_v3"})").convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(pe::hf_checkpoint_layout(R"({"architectures": ["GlmForCausalLM"]})").convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(pe::hf_checkpoint_layout(R"({"architectures": ["MistralForCausalLM"]})").convention, pe::PairConvention::HalfSplit);
  EXPECT_THROW(pe::hf_checkpoint_layout("[1, 2]"), pe::ConfigError);
  EXPECT_THROW(pe::hf_checkpoint_layout("{oops"), pe::ConfigError);
}

}  // namespace
