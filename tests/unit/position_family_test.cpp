// Every model read as what it is (issue 33): the family of each model type as transformers'
// modeling code decides it, its keys under its config class's own names, the class defaults,
// ALiBi slopes as each model computes them, and RoPE never assumed. The published config.json
// files of the presets are in tests/data/configs; the expected values are the numbers of those
// files and of the configuration classes' documented defaults, and the ALiBi slopes are
// re-derived here in double from the papers' / modeling files' formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/config_emit.hpp"
#include "pe/models/layer_plan.hpp"
#include "pe/weights/weights_error.hpp"
#include "pe/weights/weights_model.hpp"

namespace {

using pe::PositionEncodingFamily;
using F = pe::PositionEncodingFamily;

std::string published(const std::string& model) {
  const std::filesystem::path p = std::filesystem::path(PE_SOURCE_DIR) / "tests" / "data" / "configs" / (model + ".json");
  std::ifstream in(p);
  EXPECT_TRUE(in) << p;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

pe::PositionEncodingInfo family(const std::string& text) { return pe::parse_hf_config_diagnosed(text).encoding; }

std::string key_read(const pe::PositionEncodingInfo& e, const std::string& param) {
  for (const auto& [p, k] : e.keys)
    if (p == param) return k;
  return "(not read)";
}

// The ConfigError key a config is refused with, "(accepted)" when it loads.
std::string refusal(const std::string& text, std::string* message = nullptr) {
  try {
    (void)pe::parse_hf_config_diagnosed(text);
  } catch (const pe::ConfigError& e) {
    if (message) *message = e.what();
    return e.key();
  }
  return "(accepted)";
}

bool has_diagnostic(const pe::LoadedConfig& l, pe::Severity s, const std::string& key, const std::string& words) {
  for (const auto& d : l.diagnostics)
    if (d.severity == s && d.key == key && d.message.find(words) != std::string::npos) return true;
  return false;
}

// Press et al. / build_alibi_tensor, in double: 2^(−8k/p) for the closest power of two p ≤ n,
// then 2^(−8(2j−1)/(2p)) for the remaining heads.
std::vector<double> paper_slopes(long long n) {
  long long p = 1;
  while (p * 2 <= n) p *= 2;
  std::vector<double> s;
  for (long long k = 1; k <= p; ++k) s.push_back(std::pow(2.0, -8.0 * double(k) / double(p)));
  for (long long j = 1; j <= n - p; ++j) s.push_back(std::pow(2.0, -8.0 * double(2 * j - 1) / double(2 * p)));
  return s;
}

// build_mpt_alibi_tensor in double: P the power of two ≥ n, m_k = 2^(−k·8/P); when n < P the
// even-k slopes first (slopes[1::2]), then the odd-k ones, the first n kept.
std::vector<double> mpt_slopes(long long n) {
  long long P = 1;
  while (P < n) P *= 2;
  std::vector<double> s;
  if (P == n) {
    for (long long k = 1; k <= P; ++k) s.push_back(std::pow(2.0, -8.0 * double(k) / double(P)));
    return s;
  }
  for (long long k = 2; k <= P; k += 2) s.push_back(std::pow(2.0, -8.0 * double(k) / double(P)));
  for (long long k = 1; k <= P; k += 2) s.push_back(std::pow(2.0, -8.0 * double(k) / double(P)));
  s.resize(static_cast<std::size_t>(n));
  return s;
}

void expect_slopes(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  // The models compute in float32 (the BLOOM base is rounded before its powers): ~1e-7 apart.
  for (std::size_t h = 0; h < want.size(); ++h) EXPECT_NEAR(got[h] / want[h], 1.0, 1e-6) << "head " << h + 1;
}

// ---- The presets' published configs, read exactly.

TEST(PositionFamily, Gpt2IsALearnedTableOf1024PositionsByNEmbd) {
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(published("gpt2"));
  const pe::PositionEncodingInfo& e = l.encoding;
  EXPECT_EQ(e.family, F::LearnedAbsolute);
  EXPECT_FALSE(e.encoder_family);
  EXPECT_EQ(e.model_type, "gpt2");
  EXPECT_EQ(e.hidden_size, 768);
  EXPECT_EQ(key_read(e, "hidden_size"), "n_embd");
  EXPECT_EQ(e.num_attention_heads, 12);
  EXPECT_EQ(key_read(e, "num_attention_heads"), "n_head");
  EXPECT_EQ(e.num_hidden_layers, 12);
  EXPECT_EQ(key_read(e, "num_hidden_layers"), "n_layer");
  EXPECT_EQ(e.head_dim, 64);
  EXPECT_EQ(e.max_position_embeddings, 1024);
  EXPECT_EQ(key_read(e, "max_position_embeddings"), "n_positions");
  EXPECT_EQ(e.position_offset, 0);
  EXPECT_EQ(e.table_rows, 1024);
  EXPECT_EQ(e.positions, 1024);
  EXPECT_EQ(e.embedding_width, 768);
  EXPECT_TRUE(e.alibi_slopes.empty());
  EXPECT_FALSE(e.rotates());
  // The shape the weights readers use, from the same keys.
  const pe::InspectedConfig in = pe::inspect_hf_config(published("gpt2"), "gpt2");
  EXPECT_TRUE(in.valid);
  EXPECT_EQ(in.shape.hidden_size, 768);
  EXPECT_EQ(in.shape.num_hidden_layers, 12);
  EXPECT_EQ(in.shape.head_dim, 64);
  EXPECT_TRUE(in.plan.rows.empty());
}

TEST(PositionFamily, ARotaryEntryPointRefusesANonRotaryModel) {
  try {
    (void)pe::parse_hf_config(published("gpt2"), "gpt2");
    FAIL() << "GPT-2 was read as RoPE";
  } catch (const pe::NotRotaryError& e) {
    EXPECT_EQ(e.key(), "model_type");
    EXPECT_EQ(e.info().family, F::LearnedAbsolute);
    EXPECT_NE(std::string(e.what()).find("does not rotate"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("learned-absolute"), std::string::npos) << e.what();
  }
  // A BERT with relative keys is refused naming the key that decided it.
  std::string text = published("bert-base-uncased");
  text.replace(text.find("\"absolute\""), 10, "\"relative_key\"");
  try {
    (void)pe::parse_hf_config(text);
    FAIL();
  } catch (const pe::NotRotaryError& e) {
    EXPECT_EQ(e.key(), "position_embedding_type");
  }
}

TEST(PositionFamily, BertBaseIsLearnedAbsolute) {
  const pe::PositionEncodingInfo e = family(published("bert-base-uncased"));
  EXPECT_EQ(e.family, F::LearnedAbsolute);
  EXPECT_EQ(e.decided_by, "position_embedding_type");
  EXPECT_EQ(e.hidden_size, 768);
  EXPECT_EQ(e.num_attention_heads, 12);
  EXPECT_EQ(e.num_hidden_layers, 12);
  EXPECT_EQ(e.max_position_embeddings, 512);
  EXPECT_EQ(e.positions, 512);
  EXPECT_EQ(e.position_offset, 0);
}

TEST(PositionFamily, RobertaPositionsStartAfterThePaddingRow) {
  const pe::PositionEncodingInfo e = family(published("roberta-base"));
  EXPECT_EQ(e.family, F::LearnedAbsolute);
  EXPECT_EQ(e.max_position_embeddings, 514);  // as written: the table's rows
  EXPECT_EQ(e.position_offset, 2);            // pad_token_id 1 + 1
  EXPECT_EQ(e.table_rows, 514);
  EXPECT_EQ(e.positions, 512);
  EXPECT_EQ(key_read(e, "pad_token_id"), "pad_token_id");
  // Without pad_token_id RobertaConfig's default 1 applies.
  std::string text = published("roberta-base");
  text.replace(text.find("\"pad_token_id\": 1,"), 18, "");
  const pe::PositionEncodingInfo d = family(text);
  EXPECT_EQ(d.position_offset, 2);
  EXPECT_EQ(key_read(d, "pad_token_id"), "(class default)");
}

TEST(PositionFamily, OptAndBartKeepTwoOffsetRows) {
  const pe::PositionEncodingInfo e = family(published("opt-125m"));
  EXPECT_EQ(e.family, F::LearnedAbsolute);
  EXPECT_EQ(e.max_position_embeddings, 2048);
  EXPECT_EQ(e.position_offset, 2);
  EXPECT_EQ(e.table_rows, 2050);
  EXPECT_EQ(e.positions, 2048);
  EXPECT_EQ(e.hidden_size, 768);
  const pe::PositionEncodingInfo b = family(R"({"model_type": "bart", "d_model": 768, "encoder_attention_heads": 12,
      "encoder_layers": 6, "decoder_layers": 6, "max_position_embeddings": 1024})");
  EXPECT_EQ(b.family, F::LearnedAbsolute);
  ASSERT_TRUE(b.encoder_family);
  EXPECT_EQ(*b.encoder_family, F::LearnedAbsolute);
  EXPECT_EQ(b.position_offset, 2);
  EXPECT_EQ(b.table_rows, 1026);
  EXPECT_EQ(b.encoder_positions, 1024);
  EXPECT_EQ(b.num_decoder_layers, 6);
  EXPECT_EQ(family(R"({"model_type": "mbart"})").position_offset, 2);  // MBartConfig's defaults
  EXPECT_EQ(family(R"({"model_type": "mbart"})").positions, 1024);
}

TEST(PositionFamily, T5BaseIsABucketedBiasPerStackWithTheClassDefaultDistance) {
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(published("t5-base"));
  const pe::PositionEncodingInfo& e = l.encoding;
  EXPECT_EQ(e.family, F::T5RelativeBias);
  ASSERT_TRUE(e.encoder_family);
  EXPECT_EQ(*e.encoder_family, F::T5RelativeBias);
  EXPECT_EQ(e.hidden_size, 768);
  EXPECT_EQ(key_read(e, "hidden_size"), "d_model");
  EXPECT_EQ(e.head_dim, 64);
  EXPECT_EQ(key_read(e, "head_dim"), "d_kv");
  EXPECT_EQ(e.num_attention_heads, 12);
  EXPECT_EQ(key_read(e, "num_attention_heads"), "num_heads");
  EXPECT_EQ(e.num_hidden_layers, 12);
  EXPECT_EQ(e.num_decoder_layers, 12);  // num_decoder_layers absent: = num_layers
  EXPECT_EQ(e.relative_attention_num_buckets, 32);
  // The old t5-base file has no relative_attention_max_distance: T5Config's 128.
  EXPECT_EQ(e.relative_attention_max_distance, 128);
  EXPECT_EQ(key_read(e, "relative_attention_max_distance"), "(class default)");
  EXPECT_FALSE(e.bias_per_layer);
  // n_positions 512 is in the file but T5 has no position limit.
  EXPECT_EQ(e.max_position_embeddings, 0);
  EXPECT_EQ(e.positions, 0);
  EXPECT_TRUE(has_diagnostic(l, pe::Severity::Info, "n_positions", "not read"));
  EXPECT_NE(e.shared.find("one bias table per stack"), std::string::npos);
}

TEST(PositionFamily, FlanT5XxlAndUmt5) {
  const pe::PositionEncodingInfo e = family(published("flan-t5-xxl"));
  EXPECT_EQ(e.family, F::T5RelativeBias);
  EXPECT_EQ(e.hidden_size, 4096);
  EXPECT_EQ(e.num_attention_heads, 64);
  EXPECT_EQ(e.head_dim, 64);
  EXPECT_EQ(e.num_hidden_layers, 24);
  EXPECT_EQ(e.num_decoder_layers, 24);
  EXPECT_EQ(e.relative_attention_num_buckets, 32);
  EXPECT_EQ(e.relative_attention_max_distance, 128);
  EXPECT_EQ(key_read(e, "relative_attention_max_distance"), "relative_attention_max_distance");
  const pe::PositionEncodingInfo u = family(R"({"model_type": "umt5", "d_model": 4096, "num_heads": 64, "num_layers": 24})");
  EXPECT_EQ(u.family, F::T5RelativeBias);
  EXPECT_TRUE(u.bias_per_layer);
  EXPECT_NE(u.shared.find("per layer"), std::string::npos);
  for (const char* t : {"mt5", "longt5", "switch_transformers"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(family(std::string(R"({"model_type": ")") + t + "\"}").family, F::T5RelativeBias);
  }
}

TEST(PositionFamily, DebertaV3BaseIsDisentangledRelativeWithLogBuckets) {
  const pe::PositionEncodingInfo e = family(published("deberta-v3-base"));
  EXPECT_EQ(e.family, F::DebertaRelative);
  EXPECT_EQ(e.decided_by, "relative_attention");
  EXPECT_EQ(e.position_buckets, 256);
  EXPECT_EQ(e.max_relative_positions, 512);  // −1 → max_position_embeddings
  EXPECT_FALSE(e.position_biased_input);
  EXPECT_EQ(e.pos_att_type, (std::vector<std::string>{"p2c", "c2p"}));
  EXPECT_EQ(e.hidden_size, 768);
  EXPECT_EQ(e.num_attention_heads, 12);
  // The same file re-saved by a newer transformers writes pos_att_type as a list.
  std::string resaved = published("deberta-v3-base");
  resaved.replace(resaved.find("\"p2c|c2p\""), 9, "[\"p2c\", \"c2p\"]");
  EXPECT_EQ(family(resaved).pos_att_type, (std::vector<std::string>{"p2c", "c2p"}));
  // DeBERTa (v1) base: relative, absolute positions not added; no buckets.
  const pe::PositionEncodingInfo v1 = family(R"({"model_type": "deberta", "relative_attention": true,
      "position_biased_input": false, "pos_att_type": "c2p|p2c", "max_relative_positions": -1})");
  EXPECT_EQ(v1.family, F::DebertaRelative);
  EXPECT_EQ(v1.position_buckets, 0);
  EXPECT_EQ(v1.max_relative_positions, 512);
  // DebertaConfig's defaults: relative_attention false, position_biased_input true → a learned table.
  EXPECT_EQ(family(R"({"model_type": "deberta"})").family, F::LearnedAbsolute);
  EXPECT_EQ(family(R"({"model_type": "deberta-v2", "position_biased_input": false})").family, F::None);
}

TEST(PositionFamily, Bloom560mSlopesAsBuildAlibiTensor) {
  const pe::PositionEncodingInfo e = family(published("bloom-560m"));
  EXPECT_EQ(e.family, F::Alibi);
  EXPECT_EQ(e.num_attention_heads, 16);
  EXPECT_EQ(key_read(e, "num_attention_heads"), "n_head");
  EXPECT_EQ(e.hidden_size, 1024);
  EXPECT_EQ(e.num_hidden_layers, 24);
  EXPECT_EQ(e.head_dim, 64);
  EXPECT_EQ(e.alibi_rule, "build_alibi_tensor");
  EXPECT_EQ(e.max_position_embeddings, 0);
  expect_slopes(e.alibi_slopes, paper_slopes(16));
  // The float32 base 0.70710677 makes head 2's slope 0x1.fffffep-2, not 0.5 (transformers'
  // build_alibi_tensor run in torch 1.13 gives these bits).
  EXPECT_EQ(e.alibi_slopes[1], std::ldexp(0x1.fffffep0, -2));
  EXPECT_EQ(e.alibi_slopes[0], std::ldexp(0x1.6a09e6p0, -1));
  // BLOOM 176B's spelling: n_embed and num_attention_heads (both accepted by BloomConfig).
  const pe::PositionEncodingInfo big = family(R"({"model_type": "bloom", "n_embed": 14336, "num_attention_heads": 112,
      "n_layer": 70})");
  EXPECT_EQ(big.hidden_size, 14336);
  EXPECT_EQ(key_read(big, "hidden_size"), "n_embed");
  expect_slopes(big.alibi_slopes, paper_slopes(112));
}

TEST(PositionFamily, AlibiSlopesForHeadsNotAPowerOfTwo) {
  for (long long n : {1LL, 3LL, 12LL, 71LL, 112LL}) {
    SCOPED_TRACE(n);
    expect_slopes(pe::bloom_alibi_slopes(n), paper_slopes(n));
    expect_slopes(pe::mpt_alibi_slopes(n, 8.0), mpt_slopes(n));
  }
  // 12 heads worked by hand: BLOOM 2^-1 … 2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5;
  // MPT (P = 16) 2^-1, 2^-2, … 2^-8 (the even k), then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
  const std::vector<double> bloom = pe::bloom_alibi_slopes(12), mpt = pe::mpt_alibi_slopes(12);
  EXPECT_EQ(bloom[0], 0.5);
  EXPECT_EQ(bloom[7], 1.0 / 256.0);
  EXPECT_NEAR(bloom[8], std::sqrt(0.5), 1e-7);
  EXPECT_NEAR(mpt[0], 0.5, 1e-7);
  EXPECT_NEAR(mpt[8], std::sqrt(0.5), 1e-7);
  EXPECT_NEAR(mpt[11], std::pow(2.0, -3.5), 1e-8);
}

TEST(PositionFamily, Mpt7bIsAlibiWithItsOwnSlopeRule) {
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(published("mpt-7b"));
  const pe::PositionEncodingInfo& e = l.encoding;
  EXPECT_EQ(e.family, F::Alibi);
  EXPECT_EQ(e.hidden_size, 4096);
  EXPECT_EQ(key_read(e, "hidden_size"), "d_model");
  EXPECT_EQ(e.num_attention_heads, 32);
  EXPECT_EQ(e.num_hidden_layers, 32);
  EXPECT_EQ(e.max_position_embeddings, 2048);
  EXPECT_EQ(key_read(e, "max_position_embeddings"), "max_seq_len");
  EXPECT_EQ(e.alibi_rule, "build_mpt_alibi_tensor");
  EXPECT_EQ(e.alibi_bias_max, 8.0);
  expect_slopes(e.alibi_slopes, mpt_slopes(32));
  for (std::size_t h = 0; h < 32; ++h) EXPECT_NEAR(e.alibi_slopes[h], std::pow(2.0, -double(h + 1) / 4.0), 1e-7);
  // transformers' MptModel adds ALiBi whatever attn_config says; a false flag is a warning.
  std::string off = published("mpt-7b");
  off.replace(off.find("\"alibi\": true"), 13, "\"alibi\": false");
  const pe::LoadedConfig lo = pe::parse_hf_config_diagnosed(off);
  EXPECT_EQ(lo.encoding.family, F::Alibi);
  EXPECT_TRUE(has_diagnostic(lo, pe::Severity::Warning, "attn_config.alibi", "regardless"));
}

TEST(PositionFamily, WhisperSmallHasASinusoidalEncoderAndALearnedDecoder) {
  const pe::PositionEncodingInfo e = family(published("whisper-small"));
  EXPECT_EQ(e.family, F::LearnedAbsolute);
  ASSERT_TRUE(e.encoder_family);
  EXPECT_EQ(*e.encoder_family, F::Sinusoidal);
  EXPECT_EQ(e.max_position_embeddings, 448);
  EXPECT_EQ(key_read(e, "max_position_embeddings"), "max_target_positions");
  EXPECT_EQ(e.encoder_max_position_embeddings, 1500);
  EXPECT_EQ(e.encoder_positions, 1500);
  EXPECT_EQ(key_read(e, "encoder_max_position_embeddings"), "max_source_positions");
  EXPECT_EQ(e.hidden_size, 768);
  EXPECT_EQ(e.num_attention_heads, 12);
  EXPECT_EQ(key_read(e, "num_attention_heads"), "encoder_attention_heads");
  EXPECT_EQ(e.num_hidden_layers, 12);
  EXPECT_EQ(e.num_decoder_layers, 12);
}

// ---- One config per family (written here).

TEST(PositionFamily, OneConfigPerFamily) {
  struct Case {
    const char* json;
    F family;
  };
  const Case cases[] = {
      {R"({"model_type": "llama", "rope_theta": 500000.0, "hidden_size": 4096, "num_attention_heads": 32})", F::Rope},
      {R"({"model_type": "gpt_neo", "hidden_size": 768, "num_heads": 12, "num_layers": 12})", F::LearnedAbsolute},
      {R"({"model_type": "marian", "d_model": 512, "encoder_attention_heads": 8, "max_position_embeddings": 512})",
       F::Sinusoidal},
      {R"({"model_type": "distilbert", "sinusoidal_pos_embds": true})", F::Sinusoidal},
      {R"({"model_type": "falcon", "alibi": true, "hidden_size": 2048, "n_head": 32, "n_layer": 24})", F::Alibi},
      {R"({"model_type": "t5", "d_model": 512, "num_heads": 8})", F::T5RelativeBias},
      {R"({"model_type": "deberta-v2", "relative_attention": true, "position_buckets": 256})", F::DebertaRelative},
      {R"({"model_type": "bert", "position_embedding_type": "relative_key"})", F::RelativeKey},
      {R"({"model_type": "electra", "position_embedding_type": "relative_key_query"})", F::RelativeKeyQuery},
      {R"({"model_type": "xlnet", "d_model": 1024, "n_head": 16, "n_layer": 24})", F::TransformerXl},
      {R"({"model_type": "transfo-xl"})", F::TransformerXl},
      {R"({"model_type": "deberta", "relative_attention": false, "position_biased_input": false})", F::None},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    EXPECT_EQ(family(c.json).family, c.family);
  }
  // The names are the JSON values of "position_encoding".
  for (F f : pe::all_position_encoding_families()) EXPECT_EQ(pe::position_encoding_family_from_string(pe::to_string(f)), f);
  EXPECT_STREQ(pe::to_string(F::T5RelativeBias), "t5-relative-bias");
}

TEST(PositionFamily, RelativeKeysClipAtMaxPositionEmbeddings) {
  const pe::PositionEncodingInfo e = family(R"({"model_type": "bert", "hidden_size": 768, "num_attention_heads": 12,
      "max_position_embeddings": 512, "position_embedding_type": "relative_key_query"})");
  EXPECT_EQ(e.family, F::RelativeKeyQuery);
  EXPECT_EQ(e.max_position_embeddings, 512);
  EXPECT_EQ(e.table_rows, 1023);  // distance_embedding: 2 · 512 − 1 rows
  EXPECT_EQ(e.embedding_width, 64);
  // RoBERTa copies BERT's attention, relative keys included.
  EXPECT_EQ(family(R"({"model_type": "roberta", "position_embedding_type": "relative_key"})").family, F::RelativeKey);
}

