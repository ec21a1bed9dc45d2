// config.json → Resolution, as the steps of config_reading.hpp, top to bottom: the language
// model's block, its type and class defaults, the RoPE dict, θ, head and rotary dims, the
// context, the pair convention, scaling, the layers, each layer type's RoPE, the shape.
//
// Reference: transformers' RotaryEmbeddingConfigMixin (modeling_rope_utils.py, v5:
// convert_rope_params_to_dict, standardize_rope_params, _validate_<type>_rope_parameters) and
// each model's configuration_<model>.py for its defaults (pe/models/model_defaults.hpp). Read at
// zucchini-nlp/transformers@26892c16 (tracks main, after #40320's explicit YaRN factor).
// Where transformers accepts a config and only logs a warning, pe-viz accepts it too and says
// so in a diagnostic; where transformers raises (a missing required key), pe-viz refuses.
#include <cmath>
#include <string>

#include "config_reading.hpp"
#include "position_families.hpp"
#include "pe/base/errors.hpp"

namespace pe::detail {

std::string fmt(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return format_double(v);
}

ConfigReading::ConfigReading(const json& root, const std::string& name)
    : n(r.loaded.diagnostics), top(root, ""), block(top) {
  r.loaded.config.name = name;
}

void ConfigReading::default_note(const std::string& key, const std::string& value, const std::string& why) {
  n.info(key, "absent; " + value + " from " + why);
}

Resolution resolve_config(const json& root, const std::string& name) {
  if (!root.is_object()) throw ConfigError("", "expected a JSON object at the top level, got " + kind(root));
  ConfigReading rd(root, name);
  read_identity(rd);
  read_text_block(rd);
  read_model_type(rd);
  decide_family(rd);
  if (!rd.r.loaded.encoding.rotates()) {
    // Not a rotary model: its own family's keys, and none of the RoPE steps (which would
    // otherwise invent a θ = 10000 rotation for it).
    read_family_parameters(rd);
    return std::move(rd.r);
  }
  choose_rope_dicts(rd);
  read_theta(rd);
  read_head_dim(rd);
  read_partial_rotary(rd);
  read_max_positions(rd);
  read_convention(rd);
  read_scaling_block(rd);
  check_top_level(rd);
  read_layer_schedule(rd);
  read_per_type_rope(rd);
  read_query_scaling(rd);
  read_shape(rd);
  // Framework hints.
  rd.r.context.model_type = rd.r.model_type;
  rd.r.context.deepseek_attention = softmax_mscale_family(rd.r.model_type);
  rd.c().softmax_mscale = rd.r.context.deepseek_attention;
  describe_rope_encoding(rd);
  check_computable(rd);
  return std::move(rd.r);
}

void read_identity(ConfigReading& rd) {
  RopeConfig& c = rd.c();
  const Fields& top = rd.top;
  if (auto v = top.string("pe_viz_name")) c.name = *v;
  if (auto v = top.string("pe_viz_title")) c.title = *v;
  if (auto v = top.string("pe_viz_source")) c.source = *v;
}

// Multimodal wrappers nest the language model's block (Gemma 3, Llama 4, Mistral 3 and
// Qwen-VL's text_config; InternVL's llm_config; DeepSeek-VL's language_config). The wrapper's
// model class builds the text model from that dict alone.
void read_text_block(ConfigReading& rd) {
  Resolution& r = rd.r;
  Notes& n = rd.n;
  const Fields& top = rd.top;
  Fields& block = rd.block;
  for (const char* k : {"text_config", "llm_config", "language_config"}) {
    if (auto f = top.object(k)) {
      block = *f;
      r.text_block = k;
      n.info(k, "language-model settings read from this nested block (the wrapper builds its text model from it)");
      for (const char* p : {"rope_theta", "rope_scaling", "rope_parameters", "max_position_embeddings", "head_dim",
                            "partial_rotary_factor"}) {
        const json* outer = top.find(p);
        if (!outer) continue;
        const json* inner = f->find(p);
        if (!inner)
          n.warn(p, "= " + brief(*outer) + " at the top level is not read: transformers builds the text model from " +
                        std::string(k) + ", which has no " + p);
        else if (*inner != *outer)
          n.warn(p, "= " + brief(*outer) + " at the top level differs from " + k + "." + p + " = " + brief(*inner) +
                        "; the nested value is used");
      }
      break;
    }
  }
}

void read_model_type(ConfigReading& rd) {
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const Fields& top = rd.top;
  std::string model_type;
  if (auto v = block.string("model_type")) model_type = *v;
  else if (auto w = top.string("model_type")) model_type = text_model_type(*w);
  if (model_type == "kimi_k2") {
    // transformers has no kimi_k2 class: kimi_k25's configuration maps it to deepseek_v3, whose
    // attention (MLA, interleaved rope pairs, softmax scale × mscale²) runs it.
    n.info(block.key("model_type"), "\"kimi_k2\": transformers runs it as deepseek_v3 (configuration_kimi_k25.py)");
    model_type = "deepseek_v3";
  }
  rd.r.model_type = model_type;
  rd.defs = model_defaults(model_type);
  const ModelDefaults* defs = rd.defs;
  if (!model_type.empty()) {
    if (defs)
      n.info(block.key("model_type"), "\"" + model_type + "\": keys this file leaves out take the defaults of " +
                                          defs->config_class);
    else if (const FamilyEntry* f = family_entry(model_type))
      n.info(block.key("model_type"), "\"" + model_type + "\": keys this file leaves out take the defaults of " +
                                          f->config_class);
    else
      n.info(block.key("model_type"), "\"" + model_type + "\": no config-class defaults known to pe-viz; keys this "
                                          "file leaves out take transformers' generic defaults");
  }
}

void read_convention(ConfigReading& rd) {
  RopeConfig& c = rd.c();
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const Fields& top = rd.top;
  const ModelDefaults* defs = rd.defs;
  c.convention = PairConvention::HalfSplit;
  bool decided = false;
  if (defs) {
    c.convention = defs->convention;
    n.info("model_type", std::string("pair convention ") + to_string(defs->convention) + ": " + defs->convention_source);
    decided = true;
  }
  if (auto v = block.boolean("rope_interleave")) {
    c.convention = *v ? PairConvention::Interleaved : PairConvention::HalfSplit;
    n.info(block.key("rope_interleave"), std::string(*v ? "true" : "false") + ": pairs " +
                                             (*v ? "(2i, 2i+1) (apply_rotary_pos_emb_interleave)" : "(i, i + d/2)"));
    decided = true;
  }
  if (auto v = top.string("pe_viz_convention")) {
    if (*v == "interleaved") c.convention = PairConvention::Interleaved;
    else if (*v == "half-split") c.convention = PairConvention::HalfSplit;
    else throw ConfigError("pe_viz_convention", "expected \"interleaved\" or \"half-split\", got \"" + *v + "\"");
    if (decided && defs && c.convention != defs->convention)
      n.warn("pe_viz_convention", "\"" + *v + "\" contradicts " + defs->model_type + "'s modeling code (" +
                                      to_string(defs->convention) + ")");
    decided = true;
  }
  (void)decided;
}

void check_top_level(ConfigReading& rd) {
  const Fields& block = rd.block;
  check_top_level_keys(block, rd.n);
  if (rd.r.text_block.size()) check_top_level_keys(rd.top, rd.n);
  for (const auto& tk : top_level_key_uses())
    if (const json* v = block.find(tk.key)) rd.n.info(block.key(tk.key), "= " + brief(*v) + ": " + tk.use);
}

void check_computable(ConfigReading& rd) {
  Resolution& r = rd.r;
  Notes& n = rd.n;
  RopeConfig& c = rd.c();
  const std::optional<Fields>& main_dict = rd.dicts.main;
  try {
    validate(c);
  } catch (const InvalidArgument& e) {
    // validate() names fields "rope_scaling.x"; report the block the file actually used.
    std::string key = e.parameter();
    const std::string blk = main_dict ? main_dict->prefix() : std::string("rope_scaling");
    if (key.rfind("rope_scaling.", 0) == 0) key = blk + key.substr(std::string("rope_scaling").size());
    if (key == "partial_rotary_factor" && !rd.partial_rotary_key.empty()) key = rd.partial_rotary_key;
    n.error(key, "got " + e.value() + "; allowed: " + e.allowed());
  }
  for (const auto& d : r.loaded.diagnostics)
    if (d.severity == Severity::Error) r.valid = false;
}

}  // namespace pe::detail
