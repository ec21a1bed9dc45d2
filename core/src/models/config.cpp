// Hugging Face config.json → RopeConfig, with what the reader noticed on the way, and the
// embedded model presets.
//
// Reference: transformers' RotaryEmbeddingConfigMixin (modeling_rope_utils.py, v5:
// convert_rope_params_to_dict, standardize_rope_params, _validate_<type>_rope_parameters) and
// each model's configuration_<model>.py for its defaults (pe/models/model_defaults.hpp). Read at
// zucchini-nlp/transformers@26892c16 (tracks main, after #40320's explicit YaRN factor).
// Where transformers accepts a config and only logs a warning, pe-viz accepts it too and says
// so in a diagnostic; where transformers raises (a missing required key), pe-viz refuses.
#include "pe/models/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "config_resolve.hpp"
#include "multimodal_config_reader.hpp"  // issue 12: vision_config, M-RoPE, axial
#include "pe/base/errors.hpp"
#include "pe/models/model_defaults.hpp"
#include "pe/base/text.hpp"
#include "pe_presets.hpp"

namespace pe {

ConfigError::ConfigError(std::string key, std::string message)
    : std::runtime_error(key.empty() ? message : key + ": " + message), key_(std::move(key)) {}

namespace detail {
namespace {

// Integral values in plain digits ("500000", not to_chars' shorter "5e+05"), others shortest round-trip.
std::string fmt(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return format_double(v);
}

// Collects diagnostics in the order they are noticed.
class Notes {
 public:
  explicit Notes(std::vector<Diagnostic>& out) : out_(&out) {}
  void info(std::string key, std::string message) { add(Severity::Info, std::move(key), std::move(message)); }
  void warn(std::string key, std::string message) { add(Severity::Warning, std::move(key), std::move(message)); }
  void error(std::string key, std::string message) { add(Severity::Error, std::move(key), std::move(message)); }