TEST(PositionFamily, VisionTowersHaveOneRowPerPatch) {
  const pe::PositionEncodingInfo vit = family(R"({"model_type": "vit", "image_size": 224, "patch_size": 16})");
  EXPECT_EQ(vit.family, F::LearnedAbsolute);
  EXPECT_EQ(vit.num_patches, 196);
  EXPECT_TRUE(vit.class_token);
  EXPECT_EQ(vit.positions, 197);
  const pe::PositionEncodingInfo clip = family(R"({"model_type": "clip_vision_model", "image_size": 336, "patch_size": 14})");
  EXPECT_EQ(clip.num_patches, 576);
  EXPECT_EQ(clip.positions, 577);
  const pe::PositionEncodingInfo siglip = family(R"({"model_type": "siglip_vision_model", "image_size": 384, "patch_size": 14})");
  EXPECT_EQ(siglip.num_patches, 729);
  EXPECT_FALSE(siglip.class_token);
  EXPECT_EQ(siglip.positions, 729);
  // CLIPVisionConfig's own defaults: 224 / 32 → 49 patches + the class token.
  EXPECT_EQ(family(R"({"model_type": "clip_vision_model"})").positions, 50);
  // A CLIP wrapper reads its text tower: 77 learned positions.
  EXPECT_EQ(family(R"({"model_type": "clip", "text_config": {"model_type": "clip_text_model",
      "max_position_embeddings": 77, "hidden_size": 768, "num_attention_heads": 12}})").positions, 77);
}

