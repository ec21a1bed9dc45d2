// The widths and the context: head_dim (MLA's rotary part), the rotary fraction, the
// configured context, and the model's shape (heads, kv heads) for the weights readers.
//
// Reference: transformers' RotaryEmbeddingConfigMixin (modeling_rope_utils.py, v5:
// convert_rope_params_to_dict, standardize_rope_params, _validate_<type>_rope_parameters) and
// each model's configuration_<model>.py for its defaults (pe/models/model_defaults.hpp). Read at
// zucchini-nlp/transformers@26892c16 (tracks main, after #40320's explicit YaRN factor).
// Where transformers accepts a config and only logs a warning, pe-viz accepts it too and says
// so in a diagnostic; where transformers raises (a missing required key), pe-viz refuses.
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>

#include "config_reading.hpp"
#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"

namespace pe::detail {

// MLA (DeepSeek-V2/V3, MiniCPM3) rotates only qk_rope_head_dim dims per head.
void read_head_dim(ConfigReading& rd) {
  RopeConfig& c = rd.c();
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  long long& qk_nope = rd.qk_nope;
  const auto hidden = class_width(rd, "hidden_size", 1, std::numeric_limits<long long>::max() / 2);
  const auto heads = class_width(rd, "num_attention_heads", 1, std::numeric_limits<long long>::max() / 2);
  const auto nope = block.integer("qk_nope_head_dim", 0, kMaxDim);
  if (auto rope_dim = block.integer("qk_rope_head_dim", 1, kMaxDim)) {
    c.head_dim = *rope_dim;
    qk_nope = nope ? *nope : (defs && defs->qk_nope_head_dim ? *defs->qk_nope_head_dim : 0);
    n.info(block.key("qk_rope_head_dim"), "= " + std::to_string(*rope_dim) + ": MLA — only these dims of each q/k "
                                          "head rotate" + (qk_nope ? " (qk_nope_head_dim = " + std::to_string(qk_nope) +
                                                                         " more do not)" : std::string()));
  } else if (defs && defs->qk_rope_head_dim) {
    c.head_dim = *defs->qk_rope_head_dim;
    qk_nope = nope ? *nope : defs->qk_nope_head_dim.value_or(0);
    rd.default_note(block.key("qk_rope_head_dim"), std::to_string(c.head_dim), defs->config_class);
  } else if (auto h = block.integer("head_dim", 1, kMaxDim)) {
    c.head_dim = *h;
    n.info(block.key("head_dim"), "= " + std::to_string(*h) + ": dims per q/k head");
    if (hidden && heads && *hidden / *heads != *h)
      n.info(block.key("head_dim"), "differs from hidden_size / num_attention_heads = " +
                                        std::to_string(*hidden / *heads) + "; transformers uses head_dim (set "
                                        "explicitly, as Gemma and Mistral-Nemo do)");
  } else if (defs && defs->head_dim) {
    c.head_dim = *defs->head_dim;
    rd.default_note(block.key("head_dim"), std::to_string(c.head_dim), defs->config_class);
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
    if (!hidden) rd.default_note(block.key("hidden_size"), std::to_string(hs), defs->config_class);
    if (!heads) rd.default_note(block.key("num_attention_heads"), std::to_string(nh), defs->config_class);
    if (hs % nh != 0)
      n.warn(block.key("hidden_size"), std::to_string(hs) + " / num_attention_heads " + std::to_string(nh) +
                                           " is not an integer; transformers floors it to head_dim " +
                                           std::to_string(d));
    else
      n.info(block.key("hidden_size"), "head_dim = hidden_size / num_attention_heads = " + std::to_string(hs) + " / " +
                                           std::to_string(nh) + " = " + std::to_string(d));
  }
  // Gemma 4: the full-attention layers' heads are global_head_dim wide (transformers keeps it
  // per layer as per_layer_config); the main configuration is the full-attention one.
  if (auto g = block.integer("global_head_dim", 2, kMaxDim); g && rd.dicts.per_type) {
    rd.local_head_dim = c.head_dim;
    c.head_dim = *g;
    n.info(block.key("global_head_dim"), "= " + std::to_string(*g) + ": head width of the full-attention layers (the "
                                         "main configuration); sliding layers keep head_dim = " +
                                         std::to_string(rd.local_head_dim));
  }
}

// The dict's > partial_rotary_factor > rotary_pct (GPT-NeoX) > rotary_dim (GPT-J).
void read_partial_rotary(ConfigReading& rd) {
  RopeConfig& c = rd.c();
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  const std::optional<Fields>& main_dict = rd.dicts.main;
  c.partial_rotary_factor = 1.0;
  std::optional<double> f;
  std::string& key = rd.partial_rotary_key;
  // transformers v5 keeps the factor in rope_parameters, but standardize_rope_params, which
  // every RoPE init function runs again, overwrites it with a top-level attribute: the top
  // level wins when the frequencies are computed. Qwen3.5 / Qwen3-Next / GLM-4.5V set that
  // attribute themselves (kwargs.setdefault) when config.json has none.
  const std::optional<double> top = block.number("partial_rotary_factor");
  const std::optional<double> in_dict = main_dict ? main_dict->number("partial_rotary_factor") : std::nullopt;
  if (top) {
    f = top, key = block.key("partial_rotary_factor");
    if (in_dict && *in_dict != *top)
      n.warn(main_dict->key("partial_rotary_factor"),
             "= " + fmt(*in_dict) + " differs from the top-level partial_rotary_factor = " + fmt(*top) +
                 "; transformers' standardize_rope_params (re-run by every RoPE init function) gives the top-level "
                 "value priority, and so does pe-viz");
  } else if (in_dict) {
    if (defs && defs->partial_rotary_factor_at_top_level && *in_dict != defs->partial_rotary_factor) {
      n.warn(main_dict->key("partial_rotary_factor"),
             "= " + fmt(*in_dict) + " is overridden by the top-level " + fmt(defs->partial_rotary_factor) + " that " +
                 defs->config_class + " sets when config.json has none (transformers computes with that)");
    } else {
      f = in_dict, key = main_dict->key("partial_rotary_factor");
    }
  }
  if (!f && !(defs && defs->partial_rotary_factor_at_top_level))
    if (auto v = block.number("rotary_pct")) f = v, key = block.key("rotary_pct");
  if (!f && !(defs && defs->partial_rotary_factor_at_top_level)) {
    if (auto v = block.integer("rotary_dim", 1, kMaxDim)) {
      if (*v > c.head_dim)
        throw ConfigError(block.key("rotary_dim"),
                          "got " + std::to_string(*v) + ", larger than head_dim = " + std::to_string(c.head_dim));
      f = static_cast<double>(*v) / static_cast<double>(c.head_dim);
      key = block.key("rotary_dim");
    }
  }
  const bool proportional = main_dict && ascii_lower(main_dict->string("rope_type").value_or("")) == "proportional";
  if (f) {
    c.partial_rotary_factor = *f;
    n.info(key, "= " + fmt(*f) + (proportional ? ": proportional RoPE keeps the fastest int(head_dim · factor // 2) pairs"
                                               : ": the first int(head_dim · factor) dims of each head rotate"));
  } else if (defs && defs->partial_rotary_factor != 1.0) {
    c.partial_rotary_factor = defs->partial_rotary_factor;
    key = block.key("partial_rotary_factor");
    rd.default_note(key, fmt(defs->partial_rotary_factor), defs->config_class);
  }
  if (c.partial_rotary_factor > 0.0 && c.partial_rotary_factor < 1.0 && !proportional) {
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

// max_position_embeddings (GPT-2/GPT-J: n_positions), else the class default.
void read_max_positions(ConfigReading& rd) {
  RopeConfig& c = rd.c();
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
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
    rd.default_note(block.key("max_position_embeddings"), std::to_string(*max_pos), defs->config_class);
  } else {
    throw ConfigError(block.key("max_position_embeddings"), "missing");
  }
  c.max_position_embeddings = *max_pos;
}

namespace {

// The shape is read after everything RoPE needs and never refuses a file: a value of the wrong
// kind leaves its number 0, and the weights readers, which need it, say which key is missing.
std::optional<long long> lenient_integer(const Fields& block, const char* key) {
  try {
    return block.integer(key, 1, std::numeric_limits<long long>::max() / 2);
  } catch (const ConfigError&) {
    return std::nullopt;
  }
}

long long first_of(const Fields& block, std::initializer_list<const char*> keys, long long fallback) {
  for (const char* k : keys)
    if (auto v = lenient_integer(block, k)) return *v;
  return fallback;
}

}  // namespace

void read_shape(ConfigReading& rd) {
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  ModelShape& shape = rd.r.shape;
  shape.model_type = rd.r.model_type;
  try {
    if (auto a = rd.top.string_list("architectures")) shape.architectures = *a;
  } catch (const ConfigError&) {
  }
  shape.hidden_size = first_of(block, {"hidden_size", "n_embd", "d_model"}, defs ? defs->hidden_size : 0);
  shape.num_hidden_layers = rd.r.schedule.num_layers;
  shape.num_attention_heads = first_of(block, {"num_attention_heads", "n_head"}, defs ? defs->num_attention_heads : 0);
  // GQA; multi_query (Falcon) means one key/value head.
  long long kv = first_of(block, {"num_key_value_heads", "num_kv_heads", "n_head_kv"}, 0);
  if (const json* mq = block.find("multi_query"); !kv && mq && mq->is_boolean() && mq->get<bool>()) kv = 1;
  shape.num_key_value_heads = kv ? kv : shape.num_attention_heads;
  const long long rope_dim = first_of(block, {"qk_rope_head_dim"}, defs && defs->qk_rope_head_dim ? *defs->qk_rope_head_dim : 0);
  if (rope_dim) {
    shape.qk_rope_head_dim = rope_dim;
    shape.qk_nope_head_dim = rd.qk_nope;
    shape.head_dim = rd.qk_nope + rope_dim;
    shape.v_head_dim = first_of(block, {"v_head_dim"}, 0);
    shape.kv_lora_rank = first_of(block, {"kv_lora_rank"}, 0);
    shape.q_lora_rank = first_of(block, {"q_lora_rank"}, 0);
  } else {
    shape.head_dim = rd.c().head_dim;
  }
}

}  // namespace pe::detail