 private:
  void add(Severity s, std::string key, std::string message) { out_->push_back({s, std::move(key), std::move(message)}); }
  std::vector<Diagnostic>* out_;
};

const char* const kRopeTypeList = "default, linear, ntk, dynamic, yarn, llama3, longrope (aliases: su, mrope)";
const char* const kLayerTypeKeys[] = {"full_attention", "sliding_attention", "chunked_attention", "linear_attention"};

std::string missing_for(RopeType t) { return std::string("missing (required for rope_type \"") + to_string(t) + "\")"; }

bool is_layer_type_key(const std::string& k) {
  for (const char* t : kLayerTypeKeys)
    if (k == t) return true;
  return false;
}

// rope_parameters keyed by layer type (transformers v5, Gemma 3 / gpt-oss exports).
bool is_per_layer_type(const json& params) {
  if (!params.is_object() || params.empty()) return false;
  for (auto it = params.begin(); it != params.end(); ++it)
    if (!is_layer_type_key(it.key()) || !(it->is_object() || it->is_null())) return false;
  return true;
}

// What read_scaling reports back beyond the RopeScaling fields.
struct ScalingRead {
  bool factor_given = false;
  bool original_given = false;
  std::optional<double> attn_factor;  // vLLM's key
};

// One rope_scaling / rope_parameters dict. `c` carries max_position_embeddings and
// head_dim already; the dict's own rope_theta / partial_rotary_factor are read by the caller.
ScalingRead read_scaling(const Fields& f, RopeConfig& c, Notes& n) {
  ScalingRead out;
  RopeScaling& s = c.scaling;
  std::optional<std::string> type_text = f.string("rope_type");
  std::string type_key = f.key("rope_type");
  const std::optional<std::string> old_type = f.string("type");
  if (!type_text && old_type) {
    type_text = old_type;
    type_key = f.key("type");
    n.info(f.key("type"), "\"" + *old_type + "\": the pre-2024 spelling of rope_type; transformers reads it as "
                          "rope_type (standardize_rope_params: setdefault(\"rope_type\", type))");
  } else if (type_text && old_type && *old_type != *type_text) {
    n.warn(f.key("type"), "\"" + *old_type + "\" differs from rope_type \"" + *type_text +
                              "\"; transformers uses rope_type and ignores type");
  }
  if (!type_text)
    throw ConfigError(f.key("rope_type"),
                      "missing (give \"rope_type\" or \"type\"; transformers would fall back to \"default\" and "
                      "ignore every other key of this block)");
  try {
    s.type = rope_type_from_string(*type_text);
  } catch (const InvalidArgument&) {
    throw ConfigError(type_key, "unknown rope type \"" + *type_text + "\"; expected one of " + kRopeTypeList);
  }
  const std::string lower = ascii_lower(*type_text);
  if (lower == "mrope") {
    n.info(type_key, "\"mrope\": multimodal RoPE (Qwen2-VL family). Transformers rewrites it to \"default\": text "
                     "tokens rotate with the plain θ_i shown here; mrope_section splits the pairs between the "
                     "temporal, height and width position ids (the multimodal views)");
  } else if (lower == "su") {
    n.info(type_key, "\"su\": Phi-3's first name for longrope; transformers reads it as longrope");
  } else if (s.type == RopeType::NtkAware) {
    n.warn(type_key, "\"" + *type_text + "\" is not a transformers rope type (no ROPE_INIT_FUNCTIONS entry: "
                     "loading fails there); vLLM's NTKScalingRotaryEmbedding uses a different formula and "
                     "llama.cpp ignores it. pe-viz shows bloc97's NTK-aware base change");
  } else if (lower == "ntk-aware" || lower == "ntk_aware") {
    n.warn(type_key, "\"" + *type_text + "\" is a pe-viz alias, not a transformers rope type");
  }
  const std::string type_name = to_string(s.type);

  const auto factor = f.number("factor");
  if (factor) {
    s.factor = *factor;
    out.factor_given = true;
    if (f.is_integer_literal("factor"))
      n.info(f.key("factor"), "written as an integer (" + fmt(*factor) + "); transformers' validator logs "
                              "\"must be a float >= 1\" but computes with it unchanged");
  } else if (s.type != RopeType::Default && s.type != RopeType::LongRope) {
    throw ConfigError(f.key("factor"), missing_for(s.type));
  }

  if (auto v = f.integer("original_max_position_embeddings", 1, kMaxLength)) {
    s.original_max_position_embeddings = *v;
    out.original_given = true;
  }
  if (auto v = f.number("beta_fast")) s.beta_fast = *v;
  if (auto v = f.number("beta_slow")) s.beta_slow = *v;
  if (auto v = f.number("mscale")) s.mscale = *v;
  if (auto v = f.number("mscale_all_dim")) s.mscale_all_dim = *v;
  if (auto v = f.number("attention_factor")) s.attention_factor = *v;
  if (auto v = f.boolean("truncate")) s.truncate = *v;
  if (auto v = f.number("attn_factor")) out.attn_factor = *v;

  if (s.type == RopeType::Llama3) {
    // transformers requires these (_validate_llama3_rope_parameters raises KeyError).
    if (!f.has("low_freq_factor")) throw ConfigError(f.key("low_freq_factor"), missing_for(s.type));
    if (!f.has("high_freq_factor")) throw ConfigError(f.key("high_freq_factor"), missing_for(s.type));
  }
  if (auto v = f.number("low_freq_factor")) s.low_freq_factor = *v;
  if (auto v = f.number("high_freq_factor")) s.high_freq_factor = *v;

  if (s.type == RopeType::LongRope) {
    if (!f.has("short_factor")) throw ConfigError(f.key("short_factor"), missing_for(s.type));
    if (!f.has("long_factor")) throw ConfigError(f.key("long_factor"), missing_for(s.type));
  }
  if (auto v = f.number_list("short_factor")) s.short_factor = std::move(*v);
  if (auto v = f.number_list("long_factor")) s.long_factor = std::move(*v);

  // Keys this rope type does not read, unknown keys and likely misspellings
  // (_check_received_keys logs "Unrecognized keys" for both).
  const std::vector<std::string> used = rope_parameter_keys_for(s.type);
  const std::vector<std::string>& known = known_rope_parameter_keys();
  for (auto it = f.object_json().begin(); it != f.object_json().end(); ++it) {
    const std::string& k = it.key();
    const std::string key = f.key(k);
    if (std::find(used.begin(), used.end(), k) != used.end()) continue;
    if (k == "type" || k == "rope_type" || k == "rope_theta" || k == "partial_rotary_factor") continue;
    if (k == "attn_factor") {
      n.warn(key, "= " + brief(*it) + ": not read by transformers (its key is attention_factor); vLLM's YaRN "
                  "multiplies its magnitude by attn_factor, llama.cpp's converter writes it as "
                  "rope.scaling.yarn_attn_factor (read only by a few architectures). Did you mean attention_factor?");
      continue;
    }
    if (k == "mrope_section" || k == "mrope_interleaved") {
      n.info(key, "= " + brief(*it) + ": multimodal rotary sections (Qwen2-VL family); transformers skips it in "
                  "validation (ignore_keys_at_rope_validation); the pair split is the multimodal views' business");
      continue;
    }
    if (k == "extrapolation_factor" || k == "apply_yarn_scaling" || k == "short_mscale" || k == "long_mscale" ||
        k == "mixed_b" || k == "alpha" || k == "llama_4_scaling_beta" || k == "finetuned") {
      n.info(key, "= " + brief(*it) + ": read by vLLM or a model's own code, not by transformers' "
                  "modeling_rope_utils (transformers logs \"Unrecognized keys\")");
      continue;
    }
    if (std::find(known.begin(), known.end(), k) != known.end()) {
      n.warn(key, "= " + brief(*it) + ": not used by rope_type \"" + type_name +
                      "\" (transformers logs \"Unrecognized keys\" and ignores it)");
      continue;
    }
    if (auto guess = likely_intended_key(k, known)) {
      n.warn(key, "unknown key (ignored); did you mean \"" + *guess + "\"?");
    } else {
      n.warn(key, "unknown key for rope_type \"" + type_name + "\" (transformers logs \"Unrecognized keys\" and "
                  "ignores it)");
    }
  }
  return out;
}

// Positional keys the inspector reports when found at the top level (value and use).
struct TopKey {
  const char* key;
  const char* use;
};
const TopKey kTopKeysUse[] = {
    {"sliding_window", "window of the sliding-attention layers (layer plan)"},
    {"sliding_window_pattern", "every Nth layer attends globally, the others slide (layer plan)"},
    {"_sliding_window_pattern", "every Nth layer attends globally, the others slide (layer plan)"},
    {"layer_types", "attention type of each layer (layer plan)"},
    {"no_rope_layers", "1 = the layer rotates, 0 = NoPE layer (Llama 4; an empty list means the class default)"},
    {"no_rope_layer_interval", "a NoPE layer every Nth layer when no_rope_layers is empty (Llama 4)"},
    {"attention_chunk_size", "RoPE layers attend within chunks of this many tokens (Llama 4)"},
    {"rope_local_base_freq", "base θ of the sliding-window layers (Gemma 3)"},
    {"use_sliding_window", "whether max_window_layers' sliding window applies (Qwen)"},
    {"max_window_layers", "layers from this index on use the sliding window when enabled (Qwen)"},
    {"qk_nope_head_dim", "MLA q/k dims that do not rotate"},
    {"interleave_moe_layer_step", "MoE layer spacing (Llama 4); not positional"},
    {"attn_temperature_tuning", "NoPE layers' query temperature by position (Llama 4); not a rotary setting"},
    {"floor_scale", "Llama 4 attention temperature: positions per step; not a rotary setting"},
    {"attn_scale", "Llama 4 attention temperature strength; not a rotary setting"},
    {"initial_context_length", "gpt-oss's pretraining length (transformers reads rope_scaling's copy)"},
    {"position_embedding_type", "Cohere's own name for the rotary layout (transformers ignores it)"},
    {"rotary_pct", "GPT-NeoX's name for partial_rotary_factor"},
    {"order_of_interleaved_layers", "Cohere remote-code key (transformers ignores it)"},
    {"layer_switch", "Cohere remote-code key (transformers uses sliding_window_pattern)"},
};

// Every top-level key that is known to pe-viz (positional or a common non-positional key).
// Only keys outside this set that are near a positional key are reported as misspellings.
const std::set<std::string>& common_top_level_keys() {
  static const std::set<std::string> keys = {
      "architectures", "model_type", "vocab_size", "intermediate_size", "intermediate_size_mlp", "num_hidden_layers",
      "num_key_value_heads", "hidden_act", "hidden_activation", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon",
      "initializer_range", "use_cache", "tie_word_embeddings", "bos_token_id", "eos_token_id", "pad_token_id",
      "torch_dtype", "dtype", "transformers_version", "attention_bias", "attention_dropout", "mlp_bias",
      "auto_map", "quantization_config", "num_local_experts", "num_experts_per_tok", "num_experts", "experts_per_token",
      "moe_layers", "router_aux_loss_coef", "router_jitter_noise", "output_router_logits", "use_qk_norm",
      "query_pre_attn_scalar", "final_logit_softcapping", "attn_logit_softcapping", "cache_implementation",
      "kv_lora_rank", "q_lora_rank", "v_head_dim", "n_routed_experts", "n_shared_experts", "moe_intermediate_size",
      "first_k_dense_replace", "moe_layer_freq", "topk_method", "topk_group", "n_group", "norm_topk_prob",
      "routed_scaling_factor", "scoring_func", "aux_loss_alpha", "seq_aux", "num_nextn_predict_layers", "ep_size",
      "embd_pdrop", "resid_pdrop", "attn_pdrop", "logit_scale", "use_parallel_block", "use_gated_activation",
      "use_parallel_embedding", "use_embedding_sharing", "scale_emb", "scale_depth", "dim_model_base",
      "embedding_multiplier", "residual_multiplier", "attention_multiplier", "logits_scaling", "swiglu_limit",
      "for_llm_compressor", "boi_token_index", "eoi_token_index", "image_token_index", "mm_tokens_per_image",
      "vision_config", "text_config", "llm_config", "language_config", "audio_config", "pe_viz_name", "pe_viz_title",
      "pe_viz_source", "pe_viz_convention", "n_embd", "n_head", "n_layer", "n_inner", "rotary_dim", "rope_interleave",
      "qk_rope_head_dim", "head_dim", "hidden_size", "num_attention_heads", "max_position_embeddings", "n_positions",
      "original_max_position_embeddings", "rope_scaling", "rope_parameters", "rope_theta", "rotary_emb_base",
      "partial_rotary_factor", "use_bidirectional_attention", "qk_layernorm", "use_qkv_bias", "max_length",
      "_name_or_path", "pretraining_tp", "image_token_id", "video_token_id", "vision_start_token_id",
      "vision_end_token_id", "vision_token_id", "mrope_section", "axes_dims_rope", "rope_traditional"};
  return keys;
}

void check_top_level_keys(const Fields& f, Notes& n) {
  const auto& common = common_top_level_keys();
  const auto& positional = known_top_level_positional_keys();
  for (auto it = f.object_json().begin(); it != f.object_json().end(); ++it) {
    const std::string& k = it.key();
    if (common.count(k) || std::find(positional.begin(), positional.end(), k) != positional.end()) continue;
    if (auto guess = likely_intended_key(k, positional))
      n.warn(f.key(k), "unknown key (transformers keeps it as an attribute nobody reads); did you mean \"" + *guess +
                           "\"?");
  }
}

long long nonneg_or(const std::optional<long long>& v, long long fallback) { return v ? *v : fallback; }

// The convention note for an explicit pe_viz_convention / rope_interleave / model default.
void read_convention(const Fields& block, const Fields& top, const ModelDefaults* defs, RopeConfig& c, Notes& n) {
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

}  // namespace

std::string brief(const json& value) {
  if (value.is_array()) {
    if (value.size() > 6) {
      bool numbers = true;
      for (const auto& v : value) numbers = numbers && v.is_number();
      return "[" + std::to_string(value.size()) + (numbers ? " numbers]" : " values]");
    }
  }
  if (value.is_number_float()) return format_double(value.get<double>());
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

Resolution resolve_config(const json& root, const std::string& name) {
  if (!root.is_object()) throw ConfigError("", "expected a JSON object at the top level, got " + kind(root));
  Resolution r;
  Notes n(r.loaded.diagnostics);
  const Fields top(root, "");
  RopeConfig& c = r.loaded.config;
  c.name = name;
  if (auto v = top.string("pe_viz_name")) c.name = *v;
  if (auto v = top.string("pe_viz_title")) c.title = *v;
  if (auto v = top.string("pe_viz_source")) c.source = *v;

  // ---- The language model's block: multimodal wrappers nest it (Gemma 3, Llama 4, Mistral 3
  // and Qwen-VL's text_config; InternVL's llm_config; DeepSeek-VL's language_config). The
  // wrapper's model class builds the text model from that dict alone.
  Fields block = top;
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

  std::string model_type;
  if (auto v = block.string("model_type")) model_type = *v;
  else if (auto w = top.string("model_type")) model_type = text_model_type(*w);
  r.model_type = model_type;
  const ModelDefaults* defs = model_defaults(model_type);
  if (!model_type.empty()) {
    if (defs)
      n.info(block.key("model_type"), "\"" + model_type + "\": keys this file leaves out take the defaults of " +
                                          defs->config_class);
    else
      n.info(block.key("model_type"), "\"" + model_type + "\": no config-class defaults known to pe-viz; keys this "
                                          "file leaves out take transformers' generic defaults");
  }
  auto default_note = [&](const std::string& key, const std::string& value, const std::string& why) {
    n.info(key, "absent; " + value + " from " + why);
  };

  // ---- rope_parameters / rope_scaling: one dict, or one per layer type (v5).
  std::optional<Fields> params = block.object("rope_parameters");
  std::optional<Fields> scaling = block.object("rope_scaling");
  const bool per_type = params && is_per_layer_type(params->object_json());
  std::optional<Fields> main_dict;
  std::optional<Fields> sliding_dict;
  std::optional<json> default_scaling_json;  // kept alive for Fields
  if (per_type) {
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
    if (scaling) {
      // Gemma3TextConfig.convert_rope_params_to_dict: rope_scaling updates full_attention.
      n.warn(scaling->prefix(), "given beside per-layer-type rope_parameters; transformers merges it into "
                                "full_attention, pe-viz reads rope_parameters.full_attention only");
    }
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
    default_note("rope_scaling", brief(*default_scaling_json), defs->config_class);
  }
  if (main_dict && main_dict->object_json().empty()) main_dict.reset();  // {} = no scaling

  // ---- rope_theta: the dict's own > top level > rotary_emb_base (GPT-NeoX) > class default.
  {
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
    } else if (top_theta) {
      c.theta = *top_theta;
      n.info(block.key("rope_theta"), "= " + fmt(*top_theta) + ": base θ (θ_i = θ^(-2i/d))");
    } else if (neox_base) {
      c.theta = *neox_base;
      n.info(block.key("rotary_emb_base"), "= " + fmt(*neox_base) + ": GPT-NeoX's name for rope_theta");
    } else if (defs) {
      c.theta = defs->rope_theta;
      default_note(block.key("rope_theta"), fmt(defs->rope_theta), defs->config_class);
    } else {
      c.theta = 10000.0;
      default_note(block.key("rope_theta"), "10000", "transformers' default_theta (RotaryEmbeddingConfigMixin)");
    }
  }

  // ---- head_dim. MLA (DeepSeek-V2/V3, MiniCPM3) rotates only qk_rope_head_dim dims per head.
  const auto hidden = block.integer("hidden_size", 1, std::numeric_limits<long long>::max() / 2);
  const auto heads = block.integer("num_attention_heads", 1, std::numeric_limits<long long>::max() / 2);
  const auto nope = block.integer("qk_nope_head_dim", 0, kMaxDim);
  long long qk_nope = 0;
  if (auto rope_dim = block.integer("qk_rope_head_dim", 1, kMaxDim)) {
    c.head_dim = *rope_dim;
    qk_nope = nope ? *nope : (defs && defs->qk_nope_head_dim ? *defs->qk_nope_head_dim : 0);
    n.info(block.key("qk_rope_head_dim"), "= " + std::to_string(*rope_dim) + ": MLA — only these dims of each q/k "
                                          "head rotate" + (qk_nope ? " (qk_nope_head_dim = " + std::to_string(qk_nope) +
                                                                         " more do not)" : std::string()));
  } else if (defs && defs->qk_rope_head_dim) {
    c.head_dim = *defs->qk_rope_head_dim;
    qk_nope = nope ? *nope : defs->qk_nope_head_dim.value_or(0);
    default_note(block.key("qk_rope_head_dim"), std::to_string(c.head_dim), defs->config_class);
  } else if (auto h = block.integer("head_dim", 1, kMaxDim)) {
    c.head_dim = *h;
    n.info(block.key("head_dim"), "= " + std::to_string(*h) + ": dims per q/k head");
    if (hidden && heads && *hidden / *heads != *h)
      n.info(block.key("head_dim"), "differs from hidden_size / num_attention_heads = " +
                                        std::to_string(*hidden / *heads) + "; transformers uses head_dim (set "
                                        "explicitly, as Gemma and Mistral-Nemo do)");
  } else if (defs && defs->head_dim) {
    c.head_dim = *defs->head_dim;
    default_note(block.key("head_dim"), std::to_string(c.head_dim), defs->config_class);
    if (hidden && heads && *hidden / *heads != c.head_dim)
      n.warn(block.key("head_dim"), "the class default " + std::to_string(c.head_dim) +
                                        " differs from hidden_size / num_attention_heads = " +
                                        std::to_string(*hidden / *heads) +
                                        "; transformers uses the default (give head_dim if that is not meant)");
  } else {
    const long long hs = hidden ? *hidden : (defs ? defs->hidden_size : 0);
    const long long nh = heads ? *heads : (defs ? defs->num_attention_heads : 0);
    if (!hidden && !heads && !defs)
      throw ConfigError(block.key("head_dim"), "missing (give head_dim, or hidden_size and num_attention_heads)");
    if (!hs) throw ConfigError(block.key("hidden_size"), "missing (needed with num_attention_heads when head_dim is absent)");
    if (!nh) throw ConfigError(block.key("num_attention_heads"), "missing (needed with hidden_size when head_dim is absent)");
    const long long d = hs / nh;
    if (d < 1 || d > kMaxDim)
      throw ConfigError(block.key("hidden_size"), "hidden_size / num_attention_heads = " + std::to_string(d) +
                                           " is not a usable head_dim (1 ... " + std::to_string(kMaxDim) + ")");
    c.head_dim = d;
    if (!hidden) default_note(block.key("hidden_size"), std::to_string(hs), defs->config_class);
    if (!heads) default_note(block.key("num_attention_heads"), std::to_string(nh), defs->config_class);
    if (hs % nh != 0)
      n.warn(block.key("hidden_size"), std::to_string(hs) + " / num_attention_heads " + std::to_string(nh) +
                                           " is not an integer; transformers floors it to head_dim " +
                                           std::to_string(d));
    else
      n.info(block.key("hidden_size"), "head_dim = hidden_size / num_attention_heads = " + std::to_string(hs) + " / " +
                                           std::to_string(nh) + " = " + std::to_string(d));
  }

  // ---- partial rotary: the dict's > partial_rotary_factor > rotary_pct (GPT-NeoX) > rotary_dim (GPT-J).
  c.partial_rotary_factor = 1.0;
  {
    std::optional<double> f;
    std::string key;
    if (main_dict)
      if (auto v = main_dict->number("partial_rotary_factor")) f = v, key = main_dict->key("partial_rotary_factor");
    if (!f)
      if (auto v = block.number("partial_rotary_factor")) f = v, key = block.key("partial_rotary_factor");
    if (!f)
      if (auto v = block.number("rotary_pct")) f = v, key = block.key("rotary_pct");
    if (!f) {
      if (auto v = block.integer("rotary_dim", 1, kMaxDim)) {
        if (*v > c.head_dim)
          throw ConfigError(block.key("rotary_dim"),
                            "got " + std::to_string(*v) + ", larger than head_dim = " + std::to_string(c.head_dim));
        f = static_cast<double>(*v) / static_cast<double>(c.head_dim);
        key = block.key("rotary_dim");
      }
    }
    if (f) {
      c.partial_rotary_factor = *f;
      n.info(key, "= " + fmt(*f) + ": the first int(head_dim · factor) dims of each head rotate");
    } else if (defs && defs->partial_rotary_factor != 1.0) {
      c.partial_rotary_factor = defs->partial_rotary_factor;
      default_note(block.key("partial_rotary_factor"), fmt(defs->partial_rotary_factor), defs->config_class);
    }
    if (c.partial_rotary_factor > 0.0 && c.partial_rotary_factor < 1.0) {
      const double exact = static_cast<double>(c.head_dim) * c.partial_rotary_factor;
      const long long hf_dim = static_cast<long long>(std::floor(exact + 1e-9));
      const std::string k = key.empty() ? block.key("partial_rotary_factor") : key;
      if (std::abs(exact - static_cast<double>(hf_dim)) > 1e-9)
        n.warn(k, "head_dim · factor = " + fmt(exact) + " is not an integer; transformers truncates it to " +
                      std::to_string(hf_dim) + " rotary dims");
      if (hf_dim % 2 != 0)
        n.warn(k, "gives an odd rotary dimension " + std::to_string(hf_dim) + ": transformers makes " +
                      std::to_string((hf_dim + 1) / 2) + " frequencies but rotate_half needs an even width; pe-viz "
                      "rotates " + std::to_string(hf_dim - 1) + " dims");
      else if (hf_dim >= 2)
        n.info(k, std::to_string(hf_dim) + " of " + std::to_string(c.head_dim) + " dims rotate");
    }
  }

  // ---- max_position_embeddings (GPT-2/GPT-J: n_positions), else the class default.
  {
    std::optional<long long> max_pos = block.integer("max_position_embeddings", 1, kMaxLength);
    std::string key = block.key("max_position_embeddings");
    if (!max_pos) {
      max_pos = block.integer("n_positions", 1, kMaxLength);
      key = block.key("n_positions");
    }
    if (max_pos) {
      n.info(key, "= " + std::to_string(*max_pos) + ": the context the model is configured for");
    } else if (defs) {
      max_pos = defs->max_position_embeddings;
      default_note(block.key("max_position_embeddings"), std::to_string(*max_pos), defs->config_class);
    } else {
      throw ConfigError(block.key("max_position_embeddings"), "missing");
    }
    c.max_position_embeddings = *max_pos;
  }

  read_convention(block, top, defs, c, n);

  // ---- The scaling block.
  ScalingRead read;
  if (main_dict) read = read_scaling(*main_dict, c, n);
  r.context.attn_factor = read.attn_factor;
  RopeScaling& s = c.scaling;

  // Top-level original_max_position_embeddings (Phi-3): standardize_rope_params gives it
  // priority over the dict's for llama3 / yarn / longrope.
  const auto top_orig = block.integer("original_max_position_embeddings", 1, kMaxLength);
  r.context.top_level_original_max_position_embeddings = top_orig;
  const bool uses_orig = s.type == RopeType::Llama3 || s.type == RopeType::Yarn || s.type == RopeType::LongRope;
  if (top_orig) {
    if (uses_orig) {
      if (read.original_given && s.original_max_position_embeddings != *top_orig)
        n.warn(block.key("original_max_position_embeddings"),
               "= " + std::to_string(*top_orig) + " differs from " + main_dict->key("original_max_position_embeddings") +
                   " = " + std::to_string(s.original_max_position_embeddings) +
                   "; transformers gives the top-level value priority (standardize_rope_params) and so does pe-viz");
      else
        n.info(block.key("original_max_position_embeddings"),
               "= " + std::to_string(*top_orig) + ": pretraining length L_orig (top level, as Phi-3 writes it)");
      s.original_max_position_embeddings = *top_orig;
      read.original_given = true;
    } else {
      n.info(block.key("original_max_position_embeddings"),
             "= " + std::to_string(*top_orig) + ": not used by rope_type \"" + to_string(s.type) + "\"");
    }
  }

  if (main_dict) {
    const std::string p = main_dict->prefix();
    switch (s.type) {
      case RopeType::Default:
        break;
      case RopeType::Linear:
        n.info(p, "linear (position interpolation): every θ_i divided by factor " + fmt(s.factor));
        break;
      case RopeType::NtkAware:
        n.info(p, "ntk: base θ·factor^(d/(d-2)) (static NTK-aware)");
        break;
      case RopeType::Dynamic:
        if (read.original_given) {
          n.warn(p + ".original_max_position_embeddings",
                 "= " + std::to_string(s.original_max_position_embeddings) +
                     ": not read by transformers' dynamic NTK, which scales from max_position_embeddings = " +
                     std::to_string(c.max_position_embeddings) + " (and neither by vLLM nor llama.cpp); pe-viz "
                     "follows transformers");
          s.original_max_position_embeddings = 0;
        }
        n.info(p, "dynamic NTK: for a sequence longer than " + std::to_string(c.max_position_embeddings) +
                      " tokens the base grows as θ·((factor·L/max_position_embeddings) − (factor − 1))^(d/(d−2))");
        break;
      case RopeType::Yarn: {
        const long long orig = c.original_max_position_embeddings();
        if (!read.original_given)
          default_note(p + ".original_max_position_embeddings", std::to_string(c.max_position_embeddings),
                       "max_position_embeddings (standardize_rope_params setdefault)");
        // _validate_yarn_rope_parameters: the explicit factor is used (#38224 / #40320); a
        // different max_position_embeddings / original ratio is reported.
        const double implicit = static_cast<double>(c.max_position_embeddings) / static_cast<double>(orig);
        if (implicit != s.factor && implicit != 1.0)
          n.warn(p + ".factor", "= " + fmt(s.factor) + " differs from max_position_embeddings / "
                                "original_max_position_embeddings = " + std::to_string(c.max_position_embeddings) +
                                " / " + std::to_string(orig) + " = " + fmt(implicit) +
                                "; transformers (since #40320) uses the explicit factor and warns");
        if (s.beta_fast < s.beta_slow)
          n.error(p + ".beta_fast", "= " + fmt(s.beta_fast) + " is below beta_slow = " + fmt(s.beta_slow) +
                                        " (transformers warns and computes an inverted ramp; pe-viz refuses)");
        if (!s.truncate)
          n.info(p + ".truncate", "false: the ramp bounds are not floored/ceiled (gpt-oss); llama.cpp's "
                                  "ggml_rope_yarn_corr_dims always rounds them");
        if (s.attention_factor) {
          n.info(p + ".attention_factor", "= " + fmt(*s.attention_factor) + ": explicit cos/sin magnitude; overrides "
                                          "0.1·ln(factor) + 1 and the mscale ratio in transformers");
        } else if (s.mscale && s.mscale_all_dim && *s.mscale != 0.0 && *s.mscale_all_dim != 0.0) {
          n.info(p + ".mscale", "mscale " + fmt(*s.mscale) + " / mscale_all_dim " + fmt(*s.mscale_all_dim) +
                                    ": magnitude get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim) = " +
                                    fmt(yarn_get_mscale(s.factor, *s.mscale) / yarn_get_mscale(s.factor, *s.mscale_all_dim)));
        } else if (s.mscale || s.mscale_all_dim) {
          n.warn(p + (s.mscale ? ".mscale" : ".mscale_all_dim"),
                 "given without its partner (mscale and mscale_all_dim): transformers' magnitude ignores it and uses "
                 "0.1·ln(factor) + 1 = " + fmt(yarn_get_mscale(s.factor, 1.0)));
        }
        if (s.mscale_all_dim && *s.mscale_all_dim != 0.0)
          n.info(p + ".mscale_all_dim", "DeepSeek-style attention also multiplies its softmax scale by get_mscale(factor, "
                                        "mscale_all_dim)² = " + fmt(std::pow(yarn_get_mscale(s.factor, *s.mscale_all_dim), 2)));
        n.info(p, "yarn: ramp between the dims turning beta_fast = " + fmt(s.beta_fast) + " and beta_slow = " +
                      fmt(s.beta_slow) + " times over L_orig = " + std::to_string(orig) + "; factor " + fmt(s.factor));
        break;
      }
      case RopeType::Llama3: {
        if (!read.original_given) {
          // v5 standardize_rope_params fills it; the validator then warns original >= max.
          s.original_max_position_embeddings = c.max_position_embeddings;
          n.warn(p + ".original_max_position_embeddings",
                 "absent; transformers fills max_position_embeddings = " + std::to_string(c.max_position_embeddings) +
                     " and warns that it must be below max_position_embeddings (the bands then sit at the full "
                     "context)");
        } else if (s.original_max_position_embeddings >= c.max_position_embeddings) {
          n.warn(p + ".original_max_position_embeddings",
                 "= " + std::to_string(s.original_max_position_embeddings) + " is not below max_position_embeddings = " +
                     std::to_string(c.max_position_embeddings) + " (transformers warns)");
        }
        if (s.high_freq_factor == s.low_freq_factor) {
          n.info(p + ".high_freq_factor",
                 "= low_freq_factor = " + fmt(s.low_freq_factor) + ": no blended band — wavelengths below L_orig/" +
                     fmt(s.low_freq_factor) + " keep θ_i, longer ones get θ_i/factor. transformers logs \"high_freq_factor "
                     "must be greater than low_freq_factor\" and computes exactly that (Llama 4 Scout ships it)");
        } else if (s.high_freq_factor < s.low_freq_factor) {
          n.warn(p + ".high_freq_factor",
                 "= " + fmt(s.high_freq_factor) + " is below low_freq_factor = " + fmt(s.low_freq_factor) +
                     ": transformers warns and computes a single step at wavelength L_orig/low_freq_factor; vLLM and "
                     "llama.cpp keep θ_i up to L_orig/high_freq_factor instead");
        }
        n.info(p, "llama3: wavelengths below L_orig/high_freq_factor = " +
                      fmt(static_cast<double>(s.original_max_position_embeddings) / s.high_freq_factor) +
                      " keep θ_i, above L_orig/low_freq_factor = " +
                      fmt(static_cast<double>(s.original_max_position_embeddings) / s.low_freq_factor) +
                      " get θ_i/" + fmt(s.factor) + ", blended between");
        break;
      }
      case RopeType::LongRope: {
        const long long orig = read.original_given ? s.original_max_position_embeddings : c.max_position_embeddings;
        if (!read.original_given)
          n.info(p + ".original_max_position_embeddings",
                 "absent; transformers fills max_position_embeddings = " + std::to_string(c.max_position_embeddings) +
                     ", so the long factors are used only past it");
        const double derived = static_cast<double>(c.max_position_embeddings) / static_cast<double>(orig);
        if (read.factor_given && read.original_given && s.factor != derived) {
          // v5 _compute_longrope_parameters: an explicit factor wins for the attention factor.
          // pe-viz's scaling derives max/orig when L_orig is given; the explicit magnitude keeps
          // it at transformers' value.
          if (!s.attention_factor)
            s.attention_factor = s.factor <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(s.factor) / std::log(static_cast<double>(orig)));
          n.warn(p + ".factor", "= " + fmt(s.factor) + " differs from max_position_embeddings / "
                                "original_max_position_embeddings = " + fmt(derived) + "; transformers uses the "
                                "explicit factor for the attention factor (sqrt(1 + ln(factor)/ln(L_orig)) = " +
                                fmt(*s.attention_factor) + "), vLLM and llama.cpp use the ratio");
        } else if (!read.factor_given && read.original_given) {
          n.info(p, "factor derived as max_position_embeddings / original_max_position_embeddings = " + fmt(derived) +
                        " (transformers logs a recommendation to set factor instead)");
        }
        n.info(p, "longrope: θ_i divided by short_factor[i] up to " + std::to_string(orig) +
                      " tokens, by long_factor[i] beyond (transformers switches on the current length)");
        break;
      }
    }
  }