TEST(PositionFamily, RotaryModelsKeepTheirRopeAndReadTheirClassNames) {
  // GPT-J and CodeGen give n_embd / n_head: head_dim 4096 / 16 = 256, rotary_dim 64 of it.
  const pe::RopeConfig gptj = pe::parse_hf_config(R"({"model_type": "gptj", "n_embd": 4096, "n_head": 16,
      "rotary_dim": 64, "n_positions": 2048})");
  EXPECT_EQ(gptj.head_dim, 256);
  EXPECT_EQ(gptj.rotary_dim(), 64);
  EXPECT_EQ(gptj.convention, pe::PairConvention::Interleaved);
  const pe::RopeConfig codegen = pe::parse_hf_config(R"({"model_type": "codegen", "n_embd": 1024, "n_head": 16,
      "rotary_dim": 32, "n_positions": 2048})");
  EXPECT_EQ(codegen.head_dim, 64);
  EXPECT_EQ(codegen.rotary_dim(), 32);
  EXPECT_EQ(codegen.convention, pe::PairConvention::Interleaved);
  // Falcon without alibi rotates (FalconConfig.rotary = not alibi) with its class defaults.
  const pe::LoadedConfig falcon = pe::parse_hf_config_diagnosed(R"({"model_type": "falcon", "alibi": false,
      "hidden_size": 4544, "num_attention_heads": 71})");
  EXPECT_TRUE(falcon.encoding.rotates());
  EXPECT_EQ(falcon.config.head_dim, 64);
  EXPECT_EQ(falcon.config.max_position_embeddings, 2048);
  // A RoPE model's descriptor carries its sizes.
  const pe::LoadedConfig llama = pe::load_preset_diagnosed("llama-3.1-8b");
  EXPECT_EQ(llama.encoding.family, F::Rope);
  EXPECT_EQ(llama.encoding.head_dim, 128);
  EXPECT_EQ(llama.encoding.max_position_embeddings, 131072);
  EXPECT_TRUE(llama.encoding.alibi_slopes.empty());
}

