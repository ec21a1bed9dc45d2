#pragma once
// The same model in the other config.json shape, for tools that read only one:
//  - v5: transformers 5's rope_parameters as save_pretrained writes it — rope_type and
//    rope_theta inside the dict (θ from the top level or the class default), the scaling keys
//    beside them, original_max_position_embeddings filled for llama3 / yarn / longrope
//    (standardize_rope_params), one dict per layer type where the model has them (Gemma 3's
//    rope_local_base_freq becomes sliding_attention's θ); no rope_scaling, no top-level rope_theta.
//  - v4: rope_scaling with the top-level rope_theta (and partial_rotary_factor, and Gemma 3's
//    rope_local_base_freq), as transformers 4 reads them.
// Every other key is kept as it is, nested text configs (text_config, ...) included.
#include "pe/models/module_guard.hpp"
#include <string>

namespace pe {

enum class ConfigShape { V4, V5 };
// "v4" or "v5"; throws InvalidArgument naming `parameter` otherwise.
ConfigShape config_shape_from_string(const std::string& text, const char* parameter = "emit-config");
const char* to_string(ConfigShape shape);

// Throws ConfigError (with the key path) when the text is not a readable config, or when the
// target shape cannot express the model: v4 has no "proportional" rope type and no per-layer-type
// blocks beyond Gemma 3's two.
std::string emit_config(const std::string& json_text, ConfigShape target, const std::string& name = "config.json");

}  // namespace pe