  // Keys at the language model's top level: misspellings, and the layer keys' uses.
  check_top_level_keys(block, n);
  if (r.text_block.size()) check_top_level_keys(top, n);
  for (const auto& tk : kTopKeysUse)
    if (const json* v = block.find(tk.key)) n.info(block.key(tk.key), "= " + brief(*v) + ": " + tk.use);

  // ---- Layer schedule (the layer plan's input), from the keys and the class's rules.
  LayerSchedule& ls = r.schedule;
  ls.qk_nope_head_dim = qk_nope;
  if (auto v = block.integer("num_hidden_layers", 1, kMaxLayers)) ls.num_layers = *v;
  else if (defs) {
    ls.num_layers = defs->num_hidden_layers;
    ls.notes.push_back({Severity::Info, block.key("num_hidden_layers"),
                        "absent; " + std::to_string(ls.num_layers) + " from " + defs->config_class});
  }
  const long long L = ls.num_layers;
  // sliding_window: null in the file means none; absent takes the class default.
  if (block.present("sliding_window")) {
    ls.sliding_window = nonneg_or(block.integer("sliding_window", 1, kMaxLength), 0);
  } else if (defs && defs->sliding_window) {
    ls.sliding_window = *defs->sliding_window;
  }
  if (auto explicit_types = block.string_list("layer_types")) {
    ls.layer_types = *explicit_types;
    if (!L && !ls.layer_types.empty())
      ls.num_layers = std::min<long long>(static_cast<long long>(ls.layer_types.size()), kMaxLayers);
    if (L && static_cast<long long>(ls.layer_types.size()) != L)
      n.error(block.key("layer_types"), std::to_string(ls.layer_types.size()) + " entries for num_hidden_layers = " +
                                            std::to_string(L) + " (transformers' layer_type_validation refuses this)");
  } else if (defs && L > 0) {
    ls.layer_types.assign(static_cast<std::size_t>(L), "full_attention");
    switch (defs->layer_rule) {
      case LayerRule::Uniform:
        if (ls.sliding_window > 0 && model_type == "mistral")
          for (auto& t : ls.layer_types) t = "sliding_attention";
        break;
      case LayerRule::AlternateSlidingFirst:
        for (long long i = 0; i < L; ++i) ls.layer_types[i] = (i + 1) % 2 ? "sliding_attention" : "full_attention";
        ls.notes.push_back({Severity::Info, "layer_types", std::string("absent; ") + defs->config_class +
                                                               " alternates sliding (even layers) and full attention"});
        break;
      case LayerRule::SlidingUnlessNth: {
        long long period = defs->layer_period;
        if (auto v = block.integer("sliding_window_pattern", 1, 1 << 20)) period = *v;
        else if (auto w = block.integer("_sliding_window_pattern", 1, 1 << 20)) period = *w;
        for (long long i = 0; i < L; ++i)
          ls.layer_types[i] = (i + 1) % period ? "sliding_attention" : "full_attention";
        ls.notes.push_back({Severity::Info, "layer_types", "absent; every " + std::to_string(period) +
                                                               "th layer attends globally, the others slide (" +
                                                               defs->config_class + ")"});
        break;
      }
      case LayerRule::NoRopeEveryNth: {
        std::vector<double> flags;
        if (auto v = block.number_list("no_rope_layers")) flags = *v;
        long long interval = defs->layer_period;
        if (auto v = block.integer("no_rope_layer_interval", 1, 1 << 20)) interval = *v;
        ls.rotary.assign(static_cast<std::size_t>(L), true);
        if (flags.empty()) {
          // Llama4TextConfig: no_rope_layers == [] → default int((i + 1) % interval != 0).
          for (long long i = 0; i < L; ++i) ls.rotary[i] = (i + 1) % interval != 0;
          ls.notes.push_back({Severity::Info, block.key("no_rope_layers"),
                              std::string(block.has("no_rope_layers") ? "empty" : "absent") + "; every " +
                                  std::to_string(interval) + "th layer has no RoPE (Llama4TextConfig default)"});
        } else {
          if (static_cast<long long>(flags.size()) < L)
            n.error(block.key("no_rope_layers"), std::to_string(flags.size()) + " entries for " + std::to_string(L) +
                                                     " layers (transformers needs at least one per layer)");
          for (long long i = 0; i < L && i < static_cast<long long>(flags.size()); ++i) ls.rotary[i] = flags[i] != 0.0;
        }
        for (long long i = 0; i < L; ++i) ls.layer_types[i] = ls.rotary[i] ? "chunked_attention" : "full_attention";
        break;
      }
      case LayerRule::SlidingFromMaxWindowLayers: {
        const bool use = block.boolean("use_sliding_window").value_or(false);
        long long first = defs->layer_period;
        if (auto v = block.integer("max_window_layers", 0, 1 << 20)) first = *v;
        if (use && ls.sliding_window > 0)
          for (long long i = first; i < L; ++i) ls.layer_types[i] = "sliding_attention";
        else if (ls.sliding_window > 0 && block.has("sliding_window"))
          n.info(block.key("sliding_window"), "set, but use_sliding_window is false: every layer attends fully");
        break;
      }
    }
  }
  if (defs && defs->layer_rule == LayerRule::NoRopeEveryNth) {
    ls.attention_chunk_size = defs->attention_chunk_size;
    if (block.present("attention_chunk_size")) ls.attention_chunk_size = nonneg_or(block.integer("attention_chunk_size", 1, kMaxLength), 0);
  }
  if (defs && defs->full_layers_without_rope && !ls.layer_types.empty()) {
    ls.rotary.assign(ls.layer_types.size(), true);
    for (std::size_t i = 0; i < ls.layer_types.size(); ++i) ls.rotary[i] = ls.layer_types[i] == "sliding_attention";
    ls.notes.push_back({Severity::Info, "layer_types", std::string("global (full-attention) layers have no positional "
                                                                   "encoding; only sliding layers rotate (") +
                                                           defs->config_class + ")"});
  }
  // Per-layer-type RoPE: v5 rope_parameters per type, or Gemma 3's local base.
  auto sub_config = [&](const Fields& f) {
    RopeConfig sub = c;
    sub.scaling = RopeScaling{};
    if (auto t = f.number("rope_theta")) sub.theta = *t;
    if (auto pr = f.number("partial_rotary_factor")) sub.partial_rotary_factor = *pr;
    std::vector<Diagnostic> ignored;
    Notes quiet(ignored);
    if (f.has("rope_type") || f.has("type")) read_scaling(f, sub, quiet);
    return sub;
  };
  if (per_type) {
    for (auto it = params->object_json().begin(); it != params->object_json().end(); ++it) {
      if (!it->is_object()) continue;
      ls.per_type[it.key()] = sub_config(Fields(*it, params->key(it.key())));
    }
  } else if (defs && defs->local_rope_theta) {
    RopeConfig local = c;
    local.scaling = RopeScaling{};  // Gemma3TextModel: the local rotary embedding is plain RoPE
    if (auto v = block.number("rope_local_base_freq")) {
      local.theta = *v;
    } else {
      local.theta = *defs->local_rope_theta;
      n.info(block.key("rope_local_base_freq"), "absent; " + fmt(local.theta) + " (sliding layers' base) from " +
                                                    defs->config_class);
    }
    ls.per_type["sliding_attention"] = local;
    if (s.type != RopeType::Default)
      n.info(main_dict ? main_dict->prefix() : "rope_scaling",
             std::string(to_string(s.type)) + " scaling applies to the global layers only; sliding layers use plain RoPE "
             "with base " + fmt(local.theta) + " (Gemma3TextConfig puts rope_scaling into full_attention)");
  }