TEST(PositionFamily, AFalconRopeThetaBesideAlibiIsAWarningNotAnError) {
  // FalconConfig writes rope_theta whether or not it rotates; transformers uses ALiBi.
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(R"({"model_type": "falcon", "alibi": true,
      "rope_theta": 10000.0, "hidden_size": 2048, "num_attention_heads": 32, "num_hidden_layers": 24})");
  EXPECT_EQ(l.encoding.family, F::Alibi);
  EXPECT_TRUE(has_diagnostic(l, pe::Severity::Warning, "rope_theta", "not used"));
  expect_slopes(l.encoding.alibi_slopes, paper_slopes(32));
}

TEST(PositionFamily, NoOtherEntryPointTreatsItAsRope) {
  EXPECT_THROW((void)pe::emit_config(published("gpt2"), pe::ConfigShape::V5, "gpt2"), pe::NotRotaryError);
  EXPECT_THROW((void)pe::layer_plan(published("bloom-560m")), pe::NotRotaryError);
  // The frequency-usage reader measures rotary pairs: it refuses, naming the family.
  const pe::InspectedConfig t5 = pe::inspect_hf_config(published("t5-base"), "t5-base");
  try {
    (void)pe::hf_weights_model(t5, pe::hf_checkpoint_layout(published("t5-base")));
    FAIL() << "T5 was measured as RoPE";
  } catch (const pe::WeightsError& e) {
    EXPECT_NE(std::string(e.what()).find("t5-relative-bias"), std::string::npos) << e.what();
  }
  // A source read elsewhere keeps its family through the inspector.
  const pe::InspectedConfig again = pe::inspect_loaded(pe::load_preset_diagnosed("whisper-small"), "preset:whisper-small");
  EXPECT_TRUE(again.valid);
  EXPECT_EQ(again.loaded.encoding.encoder_family, F::Sinusoidal);
  EXPECT_TRUE(again.plan.rows.empty());
}

