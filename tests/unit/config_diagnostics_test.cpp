// What the config reader says beyond the numbers: published configs that transformers
// accepts (sparse Gemma 3, Llama 4's low == high bands, Qwen2.5-VL's "mrope") are accepted
// with the defaults named; every seeded mistake is named with its key; no bundled preset
// draws a warning.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/base/errors.hpp"

namespace {

using pe::Severity;

// The first diagnostic of `severity` whose key is `key` and whose message contains `part`.
const pe::Diagnostic* find_diag(const std::vector<pe::Diagnostic>& ds, Severity severity, const std::string& key,
                                const std::string& part = "") {
  for (const auto& d : ds)
    if (d.severity == severity && d.key == key && d.message.find(part) != std::string::npos) return &d;
  return nullptr;
}

std::string dump(const std::vector<pe::Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) s += std::string(pe::to_string(d.severity)) + " " + d.key + ": " + d.message + "\n";
  return s;
}

int count(const std::vector<pe::Diagnostic>& ds, Severity s) {
  return static_cast<int>(std::count_if(ds.begin(), ds.end(), [&](const pe::Diagnostic& d) { return d.severity == s; }));
}

// google/gemma-3-27b-it config.json's text_config as published (vision_config left out).
const char* kGemma3 = R"({
  "architectures": ["Gemma3ForConditionalGeneration"],
  "model_type": "gemma3",
  "text_config": {
    "head_dim": 128, "hidden_size": 5376, "intermediate_size": 21504, "model_type": "gemma3_text",
    "num_attention_heads": 32, "num_hidden_layers": 62, "num_key_value_heads": 16,
    "query_pre_attn_scalar": 168, "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
    "sliding_window": 1024
  },
  "torch_dtype": "bfloat16"
})";

TEST(ConfigDiagnostics, Gemma3PublishedConfigTakesTheClassDefaults) {
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(kGemma3, "gemma-3-27b-it");
  EXPECT_EQ(l.config.head_dim, 128);
  EXPECT_EQ(l.config.theta, 1e6);  // Gemma3TextConfig.default_theta["global"]
  EXPECT_EQ(l.config.max_position_embeddings, 131072);
  EXPECT_EQ(l.config.scaling.type, pe::RopeType::Linear);
  EXPECT_EQ(l.config.scaling.factor, 8.0);
  EXPECT_EQ(l.config.convention, pe::PairConvention::HalfSplit);
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "text_config.rope_theta", "1000000")) << dump(l.diagnostics);
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "text_config.rope_theta", "Gemma3TextConfig"));
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "text_config.max_position_embeddings", "131072"));
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "text_config.rope_local_base_freq", "10000"));
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "text_config", "nested"));
  EXPECT_EQ(count(l.diagnostics, Severity::Warning), 0) << dump(l.diagnostics);
  // The old behaviour was "head_dim: missing": parse_hf_config accepts it too.
  EXPECT_NO_THROW(pe::parse_hf_config(kGemma3));
}

TEST(ConfigDiagnostics, Llama4ScoutEqualBandFactorsAcceptedAsTransformersDoes) {
  const char* scout = R"({"model_type": "llama4", "text_config": {"model_type": "llama4_text", "head_dim": 128,
      "hidden_size": 5120, "num_attention_heads": 40, "num_hidden_layers": 48, "max_position_embeddings": 10485760,
      "no_rope_layers": [], "rope_theta": 500000.0,
      "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
                       "original_max_position_embeddings": 8192, "rope_type": "llama3"}}})";
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(scout);
  EXPECT_EQ(l.config.convention, pe::PairConvention::Interleaved);  // complex multiplication in modeling_llama4.py
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "text_config.rope_scaling.high_freq_factor", "no blended band"))
      << dump(l.diagnostics);
  EXPECT_EQ(count(l.diagnostics, Severity::Warning), 0) << dump(l.diagnostics);
  // Below L_orig: θ_i; above: θ_i / 16 — no blend.
  const auto r = pe::scaled_frequencies(l.config, 8192);
  for (Eigen::Index i = 0; i < r.inv_freq.size(); ++i) {
    const double wavelen = 2 * M_PI / r.original_inv_freq[i];
    const double want = wavelen > 8192 ? r.original_inv_freq[i] / 16 : r.original_inv_freq[i];
    EXPECT_DOUBLE_EQ(r.inv_freq[i], want) << i;
  }
}

