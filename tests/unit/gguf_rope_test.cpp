// GGUF metadata → RopeConfig (pe/models/gguf_rope.hpp). Expected numbers are written out here:
// llama.cpp's rope-mode table (src/llama-model.cpp llama_model_rope_type), its defaults
// (load_hparams), and the frequencies llama.cpp rotates with — θ_i = freq_base^(−2i/n_rot)
// divided by rope_freqs[i] (ggml rope: theta / freq_factor) — computed in double here.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <random>

#include "gguf_test_writer.hpp"
#include "pe/base/errors.hpp"
#include "pe/models/gguf_rope.hpp"
#include "pe/multimodal/multimodal.hpp"
#include "pe/scaling/scaling.hpp"

namespace {

using namespace pe_test;

pe::GgufModelConfig map(const GgufBuilder& g, const std::string& name = "model.gguf") {
  const Bytes b = g.bytes();
  return pe::parse_gguf_config(b, name);
}

pe::GgufError map_error(const GgufBuilder& g) {
  try {
    map(g);
  } catch (const pe::GgufError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected GgufError, got: " << e.what();
    return pe::GgufError("", 0, "");
  }
  ADD_FAILURE() << "expected GgufError, the file was accepted";
  return pe::GgufError("", 0, "");
}

bool has_diagnostic(const pe::GgufModelConfig& m, const std::string& key, const std::string& text) {
  for (const auto& d : m.loaded.diagnostics)
    if (d.key == key && d.message.find(text) != std::string::npos) return true;
  return false;
}

std::string all_diagnostics(const pe::GgufModelConfig& m) {
  std::string s;
  for (const auto& d : m.loaded.diagnostics) s += std::string(pe::to_string(d.severity)) + " " + d.key + ": " + d.message + "\n";
  return s;
}

GgufBuilder base(const std::string& arch, std::uint32_t ctx = 4096, std::uint32_t embd = 4096, std::uint32_t heads = 32) {
  GgufBuilder g;
  g.str("general.architecture", arch).u32(arch + ".context_length", ctx).u32(arch + ".embedding_length", embd);
  g.u32(arch + ".attention.head_count", heads);
  return g;
}

TEST(GgufRopeMode, FollowsLlamaCppsTable) {
  using M = pe::GgufRopeMode;
  EXPECT_EQ(pe::gguf_rope_mode("llama"), M::Norm);
  EXPECT_EQ(pe::gguf_rope_mode("deepseek2"), M::Norm);
  EXPECT_EQ(pe::gguf_rope_mode("command-r"), M::Norm);
  EXPECT_EQ(pe::gguf_rope_mode("qwen2"), M::Neox);
  EXPECT_EQ(pe::gguf_rope_mode("phi3"), M::Neox);
  EXPECT_EQ(pe::gguf_rope_mode("gemma2"), M::Neox);
  EXPECT_EQ(pe::gguf_rope_mode("gptneox"), M::Neox);
  EXPECT_EQ(pe::gguf_rope_mode("gpt-oss"), M::Neox);
  EXPECT_EQ(pe::gguf_rope_mode("qwen2vl"), M::MRope);
  EXPECT_EQ(pe::gguf_rope_mode("qwen3vl"), M::IMRope);
  EXPECT_EQ(pe::gguf_rope_mode("gpt2"), M::None);
  EXPECT_EQ(pe::gguf_rope_mode("mamba"), M::None);
  EXPECT_EQ(pe::gguf_rope_mode("glm4"), M::Norm);
  EXPECT_EQ(pe::gguf_rope_mode("glm4", true), M::MRope);
  EXPECT_EQ(pe::gguf_rope_mode("glm4moe"), M::Neox);
  EXPECT_EQ(pe::gguf_rope_mode("no-such-arch"), M::Unknown);

  EXPECT_EQ(pe::pair_convention(M::Norm), pe::PairConvention::Interleaved);
  for (M m : {M::Neox, M::MRope, M::IMRope, M::Vision}) EXPECT_EQ(pe::pair_convention(m), pe::PairConvention::HalfSplit);
  EXPECT_FALSE(pe::pair_convention(M::None).has_value());
  EXPECT_FALSE(pe::pair_convention(M::Unknown).has_value());
  EXPECT_STREQ(pe::to_string(M::Norm), "norm");
  EXPECT_STREQ(pe::to_string(M::Neox), "neox");
  EXPECT_STREQ(pe::to_string(M::MRope), "mrope");
  EXPECT_STREQ(pe::to_string(M::IMRope), "imrope");
  EXPECT_STREQ(pe::to_string(M::Vision), "vision");
}

TEST(GgufRope, Llama31FileIsLlama3ScalingWithInterleavedPairs) {
  GgufBuilder g = llama31_builder(2);
  const Bytes b = g.bytes();
  const pe::GgufModelConfig m = pe::parse_gguf_config(b, "Meta-Llama-3.1-8B-Q4_K_M.gguf");
  const pe::RopeConfig& c = m.loaded.config;
  EXPECT_EQ(m.architecture, "llama");
  EXPECT_EQ(m.rope_mode, pe::GgufRopeMode::Norm);
  EXPECT_EQ(c.convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(c.name, "Meta-Llama-3.1-8B-Q4_K_M");
  EXPECT_EQ(c.title, "Llama 3.1 8B (test)");
  EXPECT_EQ(c.theta, 500000.0);
  EXPECT_EQ(c.head_dim, 128);
  EXPECT_EQ(c.rotary_dim(), 128);
  EXPECT_EQ(c.max_position_embeddings, 131072);
  ASSERT_EQ(c.scaling.type, pe::RopeType::Llama3) << all_diagnostics(m);
  EXPECT_EQ(c.scaling.factor, 8.0);
  EXPECT_EQ(c.scaling.low_freq_factor, 1.0);
  EXPECT_EQ(c.scaling.high_freq_factor, 4.0);
  EXPECT_EQ(c.scaling.original_max_position_embeddings, 8192);
  ASSERT_EQ(m.freq_factors.size(), 64u);
  EXPECT_TRUE(has_diagnostic(m, "rope_freqs.weight", "exactly HF's llama3 scaling")) << all_diagnostics(m);
  EXPECT_TRUE(has_diagnostic(m, "", "tensor data")) << all_diagnostics(m);  // weights declared, absent

  // What llama.cpp rotates with: freq_base^(−2i/128) / rope_freqs[i].
  const pe::ScaledFrequencies f = pe::scaled_frequencies(c, 131072);
  for (int i = 0; i < 64; ++i) {
    const double expected = std::pow(500000.0, -2.0 * i / 128.0) / m.freq_factors[static_cast<std::size_t>(i)];
    EXPECT_NEAR(f.inv_freq[i] / expected, 1.0, 1e-6) << "pair " << i;
  }
  EXPECT_EQ(f.attention_factor, 1.0);

  // The positional listing: keys in file order, then the tensor; no tokenizer or norms.
  std::vector<std::string> keys;
  for (const auto& e : m.positional) keys.push_back(e.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"general.architecture", "llama.context_length", "llama.embedding_length",
                                            "llama.attention.head_count", "llama.attention.head_count_kv",
                                            "llama.rope.freq_base", "llama.rope.dimension_count", "rope_freqs.weight"}));
  EXPECT_EQ(m.positional[5].type, "float32");
  EXPECT_EQ(m.positional[5].preview, "500000");
  EXPECT_EQ(m.positional.back().type, "tensor f32 [64]");
  EXPECT_EQ(m.positional.back().preview.substr(0, 8), "[1, 1, 1");
  // The raw listing has every key.
  EXPECT_EQ(pe::gguf_metadata_entries(m.file).size(), m.file.metadata.size());
}