// ---- Bad input: messages name the key.

TEST(PositionFamily, AnUnknownModelTypeWithoutRotaryKeysIsNotRecognised) {
  std::string msg;
  EXPECT_EQ(refusal(R"({"model_type": "my_transformer", "hidden_size": 512, "num_attention_heads": 8})", &msg),
            "model_type");
  EXPECT_NE(msg.find("no positional encoding recognised"), std::string::npos) << msg;
  for (const char* k : {"rope_theta", "rope_scaling", "rotary_dim", "position_embedding_type", "alibi", "gpt2", "llama"})
    EXPECT_NE(msg.find(k), std::string::npos) << k << " missing from: " << msg;
  // With a rotary key it is read as RoPE (as before).
  EXPECT_EQ(family(R"({"model_type": "my_transformer", "rope_theta": 10000.0, "head_dim": 64,
      "max_position_embeddings": 128})").family, F::Rope);
  // A text_config's model_type is the one that counts.
  EXPECT_EQ(refusal(R"({"model_type": "wrapper", "text_config": {"model_type": "mystery"}})"), "text_config.model_type");
}

TEST(PositionFamily, AlibiAndRotaryAtOnceIsRefusedNamingTheKey) {
  std::string msg;
  EXPECT_EQ(refusal(R"({"model_type": "falcon", "alibi": true, "rope_scaling": {"type": "linear", "factor": 2.0}})", &msg),
            "alibi");
  EXPECT_NE(msg.find("rope_scaling"), std::string::npos) << msg;
  EXPECT_EQ(refusal(R"({"model_type": "falcon", "alibi": true, "rotary_dim": 32})"), "alibi");
  EXPECT_EQ(refusal(R"({"model_type": "mpt", "attn_config": {"alibi": true, "rope": true}})"), "attn_config.alibi");
  EXPECT_EQ(refusal(R"({"model_type": "llama", "alibi": true, "partial_rotary_factor": 0.5})"), "alibi");
}