TEST(ConfigDiagnostics, Qwen25VlMropeIsNotSilent) {
  const char* qwen_vl = R"({"model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28,
      "max_position_embeddings": 128000, "rope_theta": 1000000.0,
      "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})";
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(qwen_vl);
  EXPECT_EQ(l.config.scaling.type, pe::RopeType::Default);
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "rope_scaling.type", "multimodal")) << dump(l.diagnostics);
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "rope_scaling.mrope_section", "[16,24,24]")) << dump(l.diagnostics);
  EXPECT_EQ(count(l.diagnostics, Severity::Warning), 0) << dump(l.diagnostics);
}

// One mistake per config; each is named with its key.
TEST(ConfigDiagnostics, SeededMistakesAreNamed) {
  struct Case {
    const char* json;
    Severity severity;
    const char* key;
    const char* part;
  };
  const Case cases[] = {
      // vLLM's key where transformers reads attention_factor.
      {R"({"head_dim": 64, "max_position_embeddings": 16384, "rope_scaling": {"type": "yarn", "factor": 4.0,
          "attn_factor": 0.8, "original_max_position_embeddings": 4096}})",
       Severity::Warning, "rope_scaling.attn_factor", "attention_factor"},
      // A misspelt top-level key.
      {R"({"head_dim": 64, "max_position_embeddings": 4096, "rope_scalling": {"type": "linear", "factor": 2.0}})",
       Severity::Warning, "rope_scalling", "did you mean \"rope_scaling\""},
      {R"({"head_dim": 64, "max_position_embeddings": 4096, "rope_thetta": 500000})", Severity::Warning, "rope_thetta",
       "rope_theta"},
      // A misspelt key inside the block.
      {R"({"head_dim": 64, "max_position_embeddings": 16384, "rope_scaling": {"type": "yarn", "factor": 4.0,
          "beta_fsat": 16, "original_max_position_embeddings": 4096}})",
       Severity::Warning, "rope_scaling.beta_fsat", "beta_fast"},
      // A key the rope type does not read.
      {R"({"head_dim": 64, "max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 2.0,
          "beta_fast": 32}})",
       Severity::Warning, "rope_scaling.beta_fast", "not used by rope_type \"linear\""},
      // YaRN factor contradicting max / original (transformers #38224 / #40320).
      {R"({"head_dim": 128, "max_position_embeddings": 40960, "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
          "original_max_position_embeddings": 32768}})",
       Severity::Warning, "rope_scaling.factor", "1.25"},
      // Partial rotary giving an odd dimension: 80 · 0.3125 = 25.
      {R"({"head_dim": 80, "max_position_embeddings": 2048, "partial_rotary_factor": 0.3125})", Severity::Warning,
       "partial_rotary_factor", "odd"},
      // ... and a non-integral one: 96 · 0.3 = 28.8.
      {R"({"head_dim": 96, "max_position_embeddings": 2048, "partial_rotary_factor": 0.3})", Severity::Warning,
       "partial_rotary_factor", "not an integer"},
      // llama3 with equal band factors (transformers warns, computes).
      {R"({"head_dim": 128, "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0,
          "low_freq_factor": 2.0, "high_freq_factor": 2.0, "original_max_position_embeddings": 8192}})",
       Severity::Info, "rope_scaling.high_freq_factor", "high_freq_factor must be greater than low_freq_factor"},
      // llama3 with inverted band factors.
      {R"({"head_dim": 128, "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0,
          "low_freq_factor": 4.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}})",
       Severity::Warning, "rope_scaling.high_freq_factor", "below low_freq_factor"},
      // llama3 without its original length (transformers v5 fills max_position_embeddings and warns).
      {R"({"head_dim": 128, "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0,
          "low_freq_factor": 1.0, "high_freq_factor": 4.0}})",
       Severity::Warning, "rope_scaling.original_max_position_embeddings", "131072"},
      // Dynamic NTK given an original length transformers does not read.
      {R"({"head_dim": 128, "max_position_embeddings": 4096, "rope_scaling": {"type": "dynamic", "factor": 2.0,
          "original_max_position_embeddings": 2048}})",
       Severity::Warning, "rope_scaling.original_max_position_embeddings", "max_position_embeddings"},
      // rope_scaling and rope_parameters both given, different.
      {R"({"head_dim": 64, "max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 2.0},
          "rope_parameters": {"rope_type": "linear", "factor": 4.0}})",
       Severity::Warning, "rope_parameters", "rope_scaling"},
      // A class default head_dim that disagrees with hidden_size / heads.
      {R"({"model_type": "gemma3_text", "hidden_size": 5376, "num_attention_heads": 32})", Severity::Warning,
       "head_dim", "168"},
      // hidden_size / heads not integral.
      {R"({"hidden_size": 1000, "num_attention_heads": 12, "max_position_embeddings": 2048})", Severity::Warning,
       "hidden_size", "floors"},
      // mscale without mscale_all_dim: transformers ignores it.
      {R"({"head_dim": 64, "max_position_embeddings": 163840, "rope_scaling": {"type": "yarn", "factor": 40,
          "mscale": 0.707, "original_max_position_embeddings": 4096}})",
       Severity::Warning, "rope_scaling.mscale", "partner"},
      // Top level outside the nested text block.
      {R"({"model_type": "gemma3", "rope_theta": 10000, "text_config": {"model_type": "gemma3_text", "head_dim": 128}})",
       Severity::Warning, "rope_theta", "not read"},
      // An unknown key with no near neighbour.
      {R"({"head_dim": 64, "max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 2.0,
          "wobble": 3}})",
       Severity::Warning, "rope_scaling.wobble", "unknown key"},
      // "ntk" is not a transformers type.
      {R"({"head_dim": 64, "max_position_embeddings": 4096, "rope_scaling": {"type": "ntk", "factor": 2.0}})",
       Severity::Warning, "rope_scaling.type", "not a transformers rope type"},
      // Phi-3 style: top-level original differs from the block's.
      {R"({"head_dim": 8, "max_position_embeddings": 8192, "original_max_position_embeddings": 4096,
          "rope_scaling": {"type": "longrope", "short_factor": [1, 1, 1, 1], "long_factor": [2, 2, 2, 2],
                           "original_max_position_embeddings": 2048}})",
       Severity::Warning, "original_max_position_embeddings", "priority"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.json);
    const pe::InspectedConfig in = pe::inspect_hf_config(c.json);
    EXPECT_TRUE(find_diag(in.loaded.diagnostics, c.severity, c.key, c.part)) << dump(in.loaded.diagnostics);
  }
}

