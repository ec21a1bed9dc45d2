#pragma once
// Reading Hugging Face config.json files and the bundled model presets into RopeConfig.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>
#include "pe/scaling.hpp"

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

// Parses config.json text: rope_theta, head_dim (or hidden_size / num_attention_heads),
// partial_rotary_factor, max_position_embeddings, rope_scaling or rope_parameters
// (with "type" or "rope_type"). Presets add "pe_viz_name", "pe_viz_source".
RopeConfig parse_hf_config(const std::string& json_text, const std::string& name = "config.json");
RopeConfig load_hf_config(const std::filesystem::path& path);  // throws ConfigError (unreadable file too)

struct PresetInfo {
  std::string key;    // kebab-case, e.g. "llama-3.1-8b"
  std::string title;  // "Llama 3.1 8B"
  std::string source;
};

// Presets are JSON files in assets/presets, embedded into the binary.
std::vector<PresetInfo> list_presets();
RopeConfig load_preset(const std::string& key);  // throws InvalidArgument listing valid keys
inline constexpr const char* kTeachingPreset = "teaching";

}  // namespace pe