TEST(PositionFamily, BadValuesNameTheirKeys) {
  EXPECT_EQ(refusal(R"({"model_type": "gpt2", "n_embd": "768"})"), "n_embd");
  EXPECT_EQ(refusal(R"({"model_type": "gpt2", "n_positions": 0})"), "n_positions");
  EXPECT_EQ(refusal(R"({"model_type": "gpt2", "n_embd": 770, "n_head": 12})"), "n_embd");
  EXPECT_EQ(refusal(R"({"model_type": "bert", "position_embedding_type": "rotary_fancy"})"), "position_embedding_type");
  EXPECT_EQ(refusal(R"({"model_type": "t5", "relative_attention_num_buckets": 2})"), "relative_attention_num_buckets");
  std::string msg;
  EXPECT_EQ(refusal(R"({"model_type": "t5", "relative_attention_num_buckets": 32, "relative_attention_max_distance": 16})",
                    &msg),
            "relative_attention_max_distance");
  EXPECT_NE(msg.find("16"), std::string::npos) << msg;
  EXPECT_EQ(refusal(R"({"model_type": "roberta", "max_position_embeddings": 2, "pad_token_id": 1})"),
            "max_position_embeddings");
  EXPECT_EQ(refusal(R"({"model_type": "deberta-v2", "relative_attention": true, "position_buckets": 1})"),
            "position_buckets");
  EXPECT_EQ(refusal(R"({"model_type": "deberta-v2", "relative_attention": true, "position_buckets": 1024})"),
            "position_buckets");
  EXPECT_EQ(refusal(R"({"model_type": "deberta-v2", "relative_attention": true, "pos_att_type": "c2p|x2y"})"),
            "pos_att_type[1]");
  EXPECT_EQ(refusal(R"({"model_type": "distilbert", "sinusoidal_pos_embds": "yes"})"), "sinusoidal_pos_embds");
  EXPECT_EQ(refusal(R"({"model_type": "mpt", "attn_config": 3})"), "attn_config");
  EXPECT_EQ(refusal(R"({"model_type": "vit", "image_size": 16, "patch_size": 32})"), "patch_size");
  EXPECT_EQ(refusal(R"({"model_type": "bloom", "n_head": 0})"), "n_head");
}