TEST(ConfigDiagnostics, ErrorsAreDiagnosticsInTheInspector) {
  // beta_fast below beta_slow: transformers warns and inverts the ramp; pe-viz refuses.
  const pe::InspectedConfig in = pe::inspect_hf_config(
      R"({"head_dim": 64, "max_position_embeddings": 16, "rope_scaling": {"type": "yarn", "factor": 2,
          "beta_fast": 1, "beta_slow": 32}})");
  EXPECT_FALSE(in.valid);
  EXPECT_TRUE(find_diag(in.loaded.diagnostics, Severity::Error, "rope_scaling.beta_fast")) << dump(in.loaded.diagnostics);
  EXPECT_TRUE(in.plan.rows.empty());
  // A wrong JSON type is an Error diagnostic too (the throwing loader names the key).
  const pe::InspectedConfig bad = pe::inspect_hf_config(R"({"head_dim": "64", "max_position_embeddings": 16})");
  EXPECT_FALSE(bad.valid);
  EXPECT_TRUE(find_diag(bad.loaded.diagnostics, Severity::Error, "head_dim", "expected an integer"));
  // parse_hf_config keeps throwing.
  EXPECT_THROW(pe::parse_hf_config(R"({"head_dim": "64", "max_position_embeddings": 16})"), pe::ConfigError);
}