  // ---- Framework hints.
  r.context.model_type = model_type;
  r.context.deepseek_attention = model_type == "deepseek_v2" || model_type == "deepseek_v3";

  // ---- What pe-viz can compute.
  try {
    validate(c);
  } catch (const InvalidArgument& e) {
    // validate() names fields "rope_scaling.x"; report the block the file actually used.
    std::string key = e.parameter();
    const std::string blk = main_dict ? main_dict->prefix() : std::string("rope_scaling");
    if (key.rfind("rope_scaling.", 0) == 0) key = blk + key.substr(std::string("rope_scaling").size());
    n.error(key, "got " + e.value() + "; allowed: " + e.allowed());
  }
  for (const auto& d : r.loaded.diagnostics)
    if (d.severity == Severity::Error) r.valid = false;
  return r;
}

void throw_first_error(const Resolution& r) {
  for (const auto& d : r.loaded.diagnostics)
    if (d.severity == Severity::Error) throw ConfigError(d.key, d.message);
  throw ConfigError("", "invalid configuration");
}

namespace {

std::string strip_nlohmann_prefix(std::string what) {
  // "[json.exception.parse_error.101] parse error at line 3, column 1: ..." → from "parse error".
  if (!what.empty() && what.front() == '[') {
    const auto end = what.find("] ");
    if (end != std::string::npos) what = what.substr(end + 2);
  }
  return what;
}

// SAX listener that only tracks where the parser is ("rope_scaling.long_factor[3]"), so a
// syntax error can be reported against the key it occurred in.
class KeyPathTracker : public nlohmann::json_sax<json> {
 public:
  std::string error_path;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    stack_.push_back({false, {}, 0});
    return true;
  }
  bool key(string_t& k) override {
    if (!stack_.empty()) stack_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    stack_.push_back({true, {}, 0});
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    for (const Frame& f : stack_) {
      if (error_path.size() > 120) {  // absurdly deep input: the start is enough
        error_path += "...";
        break;
      }
      // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + std::string.
      if (f.array) {
        error_path += '[';
        error_path += std::to_string(f.index);
        error_path += ']';
      } else if (!f.key.empty()) {
        if (!error_path.empty()) error_path += '.';
        error_path += f.key;
      }
    }
    return false;
  }