// ---- Presets.

TEST(PositionFamily, ThePresetsReadTheirPublishedConfigs) {
  const struct {
    const char* preset;
    const char* file;
    F family;
  } presets[] = {{"gpt2", "gpt2", F::LearnedAbsolute},
                 {"bert-base-uncased", "bert-base-uncased", F::LearnedAbsolute},
                 {"roberta-base", "roberta-base", F::LearnedAbsolute},
                 {"t5-base", "t5-base", F::T5RelativeBias},
                 {"flan-t5-xxl", "flan-t5-xxl", F::T5RelativeBias},
                 {"deberta-v3-base", "deberta-v3-base", F::DebertaRelative},
                 {"bloom-560m", "bloom-560m", F::Alibi},
                 {"mpt-7b", "mpt-7b", F::Alibi},
                 {"opt-125m", "opt-125m", F::LearnedAbsolute},
                 {"whisper-small", "whisper-small", F::LearnedAbsolute}};
  const auto all = pe::list_presets(pe::PresetKinds::All);
  const auto rotary = pe::list_presets();
  for (const auto& p : presets) {
    SCOPED_TRACE(p.preset);
    const pe::LoadedConfig preset = pe::load_preset_diagnosed(p.preset);
    const pe::PositionEncodingInfo file = family(published(p.file));
    EXPECT_EQ(preset.encoding.family, p.family);
    EXPECT_EQ(preset.encoding.family, file.family);
    EXPECT_EQ(preset.encoding.hidden_size, file.hidden_size);
    EXPECT_EQ(preset.encoding.num_attention_heads, file.num_attention_heads);
    EXPECT_EQ(preset.encoding.num_hidden_layers, file.num_hidden_layers);
    EXPECT_EQ(preset.encoding.max_position_embeddings, file.max_position_embeddings);
    EXPECT_EQ(preset.encoding.positions, file.positions);
    EXPECT_EQ(preset.encoding.position_offset, file.position_offset);
    EXPECT_EQ(preset.encoding.relative_attention_num_buckets, file.relative_attention_num_buckets);
    EXPECT_EQ(preset.encoding.relative_attention_max_distance, file.relative_attention_max_distance);
    EXPECT_EQ(preset.encoding.position_buckets, file.position_buckets);
    EXPECT_EQ(preset.encoding.alibi_slopes, file.alibi_slopes);
    EXPECT_EQ(preset.config.name, p.preset);
    EXPECT_FALSE(preset.config.source.empty());
    EXPECT_THROW((void)pe::load_preset(p.preset), pe::NotRotaryError);
    bool listed = false;
    for (const auto& i : all) listed = listed || (i.key == p.preset && i.family == p.family);
    EXPECT_TRUE(listed);
    for (const auto& i : rotary) EXPECT_NE(i.key, p.preset) << "a RoPE list offers a model that does not rotate";
  }
}

}  // namespace