TEST(ConfigDiagnostics, KeysFoundAreReportedWithTheirUse) {
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(pe::preset_text("llama-3.1-8b"));
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "rope_theta", "500000"));
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "head_dim", "128"));
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "max_position_embeddings", "131072"));
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "rope_scaling", "llama3")) << dump(l.diagnostics);
  // DeepSeek's old "type" key and integer factor are notes, not warnings.
  const pe::LoadedConfig ds = pe::parse_hf_config_diagnosed(pe::preset_text("deepseek-v3"));
  EXPECT_TRUE(find_diag(ds.diagnostics, Severity::Info, "rope_scaling.type", "pre-2024"));
  EXPECT_TRUE(find_diag(ds.diagnostics, Severity::Info, "rope_scaling.factor", "integer"));
  EXPECT_EQ(count(ds.diagnostics, Severity::Warning), 0) << dump(ds.diagnostics);
}

// No bundled preset may draw a warning or an error: they are the published configs.
TEST(ConfigDiagnostics, NoPresetDrawsAWarning) {
  for (const auto& p : pe::list_presets()) {
    SCOPED_TRACE(p.key);
    const pe::InspectedConfig in = pe::inspect_preset(p.key);
    EXPECT_TRUE(in.valid);
    EXPECT_EQ(count(in.loaded.diagnostics, Severity::Warning), 0) << dump(in.loaded.diagnostics);
    EXPECT_EQ(count(in.loaded.diagnostics, Severity::Error), 0) << dump(in.loaded.diagnostics);
    EXPECT_FALSE(in.plan.rows.empty());
    // The inspector's config is the loader's config.
    const pe::RopeConfig c = pe::load_preset(p.key);
    EXPECT_EQ(in.loaded.config.theta, c.theta);
    EXPECT_EQ(in.loaded.config.rotary_dim(), c.rotary_dim());
  }
}