 private:
  struct Frame {
    bool array;
    std::string key;
    std::size_t index;
  };
  // A finished value: the next array slot, or no key until the next one is read (an
  // error between members belongs to the enclosing object).
  bool value() {
    if (stack_.empty()) return true;
    if (stack_.back().array) ++stack_.back().index;
    else stack_.back().key.clear();
    return true;
  }
  bool close() {
    if (!stack_.empty()) stack_.pop_back();
    return value();
  }
  std::vector<Frame> stack_;
};

}  // namespace

json parse_json_text(const std::string& json_text) {
  try {
    return json::parse(json_text);
  } catch (const json::exception& e) {
    // parse_error for syntax, out_of_range for "number overflow" (1e400). Re-read up to
    // the error to say which key it is in; the message keeps nlohmann's line/column.
    KeyPathTracker tracker;
    try {
      json::sax_parse(json_text, &tracker);
    } catch (const json::exception&) {
    }
    std::string message = strip_nlohmann_prefix(e.what());
    if (const auto* pe = dynamic_cast<const json::parse_error*>(&e)) message += " (byte " + std::to_string(pe->byte) + ")";
    throw ConfigError(tracker.error_path, message);
  }
}

}  // namespace detail

namespace {

using detail::json;

detail::Resolution resolve_text(const std::string& json_text, const std::string& name) {
  const json root = detail::parse_json_text(json_text);
  try {
    return resolve_multimodal_config(root, name, detail::resolve_config);
  } catch (const ConfigError&) {
    throw;
  } catch (const json::exception& e) {
    // Not expected (every access is type-checked) but never let a library exception escape.
    std::string what = e.what();
    if (const auto end = what.find("] "); !what.empty() && what.front() == '[' && end != std::string::npos)
      what = what.substr(end + 2);
    throw ConfigError("", what);
  }
}

std::string read_config_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw ConfigError("", "cannot read " + path.string() + ": " + ec.message());
  // Real config.json files are a few KiB; refuse anything absurd instead of reading it.
  constexpr std::uintmax_t kMaxBytes = 64u << 20;
  if (size > kMaxBytes) throw ConfigError("", path.string() + " is too large for a config.json (" + std::to_string(size) + " bytes)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("", "cannot open " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError("", "error reading " + path.string());
  return text.str();
}

// Name it after the model directory when the file is the usual <model>/config.json.
std::string config_name(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  if (name == "config.json" && path.has_parent_path() && !path.parent_path().filename().empty())
    name = path.parent_path().filename().string();
  return name;
}

struct PresetEntry {
  PresetInfo info;
  RopeConfig config;
  std::string text;
};

const std::vector<PresetEntry>& preset_table() {
  // Parsed once; the GUI may list presets every frame.
  static const std::vector<PresetEntry> table = [] {
    std::vector<PresetEntry> out;
    for (const auto& file : pe_presets::files()) {
      const std::string file_name = file.name;
      std::string stem = file_name;
      if (const auto dot = stem.rfind('.'); dot != std::string::npos) stem.resize(dot);
      RopeConfig c;
      std::string text(file.text());
      try {
        c = parse_hf_config(text, stem);
      } catch (const ConfigError& e) {
        throw ConfigError(e.key(), std::string("embedded preset ") + file_name + ": " + e.what());
      }
      out.push_back({PresetInfo{c.name, c.title.empty() ? c.name : c.title, c.source}, std::move(c), std::move(text)});
    }
    // The teaching preset first (the app's default), the rest by key.
    std::sort(out.begin(), out.end(), [](const PresetEntry& a, const PresetEntry& b) {
      const bool ta = a.info.key == kTeachingPreset, tb = b.info.key == kTeachingPreset;
      if (ta != tb) return ta;
      return a.info.key < b.info.key;
    });
    return out;
  }();
  return table;
}

const PresetEntry& find_preset(const std::string& key) {
  const auto& table = preset_table();
  for (const auto& e : table)
    if (e.info.key == key) return e;
  std::string keys;
  for (const auto& e : table) keys += (keys.empty() ? "" : ", ") + e.info.key;
  throw InvalidArgument("preset", "\"" + key + "\"", "one of the bundled presets: " + keys);
}

}  // namespace

