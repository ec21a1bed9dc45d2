#pragma once
// The model inspector's core: a config source read with every diagnostic (keys found and how
// they were used, defaults taken from the model's config class, unknown or misspelt keys,
// keys ignored for the rope type, contradictions), its per-layer plan and the hints the
// framework comparison needs. Pure: no printing, no files written.
#include "pe/models/module_guard.hpp"
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "pe/models/diagnostics.hpp"
#include "pe/models/frameworks.hpp"
#include "pe/models/layer_plan.hpp"
#include "pe/models/model_shape.hpp"

namespace pe {

struct InspectedConfig {
  LoadedConfig loaded;          // the config and every diagnostic
  bool valid = true;            // false: an Error diagnostic says why; `loaded.config` is what was read
  std::string source;           // file path, "preset:<key>", or the reader's own label
  std::string model_type;       // the language model's (text_config's for wrappers); "" unknown
  std::string text_block;       // "text_config" / "llm_config" / "language_config" when nested, else ""
  LayerPlan plan;               // empty when !valid
  FrameworkContext frameworks;  // hints for compare_frameworks
  ModelShape shape;             // heads, widths, layers (config.json and class defaults)
};

// config.json text / file / bundled preset, read as the loader does but never throwing for a
// bad value: errors become Error diagnostics (valid = false). Unreadable files and JSON
// syntax errors still throw ConfigError (there is nothing to inspect).
InspectedConfig inspect_hf_config(const std::string& json_text, const std::string& name = "config.json");
InspectedConfig inspect_hf_config_file(const std::filesystem::path& path);
InspectedConfig inspect_preset(const std::string& key);  // throws InvalidArgument for an unknown key
// Hook for sources read elsewhere (HF cache `--model`, GGUF `--gguf`): their LoadedConfig with
// its diagnostics, a one-row layer plan, no framework hints beyond the config.
InspectedConfig inspect_loaded(const LoadedConfig& loaded, const std::string& source);

// The positional keys pe-viz knows, inside rope_scaling / rope_parameters and at the top
// level (Hugging Face's, vLLM's and the multimodal ones), for misspelling suggestions.
const std::vector<std::string>& known_rope_parameter_keys();
const std::vector<std::string>& known_top_level_positional_keys();
// Keys rope_type `type` reads (its _validate_<type>_rope_parameters required + optional keys).
std::vector<std::string> rope_parameter_keys_for(RopeType type);

// Levenshtein distance (insert, delete, substitute; adjacent swap counts 1).
std::size_t edit_distance(const std::string& a, const std::string& b);
// The candidate nearest to `key` when it is close enough to be a likely misspelling:
// distance <= max(1, min(3, key.size() / 4)).
std::optional<std::string> likely_intended_key(const std::string& key, const std::vector<std::string>& candidates);

// Command-line options that change a RopeConfig, for the "no effect here" notes.
struct OptionsGiven {
  bool factor = false;
  bool original_max_position_embeddings = false;
  bool length = false;  // dump's --length (the current length)
};
// One sentence per given option that has no effect with this configuration (e.g. --factor
// with the default rope type). The CLI prints them as notes on stderr.
std::vector<std::string> ineffective_option_notes(const RopeConfig& config, const OptionsGiven& given);

}  // namespace pe
