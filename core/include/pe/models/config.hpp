#pragma once
// Reading Hugging Face config.json files and the bundled model presets into RopeConfig.
#include "pe/models/module_guard.hpp"
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>
#include "pe/models/diagnostics.hpp"
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

// Parses config.json text as Hugging Face transformers reads it: rope_theta, head_dim (or
// hidden_size // num_attention_heads), partial_rotary_factor, max_position_embeddings,
// rope_scaling or rope_parameters (one dict, or one per layer type: the full-attention one
// is the main config), with "type" or "rope_type"; multimodal wrappers' text_config /
// llm_config / language_config; keys a sparse export leaves out take the model_type's
// config-class defaults (pe/models/model_defaults.hpp). Presets add "pe_viz_name", "pe_viz_title",
// "pe_viz_source" (and "pe_viz_convention" where no model_type says it).
RopeConfig parse_hf_config(const std::string& json_text, const std::string& name = "config.json");
RopeConfig load_hf_config(const std::filesystem::path& path);  // throws ConfigError (unreadable file too)
// A config.json file's text, refused (ConfigError naming the path) when unreadable or absurdly large.
std::string read_config_text(const std::filesystem::path& path);

// Same, with what the reader noticed: every positional key and how it was used, defaults,
// unknown / misspelt / ignored keys, contradictions (see pe/models/config_diagnostics.hpp for the
// inspector's fuller result). Throws ConfigError where parse_hf_config does.
LoadedConfig parse_hf_config_diagnosed(const std::string& json_text, const std::string& name = "config.json");
LoadedConfig load_hf_config_diagnosed(const std::filesystem::path& path);

struct PresetInfo {
  std::string key;    // kebab-case, e.g. "llama-3.1-8b"
  std::string title;  // "Llama 3.1 8B"
  std::string source;
};

// Presets are JSON files in assets/presets, embedded into the binary.
std::vector<PresetInfo> list_presets();
RopeConfig load_preset(const std::string& key);  // throws InvalidArgument listing valid keys
// The preset's config.json text as bundled (for the inspector); throws like load_preset.
std::string preset_text(const std::string& key);
inline constexpr const char* kTeachingPreset = "teaching";

}  // namespace pe
