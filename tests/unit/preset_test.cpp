// Bundled model presets: every one loads, validates and computes; the values match the
// published configs they cite.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"

namespace {

bool is_kebab(const std::string& s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  for (char ch : s)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.')) return false;
  return true;
}

TEST(Presets, EveryPresetLoadsAndComputes) {
  const auto presets = pe::list_presets();
  ASSERT_GE(presets.size(), 11u);
  EXPECT_EQ(presets.front().key, pe::kTeachingPreset);
  std::set<std::string> keys;
  for (const auto& p : presets) {
    SCOPED_TRACE(p.key);
    EXPECT_TRUE(is_kebab(p.key));
    EXPECT_TRUE(keys.insert(p.key).second) << "duplicate key";
    EXPECT_FALSE(p.title.empty());
    EXPECT_GT(p.source.size(), 20u);
    const pe::RopeConfig c = pe::load_preset(p.key);
    EXPECT_EQ(c.name, p.key);
    EXPECT_NO_THROW(pe::validate(c));
    for (long long len : {1LL, c.original_max_position_embeddings(), c.max_position_embeddings}) {
      const auto r = pe::scaled_frequencies(c, len);
      EXPECT_EQ(r.inv_freq.size(), c.rotary_dim() / 2);
      EXPECT_TRUE(r.inv_freq.allFinite());
      EXPECT_TRUE((r.inv_freq >= 0).all());
      // Every pair turns but proportional RoPE's dropped ones (frequency 0, transformers v5).
      EXPECT_EQ((r.inv_freq > 0).count(), c.rotating_pairs());
      EXPECT_GT(r.attention_factor, 0.0);
    }
  }
  for (const char* required : {"teaching", "gpt-neox-20b", "llama-2-7b", "code-llama-7b", "mistral-7b", "llama-3.1-8b",
                               "qwen2.5-7b", "qwen2.5-7b-yarn", "phi-3-mini-128k", "deepseek-v3", "gemma-2-9b"})
    EXPECT_TRUE(keys.count(required)) << required;
}

TEST(Presets, FilesOnDiskMatchTheirKeys) {
  const std::filesystem::path dir = std::filesystem::path(PE_SOURCE_DIR) / "assets" / "presets";
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++n;
    const auto c = pe::load_hf_config(entry.path());
    EXPECT_EQ(c.name, entry.path().stem().string()) << "pe_viz_name should equal the file name";
  }
  EXPECT_EQ(n, static_cast<int>(pe::list_presets().size()));
}

TEST(Presets, UnknownKeyListsTheValidOnes) {
  try {
    pe::load_preset("llama-9");
    FAIL() << "accepted an unknown preset";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "preset");
    EXPECT_NE(e.allowed().find("llama-3.1-8b"), std::string::npos) << e.allowed();
    EXPECT_NE(e.allowed().find("teaching"), std::string::npos) << e.allowed();
  }
}

TEST(Presets, PublishedValues) {
  const auto teaching = pe::load_preset("teaching");
  EXPECT_EQ(teaching.head_dim, 64);
  EXPECT_EQ(teaching.max_position_embeddings, 128);
  EXPECT_EQ(teaching.theta, 10000.0);
  EXPECT_EQ(teaching.convention, pe::PairConvention::Interleaved);

  const auto neox = pe::load_preset("gpt-neox-20b");
  EXPECT_EQ(neox.head_dim, 96);
  EXPECT_EQ(neox.rotary_dim(), 24);
  EXPECT_EQ(neox.max_position_embeddings, 2048);

  const auto code = pe::load_preset("code-llama-7b");
  EXPECT_EQ(code.theta, 1e6);
  EXPECT_EQ(code.max_position_embeddings, 16384);

  const auto llama = pe::load_preset("llama-3.1-8b");
  EXPECT_EQ(llama.theta, 500000.0);
  EXPECT_EQ(llama.scaling.type, pe::RopeType::Llama3);
  EXPECT_EQ(llama.scaling.factor, 8.0);
  EXPECT_EQ(llama.scaling.original_max_position_embeddings, 8192);
  EXPECT_EQ(llama.max_position_embeddings, 131072);

  const auto qwen = pe::load_preset("qwen2.5-7b-yarn");
  EXPECT_EQ(qwen.scaling.type, pe::RopeType::Yarn);
  EXPECT_EQ(qwen.scaling.factor, 4.0);
  EXPECT_EQ(qwen.scaling.original_max_position_embeddings, 32768);
  EXPECT_NEAR(pe::scaled_frequencies(qwen, 1).attention_factor, 0.1 * std::log(4.0) + 1.0, 1e-15);

  const auto phi = pe::load_preset("phi-3-mini-128k");
  EXPECT_EQ(phi.head_dim, 96);
  EXPECT_EQ(phi.scaling.type, pe::RopeType::LongRope);
  ASSERT_EQ(phi.scaling.short_factor.size(), 48u);
  ASSERT_EQ(phi.scaling.long_factor.size(), 48u);
  EXPECT_DOUBLE_EQ(phi.scaling.long_factor.front(), 1.0700000524520874);
  EXPECT_DOUBLE_EQ(phi.scaling.long_factor.back(), 64.76000213623047);
  EXPECT_DOUBLE_EQ(phi.scaling.short_factor.back(), 3.049999999999997);
  EXPECT_FALSE(pe::scaled_frequencies(phi, 4096).uses_long_factor);
  EXPECT_TRUE(pe::scaled_frequencies(phi, 4097).uses_long_factor);
  EXPECT_NEAR(pe::scaled_frequencies(phi, 1).attention_factor, 1.190238, 1e-6);  // as in the GGUF dump

  const auto ds = pe::load_preset("deepseek-v3");
  EXPECT_EQ(ds.head_dim, 64);
  EXPECT_EQ(ds.convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(ds.scaling.factor, 40.0);
  EXPECT_EQ(ds.scaling.original_max_position_embeddings, 4096);
  EXPECT_EQ(ds.max_position_embeddings, 163840);
  const auto dsr = pe::scaled_frequencies(ds, 1);
  EXPECT_DOUBLE_EQ(dsr.attention_factor, 1.0);
  EXPECT_NEAR(dsr.logit_scale, std::pow(0.1 * std::log(40.0) + 1.0, 2), 1e-14);

  const auto gemma = pe::load_preset("gemma-2-9b");
  EXPECT_EQ(gemma.head_dim, 256);  // explicit head_dim beats hidden_size / heads = 224
}

}  // namespace