LoadedConfig parse_hf_config_diagnosed(const std::string& json_text, const std::string& name) {
  detail::Resolution r = resolve_text(json_text, name);
  if (!r.valid) detail::throw_first_error(r);
  return std::move(r.loaded);
}

LoadedConfig load_hf_config_diagnosed(const std::filesystem::path& path) {
  return parse_hf_config_diagnosed(read_config_file(path), config_name(path));
}

RopeConfig parse_hf_config(const std::string& json_text, const std::string& name) {
  return parse_hf_config_diagnosed(json_text, name).config;
}

RopeConfig load_hf_config(const std::filesystem::path& path) { return load_hf_config_diagnosed(path).config; }

std::vector<PresetInfo> list_presets() {
  std::vector<PresetInfo> out;
  for (const auto& e : preset_table()) out.push_back(e.info);
  return out;
}

RopeConfig load_preset(const std::string& key) { return find_preset(key).config; }

std::string preset_text(const std::string& key) { return find_preset(key).text; }

// ---- Inspector entry points (pe/models/config_diagnostics.hpp).

namespace {
InspectedConfig from_resolution(detail::Resolution r, std::string source) {
  InspectedConfig out;
  out.loaded = std::move(r.loaded);
  out.valid = r.valid;
  out.source = std::move(source);
  out.model_type = std::move(r.model_type);
  out.text_block = std::move(r.text_block);
  out.frameworks = std::move(r.context);
  out.shape = std::move(r.shape);
  if (out.valid) {
    out.plan = layer_plan(out.loaded.config, r.schedule);
  } else {
    out.plan.notes = r.schedule.notes;
  }
  return out;
}

InspectedConfig inspect_text(const std::string& json_text, const std::string& name, const std::string& source) {
  const json root = detail::parse_json_text(json_text);
  try {
    return from_resolution(resolve_multimodal_config(root, name, detail::resolve_config), source);
  } catch (const ConfigError& e) {
    // A value of the wrong JSON type: nothing consistent to show beyond the error.
    InspectedConfig out;
    out.valid = false;
    out.source = source;
    out.loaded.config.name = name;
    out.loaded.diagnostics.push_back({Severity::Error, e.key(), e.key().empty() ? e.what() : std::string(e.what()).substr(e.key().size() + 2)});
    return out;
  }
}
}  // namespace