namespace {

TEST(PositionFamily, WhatEachLayerHolds) {
  using R = pe::LayerPositionRole;
  const auto t5 = pe::position_layer_roles(family(published("t5-base")));
  ASSERT_EQ(t5.size(), 2u);
  EXPECT_EQ(t5[0].stack, "encoder");
  EXPECT_EQ(t5[1].stack, "decoder");
  for (const auto& s : t5) {
    ASSERT_EQ(s.layers.size(), 12u);
    EXPECT_EQ(s.layers[0], R::OwnsTable);  // block 0's relative_attention_bias
    for (std::size_t i = 1; i < 12; ++i) EXPECT_EQ(s.layers[i], R::SharesTable) << i;
  }
  const auto umt5 = pe::position_layer_roles(family(R"({"model_type": "umt5", "num_layers": 8})"));
  for (const auto& s : umt5)
    for (R r : s.layers) EXPECT_EQ(r, R::OwnsTable);
  const auto gpt2 = pe::position_layer_roles(family(published("gpt2")));
  ASSERT_EQ(gpt2.size(), 1u);
  EXPECT_EQ(gpt2[0].input, "learned table");
  EXPECT_EQ(gpt2[0].layers, std::vector<R>(12, R::NoPositions));
  const auto whisper = pe::position_layer_roles(family(published("whisper-small")));
  ASSERT_EQ(whisper.size(), 2u);
  EXPECT_EQ(whisper[0].input, "fixed sinusoidal table");
  EXPECT_EQ(whisper[1].input, "learned table");
  EXPECT_EQ(pe::position_layer_roles(family(published("bloom-560m")))[0].layers, std::vector<R>(24, R::SameBias));
  EXPECT_TRUE(pe::position_layer_roles(pe::load_preset_diagnosed("llama-3.1-8b").encoding).empty());
}

}  // namespace