TEST(GgufRope, OtherFactorTensorsArePerPairDivisors) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(1.0f, 5.0f);
  std::vector<float> r(32);
  for (float& x : r) x = u(rng);
  GgufBuilder g = base("llama", 8192, 2048, 32);  // head 64
  g.f32("llama.rope.freq_base", 10000.0f);
  g.f32_tensor("rope_freqs.weight", r);
  const pe::GgufModelConfig m = map(g);
  const pe::RopeConfig& c = m.loaded.config;
  ASSERT_EQ(c.scaling.type, pe::RopeType::LongRope) << all_diagnostics(m);
  EXPECT_TRUE(has_diagnostic(m, "rope_freqs.weight", "per-pair factors")) << all_diagnostics(m);
  for (long long length : {1LL, 8192LL, 100000LL}) {
    const pe::ScaledFrequencies f = pe::scaled_frequencies(c, length);
    EXPECT_EQ(f.attention_factor, 1.0);
    for (int i = 0; i < 32; ++i)
      EXPECT_NEAR(f.inv_freq[i] / (std::pow(10000.0, -2.0 * i / 64.0) / r[static_cast<std::size_t>(i)]), 1.0, 1e-12);
  }
}

TEST(GgufRope, Qwen2YarnIsHalfSplitWithTheMetadatasNumbers) {
  GgufBuilder g = base("qwen2", 131072, 3584, 28);  // head 128
  g.f32("qwen2.rope.freq_base", 1000000.0f).str("qwen2.rope.scaling.type", "yarn").f32("qwen2.rope.scaling.factor", 4.0f);
  g.u32("qwen2.rope.scaling.original_context_length", 32768);
  g.f32("qwen2.rope.scaling.yarn_beta_fast", 16.0f);
  const pe::GgufModelConfig m = map(g);
  const pe::RopeConfig& c = m.loaded.config;
  EXPECT_EQ(m.rope_mode, pe::GgufRopeMode::Neox);
  EXPECT_EQ(c.convention, pe::PairConvention::HalfSplit);
  EXPECT_EQ(c.theta, 1e6);
  EXPECT_EQ(c.head_dim, 128);
  ASSERT_EQ(c.scaling.type, pe::RopeType::Yarn);
  EXPECT_EQ(c.scaling.factor, 4.0);
  EXPECT_EQ(c.scaling.original_max_position_embeddings, 32768);
  EXPECT_EQ(c.scaling.beta_fast, 16.0);
  EXPECT_EQ(c.scaling.beta_slow, 1.0);  // llama.cpp's and HF's default
  EXPECT_FALSE(c.scaling.attention_factor.has_value());
}

