#pragma once
// Reading Hugging Face config.json files and the bundled model presets into RopeConfig.
#include "pe/models/module_guard.hpp"
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>
#include "pe/models/diagnostics.hpp"
#include "pe/models/position_encoding.hpp"
#include "pe/scaling/scaling.hpp"

namespace pe {

// Malformed JSON or a bad key: the message names the key (e.g. "rope_scaling.factor")
// or, for syntax errors, the byte/line position.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string key, std::string message);
  const std::string& key() const noexcept { return key_; }

 private:
  std::string key_;
};

// The model's positions are not rotary (GPT-2's learned table, T5's bucketed bias, BLOOM's
// ALiBi, ...): an entry point that returns a RopeConfig refuses it with this, so no caller
// draws it as RoPE by mistake. The family and its parameters come with it; the *_diagnosed
// entry points return them instead of throwing. key() is the key that decided the family.
class NotRotaryError : public ConfigError {
 public:
  NotRotaryError(PositionEncodingInfo info, const std::string& name);
  const PositionEncodingInfo& info() const noexcept { return info_; }

 private:
  PositionEncodingInfo info_;
};

// Parses config.json text as Hugging Face transformers reads it: rope_theta, head_dim (or
// hidden_size // num_attention_heads), partial_rotary_factor, max_position_embeddings,
// rope_scaling or rope_parameters (one dict, or one per layer type: the full-attention one
// is the main config), with "type" or "rope_type"; multimodal wrappers' text_config /
// llm_config / language_config; keys a sparse export leaves out take the model_type's
// config-class defaults (pe/models/model_defaults.hpp). Presets add "pe_viz_name", "pe_viz_title",
// "pe_viz_source" (and "pe_viz_convention" where no model_type says it).
// A model that does not rotate throws NotRotaryError (a ConfigError).
RopeConfig parse_hf_config(const std::string& json_text, const std::string& name = "config.json");
RopeConfig load_hf_config(const std::filesystem::path& path);  // throws ConfigError (unreadable file too)
// A config.json file's text, refused (ConfigError naming the path) when unreadable or absurdly large.
std::string read_config_text(const std::filesystem::path& path);

// Same, with what the reader noticed: every positional key and how it was used, defaults,
// unknown / misspelt / ignored keys, contradictions (see pe/models/config_diagnostics.hpp for the
// inspector's fuller result), and the model's positional encoding family (LoadedConfig::encoding):
// a model that does not rotate is returned, not refused. Throws ConfigError for a bad value.
LoadedConfig parse_hf_config_diagnosed(const std::string& json_text, const std::string& name = "config.json");
LoadedConfig load_hf_config_diagnosed(const std::filesystem::path& path);

struct PresetInfo {
  std::string key;    // kebab-case, e.g. "llama-3.1-8b"
  std::string title;  // "Llama 3.1 8B"
  std::string source;
  PositionEncodingFamily family = PositionEncodingFamily::Rope;  // a RoPE view may offer only the rotary ones
};

// Presets are JSON files in assets/presets (rotary models) and assets/presets/non-rope (the
// others), embedded into the binary. Rotary lists those a RoPE view can draw (compare's B side,
// the RoPE tests); All adds GPT-2, BERT, T5, BLOOM … for the preset menus and --list-presets.
enum class PresetKinds { Rotary, All };
std::vector<PresetInfo> list_presets(PresetKinds kinds = PresetKinds::Rotary);
// Throws InvalidArgument listing valid keys; NotRotaryError for a preset that does not rotate
// (gpt2, bert-base-uncased, t5-base, ...: use load_preset_diagnosed).
RopeConfig load_preset(const std::string& key);
LoadedConfig load_preset_diagnosed(const std::string& key);  // throws InvalidArgument for an unknown key
// The preset's config.json text as bundled (for the inspector); throws like load_preset.
std::string preset_text(const std::string& key);
inline constexpr const char* kTeachingPreset = "teaching";

}  // namespace pe
