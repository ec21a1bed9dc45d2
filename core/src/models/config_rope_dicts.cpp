// Which RoPE dict configures the model (rope_parameters, flat or per layer type; rope_scaling;
// a config class's default) and its base θ.
//
// Reference: transformers' RotaryEmbeddingConfigMixin (modeling_rope_utils.py, v5:
// convert_rope_params_to_dict, standardize_rope_params, _validate_<type>_rope_parameters) and
// each model's configuration_<model>.py for its defaults (pe/models/model_defaults.hpp). Read at
// zucchini-nlp/transformers@26892c16 (tracks main, after #40320's explicit YaRN factor).
// Where transformers accepts a config and only logs a warning, pe-viz accepts it too and says
// so in a diagnostic; where transformers raises (a missing required key), pe-viz refuses.
#include <string>

#include "config_reading.hpp"

namespace pe::detail {
namespace {

const char* const kLayerTypeKeys[] = {"full_attention", "sliding_attention", "chunked_attention", "linear_attention"};

bool is_layer_type_key(const std::string& k) {
  for (const char* t : kLayerTypeKeys)
    if (k == t) return true;
  return false;
}


// rope_scaling (v4) beside a per-layer-type rope_parameters (v5). What transformers makes of it
// depends on the model class: Gemma 3 / 3n merge it into full_attention
// (Gemma3TextConfig.convert_rope_params_to_dict: full_attention.update(rope_scaling)); Gemma 4's
// convert_rope_params_to_dict does nothing with it; every other class takes
// `rope_scaling or rope_parameters`, so rope_scaling replaces the whole per-type dict.
void merge_legacy_scaling(ConfigReading& rd) {
  RopeDicts& d = rd.dicts;
  const std::string& type = rd.r.model_type;
  if (type == "gemma3_text" || type == "gemma3n_text") {
    json merged = d.main ? d.main->object_json() : json::object();
    for (auto it = d.scaling->object_json().begin(); it != d.scaling->object_json().end(); ++it) merged[it.key()] = *it;
    const std::string prefix = d.main ? d.main->prefix() : d.params->key("full_attention");
    d.merged = std::move(merged);
    d.main = Fields(*d.merged, prefix);
    rd.n.info(d.scaling->prefix(), "merged into " + prefix + " (its keys win), as " + type +
                                       "'s convert_rope_params_to_dict does: full_attention.update(rope_scaling)");
  } else if (type == "gemma4_text") {
    rd.n.warn(d.scaling->prefix(), "ignored: Gemma 4's configuration reads only rope_parameters (its "
                                   "convert_rope_params_to_dict does nothing with rope_scaling)");
  } else {
    d.per_type = false;
    d.main = d.scaling;
    d.sliding.reset();
    rd.n.warn(d.params->prefix(), "per-layer-type rope_parameters beside rope_scaling: transformers' "
                                  "convert_rope_params_to_dict takes `rope_scaling or rope_parameters`, so rope_scaling "
                                  "replaces every layer type's block; pe-viz reads rope_scaling for all layers");
  }
}

}  // namespace

bool is_per_layer_type(const json& params) {
  if (!params.is_object() || params.empty()) return false;
  for (auto it = params.begin(); it != params.end(); ++it)
    if (!is_layer_type_key(it.key()) || !(it->is_object() || it->is_null())) return false;
  return true;
}

void choose_rope_dicts(ConfigReading& rd) {
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  Notes& n = rd.n;
  RopeDicts& d = rd.dicts;
  d.params = block.object("rope_parameters");
  d.scaling = block.object("rope_scaling");
  d.per_type = d.params && is_per_layer_type(d.params->object_json());
  std::optional<Fields>& params = d.params;
  std::optional<Fields>& scaling = d.scaling;
  std::optional<Fields>& main_dict = d.main;
  std::optional<Fields>& sliding_dict = d.sliding;
  std::optional<json>& default_scaling_json = d.class_default;
  if (d.per_type) {
    if (auto full = params->object("full_attention")) main_dict = full;
    if (auto sl = params->object("sliding_attention")) sliding_dict = sl;
    if (!main_dict)
      for (auto it = params->object_json().begin(); it != params->object_json().end(); ++it)
        if (it->is_object() && it.key() != "sliding_attention") {
          main_dict = params->object(it.key().c_str());
          break;
        }
    if (!main_dict) main_dict = sliding_dict;
    n.info(params->prefix(), "one RoPE block per layer type; the full-attention one is the main configuration, "
                             "each layer type's own is in the layer plan");
    if (!block.has("layer_types") && (!defs || defs->layer_rule == LayerRule::Uniform)) {
      // Without layer_types, transformers' standardize_rope_params takes the dict as a flat
      // one: no rope_type at its top, so "default", and the per-type blocks are unrecognized keys.
      const std::string what = "keyed by layer type, but " +
                               (defs ? defs->config_class + std::string(" defines no layer types")
                                     : std::string("this config has no layer_types")) +
                               ": transformers reads it as one flat dict without rope_type, i.e. plain RoPE, and "
                               "ignores the per-type blocks. Give layer_types, or a flat rope_parameters";
      if (defs) n.error(params->prefix(), what);
      else n.warn(params->prefix(), what);
    }
    if (scaling) merge_legacy_scaling(rd);
  } else if (scaling && params) {
    // convert_rope_params_to_dict: self.rope_parameters = rope_scaling or self.rope_parameters.
    main_dict = scaling;
    if (scaling->object_json() != params->object_json())
      n.warn(params->prefix(), "given beside rope_scaling with different contents; transformers uses rope_scaling");
  } else if (scaling) {
    main_dict = scaling;
  } else if (params) {
    main_dict = params;
  } else if (defs && defs->default_rope_scaling) {
    default_scaling_json = json::parse(defs->default_rope_scaling);
    main_dict = Fields(*default_scaling_json, "rope_scaling");
    rd.default_note("rope_scaling", brief(*default_scaling_json), defs->config_class);
  }
  if (main_dict && main_dict->object_json().empty()) main_dict.reset();  // {} = no scaling
}

// The dict's own > top level > rotary_emb_base (GPT-NeoX) > class default.
void read_theta(ConfigReading& rd) {
  RopeConfig& c = rd.c();
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  const std::optional<Fields>& main_dict = rd.dicts.main;
  double dict_theta = 0.0;
  const bool has_dict_theta = main_dict && main_dict->has("rope_theta");
  if (has_dict_theta) dict_theta = *main_dict->number("rope_theta");
  const auto top_theta = block.number("rope_theta");
  const auto neox_base = block.number("rotary_emb_base");
  if (has_dict_theta) {
    c.theta = dict_theta;
    n.info(main_dict->key("rope_theta"), "= " + fmt(dict_theta) + ": base θ (θ_i = θ^(-2i/d))");
    if (top_theta && *top_theta != dict_theta)
      n.warn(block.key("rope_theta"), "= " + fmt(*top_theta) + " differs from " + main_dict->key("rope_theta") +
                                          "; transformers keeps the rope_parameters value (setdefault)");
  } else if (main_dict && rd.dicts.sliding && main_dict->prefix() == rd.dicts.sliding->prefix()) {
    // The sliding layers' block is the only one with RoPE (full_attention: null): its base is
    // the local one, as for every sliding layer (rope_local_base_freq, else the class's local θ).
    const auto local = block.number("rope_local_base_freq");
    c.theta = local ? *local : defs && defs->local_rope_theta ? *defs->local_rope_theta : 10000.0;
    n.info(main_dict->key("rope_theta"), "absent; " + fmt(c.theta) + ", the sliding layers' base (the only layers with RoPE)");
  } else if (top_theta) {
    c.theta = *top_theta;
    n.info(block.key("rope_theta"), "= " + fmt(*top_theta) + ": base θ (θ_i = θ^(-2i/d))");
  } else if (neox_base) {
    c.theta = *neox_base;
    n.info(block.key("rotary_emb_base"), "= " + fmt(*neox_base) + ": GPT-NeoX's name for rope_theta");
  } else if (defs) {
    c.theta = defs->rope_theta;
    rd.default_note(block.key("rope_theta"), fmt(defs->rope_theta), defs->config_class);
  } else {
    c.theta = 10000.0;
    rd.default_note(block.key("rope_theta"), "10000", "transformers' default_theta (RotaryEmbeddingConfigMixin)");
  }
}

}  // namespace pe::detail