TEST(ConfigDiagnostics, PresetsCarryTheirModelTypesDefaults) {
  const pe::RopeConfig gemma = pe::load_preset("gemma-3-27b");
  EXPECT_EQ(gemma.theta, 1e6);
  EXPECT_EQ(gemma.max_position_embeddings, 131072);
  const pe::RopeConfig scout = pe::load_preset("llama-4-scout");
  EXPECT_EQ(scout.convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(scout.scaling.low_freq_factor, scout.scaling.high_freq_factor);
  const pe::RopeConfig glm = pe::load_preset("glm-4-9b");
  EXPECT_EQ(glm.rotary_dim(), 64);
  EXPECT_EQ(glm.convention, pe::PairConvention::Interleaved);
  const pe::RopeConfig cohere = pe::load_preset("command-r7b");
  EXPECT_EQ(cohere.convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(cohere.theta, 50000);
  const pe::RopeConfig stablelm = pe::load_preset("stablelm-2-1.6b");
  EXPECT_EQ(stablelm.head_dim, 64);
  EXPECT_EQ(stablelm.rotary_dim(), 16);
  const pe::RopeConfig ds = pe::load_preset("deepseek-v2-lite");
  EXPECT_EQ(ds.head_dim, 64);
  EXPECT_EQ(ds.convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(ds.scaling.mscale.value_or(0), 0.707);
  const pe::RopeConfig mini = pe::load_preset("minicpm3-4b");
  EXPECT_EQ(mini.head_dim, 32);
  EXPECT_EQ(mini.scaling.type, pe::RopeType::LongRope);
  EXPECT_DOUBLE_EQ(pe::scaled_frequencies(mini, 100).attention_factor, 1.0);  // max == original
  const pe::RopeConfig nemo = pe::load_preset("mistral-nemo");
  EXPECT_EQ(nemo.head_dim, 128);  // not 5120 / 32 = 160
  const pe::RopeConfig oss = pe::load_preset("gpt-oss-20b");
  EXPECT_FALSE(oss.scaling.truncate);
  EXPECT_EQ(pe::list_presets().size() >= 25, true);
}

TEST(ConfigDiagnostics, GptOssDefaultsItsYarnWhenTheFileHasNone) {
  const pe::LoadedConfig l = pe::parse_hf_config_diagnosed(
      R"({"model_type": "gpt_oss", "head_dim": 64, "max_position_embeddings": 131072})");
  EXPECT_EQ(l.config.scaling.type, pe::RopeType::Yarn);
  EXPECT_EQ(l.config.scaling.factor, 32.0);
  EXPECT_FALSE(l.config.scaling.truncate);
  EXPECT_EQ(l.config.theta, 150000.0);
  EXPECT_TRUE(find_diag(l.diagnostics, Severity::Info, "rope_scaling", "GptOssConfig")) << dump(l.diagnostics);
}

TEST(ConfigDiagnostics, EditDistanceAndSuggestions) {
  EXPECT_EQ(pe::edit_distance("rope_scaling", "rope_scaling"), 0u);
  EXPECT_EQ(pe::edit_distance("rope_scalling", "rope_scaling"), 1u);
  EXPECT_EQ(pe::edit_distance("rpoe_theta", "rope_theta"), 1u);  // adjacent swap
  EXPECT_EQ(pe::edit_distance("", "abc"), 3u);
  EXPECT_EQ(pe::likely_intended_key("attn_factr", pe::known_rope_parameter_keys()).value_or(""), "attn_factor");
  EXPECT_EQ(pe::likely_intended_key("high_freq_facotr", pe::known_rope_parameter_keys()).value_or(""),
            "high_freq_factor");
  EXPECT_FALSE(pe::likely_intended_key("vocab_size", pe::known_top_level_positional_keys()));
  EXPECT_FALSE(pe::likely_intended_key("rope_theta", pe::known_top_level_positional_keys()));  // exact: not a typo
}

TEST(ConfigDiagnostics, OptionsWithoutEffectAreNamed) {
  pe::RopeConfig c;
  pe::OptionsGiven given;
  given.factor = true;
  auto notes = pe::ineffective_option_notes(c, given);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("--factor"), std::string::npos);
  c.scaling.type = pe::RopeType::Linear;
  EXPECT_TRUE(pe::ineffective_option_notes(c, given).empty());
  given = {};
  given.original_max_position_embeddings = true;
  EXPECT_EQ(pe::ineffective_option_notes(c, given).size(), 1u);
  c.scaling.type = pe::RopeType::Yarn;
  EXPECT_TRUE(pe::ineffective_option_notes(c, given).empty());
  given = {};
  given.length = true;
  EXPECT_EQ(pe::ineffective_option_notes(c, given).size(), 1u);
  c.scaling.type = pe::RopeType::Dynamic;
  EXPECT_TRUE(pe::ineffective_option_notes(c, given).empty());
}

TEST(ConfigDiagnostics, InspectLoadedIsTheHookForOtherSources) {
  pe::LoadedConfig l;
  l.config = pe::load_preset("llama-3.1-8b");
  l.diagnostics.push_back({Severity::Info, "llama.rope.freq_base", "from the GGUF header"});
  const pe::InspectedConfig in = pe::inspect_loaded(l, "gguf:model.gguf");
  EXPECT_TRUE(in.valid);
  EXPECT_EQ(in.source, "gguf:model.gguf");
  ASSERT_EQ(in.plan.rows.size(), 1u);
  EXPECT_EQ(in.loaded.diagnostics.size(), 1u);
  l.config.theta = 0.5;
  EXPECT_FALSE(pe::inspect_loaded(l, "x").valid);
}

}  // namespace