InspectedConfig inspect_hf_config(const std::string& json_text, const std::string& name) {
  return inspect_text(json_text, name, name);
}

InspectedConfig inspect_hf_config_file(const std::filesystem::path& path) {
  return inspect_text(read_config_file(path), config_name(path), path.string());
}

InspectedConfig inspect_preset(const std::string& key) {
  const PresetEntry& e = find_preset(key);
  return inspect_text(e.text, key, "preset:" + key);
}

InspectedConfig inspect_loaded(const LoadedConfig& loaded, const std::string& source) {
  InspectedConfig out;
  out.loaded = loaded;
  out.source = source;
  for (const auto& d : loaded.diagnostics)
    if (d.severity == Severity::Error) out.valid = false;
  try {
    validate(loaded.config);
  } catch (const InvalidArgument& e) {
    out.valid = false;
    out.loaded.diagnostics.push_back({Severity::Error, e.parameter(), "got " + e.value() + "; allowed: " + e.allowed()});
  }
  if (out.valid) out.plan = layer_plan(out.loaded);
  return out;
}

LayerPlan layer_plan(const std::string& config_json_text) {
  detail::Resolution r = resolve_text(config_json_text, "config.json");
  if (!r.valid) detail::throw_first_error(r);
  return layer_plan(r.loaded.config, r.schedule);
}

}  // namespace pe
