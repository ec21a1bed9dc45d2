// config.json between transformers 4's rope_scaling and transformers 5's rope_parameters
// (pe/models/config_emit.hpp). The rules are v5's convert_rope_params_to_dict and
// standardize_rope_params (modeling_rope_utils.py) and Gemma 3's own converter
// (configuration_gemma3.py), read at the commits cited in config_reader.cpp.
#include "pe/models/config_emit.hpp"

#include <string>

#include "config_reading.hpp"
#include "json_fields.hpp"
#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/model_defaults.hpp"

namespace pe {
namespace {

using detail::json;


bool gemma3_family(const std::string& model_type) {
  return model_type == "gemma3_text" || model_type == "gemma3n_text" || model_type == "gemma3" || model_type == "gemma3n";
}

// The language model's block: where the reader finds it (config_reader.cpp read_text_block).
json& text_block(json& root, std::string& prefix) {
  for (const char* k : {"text_config", "llm_config", "language_config"})
    if (root.contains(k) && root[k].is_object()) {
      prefix = std::string(k) + ".";
      return root[k];
    }
  prefix.clear();
  return root;
}

std::string type_of(const json& dict) {
  if (dict.contains("rope_type") && dict["rope_type"].is_string()) return dict["rope_type"].get<std::string>();
  if (dict.contains("type") && dict["type"].is_string()) return dict["type"].get<std::string>();
  return "default";
}

// One flat v5 dict: rope_type (never the legacy "type"), rope_theta, the scaling keys; "mrope"
// becomes "default" as Qwen2-VL's config does; L_orig filled where standardize fills it.
json v5_dict(json dict, double theta, const json& block) {
  if (!dict.is_object()) dict = json::object();
  std::string type = ascii_lower(type_of(dict));
  if (type == "mrope") type = "default";
  if (type == "su") type = "longrope";
  dict.erase("type");
  dict["rope_type"] = type;
  if (!dict.contains("rope_theta") || dict["rope_theta"].is_null()) dict["rope_theta"] = theta;
  if (block.contains("partial_rotary_factor") && !block["partial_rotary_factor"].is_null())
    dict["partial_rotary_factor"] = block["partial_rotary_factor"];
  if (type == "llama3" || type == "yarn" || type == "longrope") {
    if (block.contains("original_max_position_embeddings") && !block["original_max_position_embeddings"].is_null())
      dict["original_max_position_embeddings"] = block["original_max_position_embeddings"];
    else if (!dict.contains("original_max_position_embeddings") && block.contains("max_position_embeddings"))
      dict["original_max_position_embeddings"] = block["max_position_embeddings"];
  }
  return dict;
}

// A layer type's θ when its block has none: the main one for full attention; for sliding
// layers Gemma 3's rope_local_base_freq, else its class default (10^4).
double theta_of(const InspectedConfig& read, const json& block, const std::string& layer_type) {
  if (layer_type != "sliding_attention") return read.loaded.config.theta;
  if (block.contains("rope_local_base_freq") && block["rope_local_base_freq"].is_number())
    return block["rope_local_base_freq"].get<double>();
  const ModelDefaults* defs = model_defaults(read.model_type);
  return defs && defs->local_rope_theta ? *defs->local_rope_theta : 10000.0;
}

void to_v5(json& block, const InspectedConfig& read) {
  const json scaling = block.contains("rope_scaling") ? block["rope_scaling"] : json();
  const bool has_scaling = scaling.is_object() && !scaling.empty();
  json params = block.contains("rope_parameters") ? block["rope_parameters"] : json();
  const RopeConfig& main = read.loaded.config;
  // As the reader does (merge_legacy_scaling): beside a per-layer-type rope_parameters,
  // rope_scaling replaces it for every layer, but in Gemma 3 (merged) and Gemma 4 (ignored).
  const bool replaced = has_scaling && detail::is_per_layer_type(params) && !gemma3_family(read.model_type) &&
                        read.model_type != "gemma4_text";
  if (detail::is_per_layer_type(params) && !replaced) {
    // The reader has resolved each layer type's θ; merge a Gemma 3 rope_scaling as it did.
    for (auto it = params.begin(); it != params.end(); ++it) {
      if (it->is_null()) continue;
      const double theta = theta_of(read, block, it.key());
      json d = *it;
      if (it.key() == "full_attention" && has_scaling && gemma3_family(read.model_type))
        for (auto s = scaling.begin(); s != scaling.end(); ++s) d[s.key()] = *s;
      *it = v5_dict(d, theta, json::object());
    }
  } else if (gemma3_family(read.model_type)) {
    // Gemma3TextConfig.convert_rope_params_to_dict: nested, the legacy scaling into full_attention.
    json full = has_scaling ? scaling : (params.is_object() ? params : json::object());
    const double local = theta_of(read, block, "sliding_attention");
    params = {{"full_attention", v5_dict(full, main.theta, json::object())},
              {"sliding_attention", {{"rope_type", "default"}, {"rope_theta", local}}}};
    // Other layer types (chunked_attention) rotate as the global layers do in the reading;
    // v5 wants a block for each (standardize_rope_params looks every layer type up).
    if (block.contains("layer_types") && block["layer_types"].is_array())
      for (const json& t : block["layer_types"])
        if (t.is_string() && !params.contains(t.get<std::string>())) params[t.get<std::string>()] = params["full_attention"];
    block.erase("rope_local_base_freq");
  } else {
    // No rope block in the file: the class's own default scaling (gpt_oss, ministral3) is
    // what the reader used, so the v5 form writes it out.
    json own = has_scaling ? scaling : params;
    if (!own.is_object())
      if (const ModelDefaults* defs = model_defaults(read.model_type); defs && defs->default_rope_scaling)
        own = json::parse(defs->default_rope_scaling);
    params = v5_dict(own, main.theta, block);
  }
  block.erase("rope_scaling");
  block.erase("rope_theta");
  block.erase("rotary_emb_base");
  block["rope_parameters"] = std::move(params);
}

// A v5 dict split into v4's rope_scaling (nullptr when plain RoPE) and the top-level keys.
json v4_scaling(json dict, json& block, const std::string& where) {
  const std::string type = ascii_lower(type_of(dict));
  if (type == "proportional")
    throw ConfigError(where + ".rope_type", "\"proportional\" has no transformers 4 form (v5 introduced it for Gemma 4); "
                                            "keep this config in the v5 shape");
  if (dict.contains("rope_theta")) block["rope_theta"] = dict["rope_theta"];
  if (dict.contains("partial_rotary_factor")) block["partial_rotary_factor"] = dict["partial_rotary_factor"];
  dict.erase("rope_theta");
  dict.erase("partial_rotary_factor");
  dict.erase("type");
  dict["rope_type"] = type;
  if (type == "default" && dict.size() == 1) return nullptr;
  return dict;
}

void to_v4(json& block, const InspectedConfig& read, const std::string& prefix) {
  json params = block.contains("rope_parameters") ? block["rope_parameters"] : json();
  if (!params.is_object()) {
    block.erase("rope_parameters");
    return;  // already v4 (or plain RoPE from defaults)
  }
  json scaling;
  if (detail::is_per_layer_type(params)) {
    if (!gemma3_family(read.model_type) || !params.contains("full_attention"))
      throw ConfigError(prefix + "rope_parameters",
                        "one RoPE block per layer type has no transformers 4 form outside Gemma 3 (v4 reads one "
                        "rope_scaling for every layer); keep this config in the v5 shape");
    for (auto it = params.begin(); it != params.end(); ++it)
      if (it.key() != "full_attention" && it.key() != "sliding_attention")
        throw ConfigError(prefix + "rope_parameters." + it.key(), "no transformers 4 form for this layer type's block");
    if (!params["full_attention"].is_object())
      throw ConfigError(prefix + "rope_parameters.full_attention",
                        "global layers without RoPE (null) have no transformers 4 form; keep this config in the v5 shape");
    scaling = v4_scaling(params["full_attention"], block, prefix + "rope_parameters.full_attention");
    if (params.contains("sliding_attention") && params["sliding_attention"].is_object()) {
      const json& sliding = params["sliding_attention"];
      if (ascii_lower(type_of(sliding)) != "default")
        throw ConfigError(prefix + "rope_parameters.sliding_attention.rope_type",
                          "transformers 4's Gemma 3 scales only the global layers; a scaled sliding block has no v4 form");
      if (sliding.contains("rope_theta")) block["rope_local_base_freq"] = sliding["rope_theta"];
    }
  } else {
    scaling = v4_scaling(params, block, prefix + "rope_parameters");
  }
  block.erase("rope_parameters");
  if (scaling.is_null()) block.erase("rope_scaling");
  else block["rope_scaling"] = std::move(scaling);
}

}  // namespace

ConfigShape config_shape_from_string(const std::string& text, const char* parameter) {
  if (text == "v4") return ConfigShape::V4;
  if (text == "v5") return ConfigShape::V5;
  throw InvalidArgument(parameter, "\"" + text + "\"", "v4 (rope_scaling + rope_theta) or v5 (rope_parameters)");
}

const char* to_string(ConfigShape shape) { return shape == ConfigShape::V4 ? "v4" : "v5"; }

std::string emit_config(const std::string& json_text, ConfigShape target, const std::string& name) {
  // Read first: a config the reader refuses is refused here with the same key path.
  const InspectedConfig read = inspect_hf_config(json_text, name);
  if (!read.valid)
    for (const auto& d : read.loaded.diagnostics)
      if (d.severity == Severity::Error) throw ConfigError(d.key, d.message);
  // Only a rotary model has a rope block to write in either shape.
  if (!read.loaded.encoding.rotates()) throw NotRotaryError(read.loaded.encoding, name);
  json root = detail::parse_json_text(json_text);
  std::string prefix;
  json& block = text_block(root, prefix);
  try {
    if (target == ConfigShape::V5) to_v5(block, read);
    else to_v4(block, read, prefix);
  } catch (const json::exception& e) {
    // A shape of block the conversion has no rule for: refused, never a crash.
    throw ConfigError(prefix + "rope_parameters", std::string("cannot be written in the ") + to_string(target) +
                                                      " shape (" + e.what() + ")");
  }
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace pe