TEST(GgufRope, DeepSeekYarnLogMultiplierIsMscaleAllDim) {
  GgufBuilder g = base("deepseek2", 163840, 7168, 128);
  g.u32("deepseek2.attention.key_length", 192).u32("deepseek2.rope.dimension_count", 64);
  g.f32("deepseek2.rope.freq_base", 10000.0f).str("deepseek2.rope.scaling.type", "yarn");
  g.f32("deepseek2.rope.scaling.factor", 40.0f).u32("deepseek2.rope.scaling.original_context_length", 4096);
  g.f32("deepseek2.rope.scaling.yarn_log_multiplier", 0.1f);
  const pe::GgufModelConfig m = map(g);
  const pe::RopeConfig& c = m.loaded.config;
  EXPECT_EQ(c.convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(c.head_dim, 192);
  EXPECT_EQ(c.rotary_dim(), 64);
  ASSERT_TRUE(c.scaling.mscale_all_dim.has_value());
  EXPECT_NEAR(*c.scaling.mscale_all_dim, 1.0, 1e-6);
  // HF with mscale = mscale_all_dim: cos/sin factor 1, logits × (0.1·ln 40 + 1)².
  const pe::ScaledFrequencies f = pe::scaled_frequencies(c, 163840);
  EXPECT_NEAR(f.attention_factor, 1.0, 1e-6);
  const double m_all = 0.1 * std::log(40.0) + 1.0;
  EXPECT_NEAR(f.logit_scale, m_all * m_all, 1e-5);
}

TEST(GgufRope, Phi3LongRopeTakesBothFactorTensors) {
  std::vector<float> long_f(48), short_f(48);
  for (int i = 0; i < 48; ++i) {
    long_f[static_cast<std::size_t>(i)] = 1.0f + 0.5f * static_cast<float>(i);
    short_f[static_cast<std::size_t>(i)] = 1.0f + 0.01f * static_cast<float>(i);
  }
  GgufBuilder g = base("phi3", 131072, 3072, 32);  // head 96
  g.f32("phi3.rope.freq_base", 10000.0f).str("phi3.rope.scaling.type", "longrope");
  g.u32("phi3.rope.scaling.original_context_length", 4096).f32("phi3.rope.scaling.attn_factor", 1.19f);
  g.f32_tensor("rope_factors_long.weight", long_f).f32_tensor("rope_factors_short.weight", short_f);
  const pe::GgufModelConfig m = map(g);
  const pe::RopeConfig& c = m.loaded.config;
  ASSERT_EQ(c.scaling.type, pe::RopeType::LongRope) << all_diagnostics(m);
  EXPECT_EQ(c.scaling.original_max_position_embeddings, 4096);
  EXPECT_NEAR(*c.scaling.attention_factor, 1.19, 1e-6);
  const pe::ScaledFrequencies at_short = pe::scaled_frequencies(c, 4096), at_long = pe::scaled_frequencies(c, 4097);
  EXPECT_FALSE(at_short.uses_long_factor);
  EXPECT_TRUE(at_long.uses_long_factor);
  EXPECT_NEAR(at_long.inv_freq[10] / (std::pow(10000.0, -20.0 / 96.0) / 6.0), 1.0, 1e-12);
  EXPECT_NEAR(at_short.inv_freq[10] / (std::pow(10000.0, -20.0 / 96.0) / 1.1f), 1.0, 1e-12);
}

TEST(GgufRope, QwenVlSectionsAreMropeAndKept) {
  GgufBuilder g = base("qwen2vl", 128000, 3584, 28);
  g.f32("qwen2vl.rope.freq_base", 1000000.0f).arr_u32("qwen2vl.rope.dimension_sections", {16, 24, 24, 0});
  const pe::GgufModelConfig m = map(g);
  EXPECT_EQ(m.rope_mode, pe::GgufRopeMode::MRope);
  EXPECT_EQ(m.loaded.config.convention, pe::PairConvention::HalfSplit);
  EXPECT_EQ(m.rope_sections, (std::vector<long long>{16, 24, 24, 0}));
  EXPECT_TRUE(has_diagnostic(m, "qwen2vl.rope.dimension_sections", "[16, 24, 24, 0]")) << all_diagnostics(m);
  // The sections become the multi-axis layout (llama.cpp's unused fourth section dropped):
  // 3584 / 28 = 128 dims, 64 pairs = 16 + 24 + 24.
  ASSERT_TRUE(m.loaded.config.multimodal.multi_axis);
  EXPECT_EQ(m.loaded.config.multimodal.multi_axis->scheme, pe::MultiAxisScheme::MRope);
  EXPECT_EQ(m.loaded.config.multimodal.multi_axis->sections, (std::vector<long long>{16, 24, 24}));
}

TEST(GgufRope, Qwen3VlImropeSaysWhichPairsLlamaCppRotatesByItsFourthId) {
  // Qwen3-VL: sections [24, 20, 20]. Per ggml's IMROPE test, pair i is h when i % 3 == 1 and
  // i < 60, w when i % 3 == 2 and i < 60, t when i % 3 == 0 and i < 72, else the fourth id:
  // pairs 61 and 62 (61 % 3 == 1 and 62 % 3 == 2, both past 60). transformers keeps them on t.
  GgufBuilder g = base("qwen3vl", 262144, 4096, 32);
  g.u32("qwen3vl.attention.key_length", 128).arr_u32("qwen3vl.rope.dimension_sections", {24, 20, 20, 0});
  const pe::GgufModelConfig m = map(g);
  EXPECT_EQ(m.rope_mode, pe::GgufRopeMode::IMRope);
  ASSERT_TRUE(m.loaded.config.multimodal.multi_axis);
  EXPECT_EQ(m.loaded.config.multimodal.multi_axis->scheme, pe::MultiAxisScheme::MRopeInterleaved);
  EXPECT_TRUE(has_diagnostic(m, "qwen3vl.rope.dimension_sections", "pairs 61, 62 of image")) << all_diagnostics(m);
}

TEST(GgufRope, SectionsThatDoNotFitTheRotaryPairsAreAWarning) {
  GgufBuilder g = base("qwen2vl", 128000, 3584, 28);
  g.arr_u32("qwen2vl.rope.dimension_sections", {16, 24, 20, 0});  // 60 of 64 pairs
  const pe::GgufModelConfig m = map(g);
  EXPECT_FALSE(m.loaded.config.multimodal.multi_axis);
  EXPECT_TRUE(has_diagnostic(m, "qwen2vl.rope.dimension_sections", "not a usable M-RoPE layout")) << all_diagnostics(m);
}

TEST(GgufRope, LlamaCppDefaultsAndAlternativeKeys) {
  // No freq_base: 10000. Legacy rope.scale_linear: linear. key_length overrides embd/heads
  // (Gemma: 256-dim heads, 3072 / 16 = 192 would be wrong).
  GgufBuilder g = base("gemma", 8192, 3072, 16);
  g.u32("gemma.attention.key_length", 256).f32("gemma.rope.scale_linear", 2.0f);
  const pe::GgufModelConfig m = map(g);
  const pe::RopeConfig& c = m.loaded.config;
  EXPECT_EQ(c.theta, 10000.0);
  EXPECT_TRUE(has_diagnostic(m, "gemma.rope.freq_base", "default 10000")) << all_diagnostics(m);
  EXPECT_EQ(c.head_dim, 256);
  EXPECT_EQ(c.scaling.type, pe::RopeType::Linear);
  EXPECT_EQ(c.scaling.factor, 2.0);

  // A per-layer head count (llama.cpp get_key_or_arr): the first layer's, with a note.
  GgufBuilder h;
  h.str("general.architecture", "openelm").u32("openelm.context_length", 2048).u32("openelm.embedding_length", 1280);
  h.arr_u32("openelm.attention.head_count", {20, 20, 24}).u32("openelm.attention.key_length", 64);
  const pe::GgufModelConfig mh = map(h);
  EXPECT_EQ(mh.loaded.config.head_dim, 64);
  EXPECT_TRUE(has_diagnostic(mh, "openelm.attention.head_count", "first layer's 20")) << all_diagnostics(mh);

  // Partial rotation: dimension_count < head.
  GgufBuilder p = base("phi2", 2048, 2560, 32);
  p.u32("phi2.rope.dimension_count", 32);
  EXPECT_EQ(map(p).loaded.config.partial_rotary_factor, 0.4);
}

TEST(GgufRope, ErrorsNameTheKey) {
  {
    GgufBuilder g;
    g.str("general.architecture", "llama").u32("llama.embedding_length", 4096).u32("llama.attention.head_count", 32);
    const pe::GgufError e = map_error(g);
    EXPECT_EQ(e.key(), "llama.context_length");
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos);
  }
  {
    GgufBuilder g;
    g.u32("llama.context_length", 4096);
    EXPECT_EQ(map_error(g).key(), "general.architecture");
  }
  {
    GgufBuilder g = base("gpt2", 1024, 768, 12);
    const pe::GgufError e = map_error(g);
    EXPECT_EQ(e.key(), "general.architecture");
    EXPECT_NE(std::string(e.what()).find("without RoPE"), std::string::npos) << e.what();
  }
  {
    GgufBuilder g = base("llama");
    g.str("llama.rope.freq_base", "10000");
    const pe::GgufError e = map_error(g);
    EXPECT_EQ(e.key(), "llama.rope.freq_base");
    EXPECT_NE(std::string(e.what()).find("expected a number, got string"), std::string::npos) << e.what();
  }
  {
    GgufBuilder g = base("llama");
    g.f32("llama.rope.freq_base", 0.5f);
    const pe::GgufError e = map_error(g);
    EXPECT_EQ(e.key(), "llama.rope.freq_base");
    EXPECT_NE(std::string(e.what()).find("got 0.5"), std::string::npos) << e.what();
  }
  {
    GgufBuilder g = base("llama");
    g.str("llama.rope.scaling.type", "ntk");
    const pe::GgufError e = map_error(g);
    EXPECT_EQ(e.key(), "llama.rope.scaling.type");
    EXPECT_NE(std::string(e.what()).find("none, linear, yarn, longrope"), std::string::npos) << e.what();
  }
  {
    GgufBuilder g = base("llama");
    g.u32("llama.rope.dimension_count", 256);
    const pe::GgufError e = map_error(g);
    EXPECT_EQ(e.key(), "llama.rope.dimension_count");
    EXPECT_NE(std::string(e.what()).find("more than the head's 128"), std::string::npos) << e.what();
  }
  {
    GgufBuilder g = base("llama");
    g.str("llama.rope.scaling.type", "yarn");
    EXPECT_EQ(map_error(g).key(), "llama.rope.scaling.factor");
  }
}

TEST(GgufRope, UnusableFactorTensorsAreWarningsNotErrors) {
  GgufBuilder g = base("llama", 8192, 2048, 32);
  g.f32_tensor("rope_freqs.weight", {1.0f, 2.0f});  // 2 values, 32 expected
  const pe::GgufModelConfig m = map(g);
  EXPECT_EQ(m.loaded.config.scaling.type, pe::RopeType::Default);
  EXPECT_TRUE(has_diagnostic(m, "rope_freqs.weight", "expects rope.dimension_count / 2 = 32")) << all_diagnostics(m);

  // A factor tensor whose data is not in the file.
  GgufBuilder h = base("llama", 8192, 2048, 32);
  h.tensor("rope_freqs.weight", {32}, 0, 128);
  const pe::GgufModelConfig mh = map(h);
  EXPECT_EQ(mh.loaded.config.scaling.type, pe::RopeType::Default);
  EXPECT_TRUE(has_diagnostic(mh, "rope_freqs.weight", "past the end of the file")) << all_diagnostics(mh);
}

TEST(GgufRope, LoadsFromAFile) {
  const Bytes b = llama31_builder(1).bytes();
  const auto path = std::filesystem::temp_directory_path() / ("pe-gguf-rope-" + std::to_string(::getpid()) + ".gguf");
  write_bytes(path, b);
  const pe::GgufModelConfig m = pe::load_gguf_config(path);
  std::filesystem::remove(path);
  EXPECT_EQ(m.loaded.config.scaling.type, pe::RopeType::Llama3);
  EXPECT_NE(m.loaded.config.source.find("rope mode norm"), std::string::npos) << m.loaded.config.source;
}

}  // namespace
