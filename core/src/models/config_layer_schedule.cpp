// The layer plan's input: how many layers, which attend in a window or chunk, which rotate
// (NoPE layers), from layer_types or the config class's rule; and each layer type's own RoPE
// (v5 rope_parameters per type, Gemma 3's local base).
//
// Reference: transformers' RotaryEmbeddingConfigMixin (modeling_rope_utils.py, v5:
// convert_rope_params_to_dict, standardize_rope_params, _validate_<type>_rope_parameters) and
// each model's configuration_<model>.py for its defaults (pe/models/model_defaults.hpp). Read at
// zucchini-nlp/transformers@26892c16 (tracks main, after #40320's explicit YaRN factor).
// Where transformers accepts a config and only logs a warning, pe-viz accepts it too and says
// so in a diagnostic; where transformers raises (a missing required key), pe-viz refuses.
#include <algorithm>
#include <string>
#include <vector>

#include "config_reading.hpp"
#include "pe/base/errors.hpp"

namespace pe::detail {
namespace {

long long nonneg_or(const std::optional<long long>& v, long long fallback) { return v ? *v : fallback; }

// Llama4TextConfig / SmolLM3Config: no_rope_layers (1 = RoPE; empty or absent: the default
// int((i + 1) % no_rope_layer_interval != 0)); SmolLM3's is read whether or not layer_types is
// given (v5 saves write both).
void read_no_rope_flags(ConfigReading& rd, LayerSchedule& ls, long long L) {
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  std::vector<double> flags;
  if (auto v = block.number_list("no_rope_layers")) flags = *v;
  long long interval = defs->layer_period;
  if (auto v = block.integer("no_rope_layer_interval", 1, 1 << 20)) interval = *v;
  ls.rotary.assign(static_cast<std::size_t>(L), true);
  if (flags.empty()) {
    for (long long i = 0; i < L; ++i) ls.rotary[i] = (i + 1) % interval != 0;
    ls.notes.push_back({Severity::Info, block.key("no_rope_layers"),
                        std::string(block.has("no_rope_layers") ? "empty" : "absent") + "; every " +
                            std::to_string(interval) + "th layer has no RoPE (" + defs->config_class + " default)"});
    return;
  }
  if (static_cast<long long>(flags.size()) < L)
    rd.n.error(block.key("no_rope_layers"), std::to_string(flags.size()) + " entries for " + std::to_string(L) +
                                                " layers (transformers needs at least one per layer)");
  for (long long i = 0; i < L && i < static_cast<long long>(flags.size()); ++i) ls.rotary[i] = flags[i] != 0.0;
}

// transformers' ALLOWED_LAYER_TYPES (configuration_utils.py), and the legacy names its
// remap_legacy_layer_types turns into them ("mamba", "attention").
bool known_layer_type(const std::string& type) {
  static const char* const kKnown[] = {"full_attention", "sliding_attention", "chunked_attention", "window_attention",
                                       "compressed_sparse_attention", "heavily_compressed_attention", "minimax_m3_sparse",
                                       "conv", "moe", "hybrid", "hybrid_sliding", "deepseek_sparse_attention",
                                       "linear_attention", "sparse", "dense", "mamba", "attention"};
  for (const char* k : kKnown)
    if (type == k) return true;
  return false;
}

// The class's rule for a config.json without layer_types (layer_types already holds L
// "full_attention" entries).
void apply_layer_rule(ConfigReading& rd, LayerSchedule& ls, long long L) {
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  const std::string& model_type = rd.r.model_type;
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
    case LayerRule::NoRopeEveryNth:
      // Llama4TextConfig: the RoPE layers attend in chunks, the NoPE ones fully.
      read_no_rope_flags(rd, ls, L);
      for (long long i = 0; i < L; ++i) ls.layer_types[i] = ls.rotary[i] ? "chunked_attention" : "full_attention";
      break;
    case LayerRule::LinearUnlessNth: {
      // Qwen3NextConfig / Qwen3_5TextConfig: linear attention (Gated DeltaNet) except every
      // full_attention_interval-th layer.
      long long interval = defs->layer_period;
      if (auto v = block.integer("full_attention_interval", 1, 1 << 20)) interval = *v;
      for (long long i = 0; i < L; ++i) ls.layer_types[i] = (i + 1) % interval ? "linear_attention" : "full_attention";
      ls.notes.push_back({Severity::Info, "layer_types", "absent; every " + std::to_string(interval) +
                                                             "th layer attends fully, the others are linear attention (" +
                                                             defs->config_class + ")"});
      break;
    }
    case LayerRule::NoRopeEveryNthDense:
      read_no_rope_flags(rd, ls, L);
      break;
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

// transformers' standardize_rope_params indexes rope_parameters[layer_type] for every entry of
// layer_types: a type without a block is a KeyError there; a null block is a NoPE layer type.
void check_layer_types_have_rope(ConfigReading& rd) {
  LayerSchedule& ls = rd.r.schedule;
  const Fields& params = *rd.dicts.params;
  for (std::size_t i = 0; i < ls.layer_types.size(); ++i) {
    const std::string& type = ls.layer_types[i];
    if (!params.present(type.c_str())) {
      std::string have;
      for (auto it = params.object_json().begin(); it != params.object_json().end(); ++it)
        have += (have.empty() ? "" : ", ") + it.key();
      rd.n.error(rd.block.key("layer_types") + "[" + std::to_string(i) + "]",
                 "\"" + type + "\" has no block in " + params.prefix() + " (it has " + have +
                     "); transformers' standardize_rope_params fails with KeyError. Give " + params.key(type) +
                     " (null for layers without RoPE)");
      return;
    }
    if (!params.has(type.c_str())) {
      if (ls.rotary.empty()) ls.rotary.assign(ls.layer_types.size(), true);
      ls.rotary[i] = false;
    }
  }
  for (auto it = params.object_json().begin(); it != params.object_json().end(); ++it)
    if (it->is_null())
      rd.n.info(params.key(it.key()), "null: layers of this type have no positional encoding (NoPE)");
}

}  // namespace

void read_layer_schedule(ConfigReading& rd) {
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  const long long qk_nope = rd.qk_nope;
  LayerSchedule& ls = rd.r.schedule;
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
    for (std::size_t i = 0; i < ls.layer_types.size(); ++i)
      if (!known_layer_type(ls.layer_types[i])) {
        n.error(block.key("layer_types") + "[" + std::to_string(i) + "]",
                "\"" + ls.layer_types[i] + "\" is not a layer type transformers knows (layer_type_validation raises "
                "ValueError); e.g. full_attention, sliding_attention, chunked_attention, linear_attention");
        break;
      }
  } else if (defs && L > 0) {
    ls.layer_types.assign(static_cast<std::size_t>(L), "full_attention");
    apply_layer_rule(rd, ls, L);
  }
  if (defs && defs->layer_rule == LayerRule::NoRopeEveryNth) {
    ls.attention_chunk_size = defs->attention_chunk_size;
    if (block.present("attention_chunk_size")) ls.attention_chunk_size = nonneg_or(block.integer("attention_chunk_size", 1, kMaxLength), 0);
  }
  if (defs && defs->layer_rule == LayerRule::NoRopeEveryNthDense && block.has("layer_types") && ls.num_layers > 0)
    read_no_rope_flags(rd, ls, ls.num_layers);
  // Linear-attention layers (Qwen3-Next, Qwen3.5: Gated DeltaNet) have no positional encoding.
  if (std::find(ls.layer_types.begin(), ls.layer_types.end(), "linear_attention") != ls.layer_types.end()) {
    if (ls.rotary.empty()) ls.rotary.assign(ls.layer_types.size(), true);
    for (std::size_t i = 0; i < ls.layer_types.size(); ++i)
      if (ls.layer_types[i] == "linear_attention") ls.rotary[i] = false;
    ls.notes.push_back({Severity::Info, "layer_types", "linear_attention layers (Gated DeltaNet) have no positional "
                                                       "encoding; only the full-attention layers rotate"});
  }
  if (defs && defs->full_layers_without_rope && !ls.layer_types.empty()) {
    ls.rotary.assign(ls.layer_types.size(), true);
    for (std::size_t i = 0; i < ls.layer_types.size(); ++i) ls.rotary[i] = ls.layer_types[i] == "sliding_attention";
    ls.notes.push_back({Severity::Info, "layer_types", std::string("global (full-attention) layers have no positional "
                                                                   "encoding; only sliding layers rotate (") +
                                                           defs->config_class + ")"});
  }
}

void read_per_type_rope(ConfigReading& rd) {
  RopeConfig& c = rd.c();
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const ModelDefaults* defs = rd.defs;
  const RopeScaling& s = c.scaling;
  const std::optional<Fields>& main_dict = rd.dicts.main;
  const std::optional<Fields>& params = rd.dicts.params;
  LayerSchedule& ls = rd.r.schedule;
  // Per-layer-type RoPE: v5 rope_parameters per type, or Gemma 3's local base.
  auto sub_config = [&](const Fields& f, bool full) {
    RopeConfig sub = c;
    sub.scaling = RopeScaling{};
    if (!full && rd.local_head_dim) sub.head_dim = rd.local_head_dim;  // Gemma 4: global_head_dim is the full layers'
    if (auto t = f.number("rope_theta")) sub.theta = *t;
    // Each v5 block carries its own factor; a top-level one overrides them all (standardize_rope_params).
    if (rd.dicts.per_type)
      sub.partial_rotary_factor = block.number("partial_rotary_factor")
                                      .value_or(defs && defs->partial_rotary_factor_at_top_level ? defs->partial_rotary_factor : 1.0);
    if (auto pr = f.number("partial_rotary_factor"); pr && !block.has("partial_rotary_factor")) sub.partial_rotary_factor = *pr;
    std::vector<Diagnostic> ignored;
    Notes quiet(ignored);
    if (f.has("rope_type") || f.has("type")) read_scaling(f, sub, quiet);
    return sub;
  };
  if (rd.dicts.per_type) {
    for (auto it = params->object_json().begin(); it != params->object_json().end(); ++it) {
      if (!it->is_object()) continue;
      const std::string key = params->key(it.key());
      // The main dict may be a merged copy (Gemma 3's rope_scaling folded into full_attention).
      const bool is_main = main_dict && main_dict->prefix() == key;
      ls.per_type[it.key()] = sub_config(is_main ? *main_dict : Fields(*it, key), it.key() != "sliding_attention");
    }
    check_layer_types_have_rope(rd);
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
}

// Llama 4 (Llama4TextConfig: attn_temperature_tuning true, floor_scale 8192, attn_scale 0.1;
// modeling_llama4.py Llama4TextAttention): queries of the NoPE layers are scaled by
// 1 + attn_scale·ln(1 + ⌊(p + 1) / floor_scale⌋). Older configs write the switch as a number
// (4); Python reads any non-zero value as on.
void read_query_scaling(ConfigReading& rd) {
  const Fields& block = rd.block;
  const bool llama4 = rd.r.model_type == "llama4_text";
  bool on = llama4;
  if (const json* v = block.find("attn_temperature_tuning")) {
    if (v->is_boolean()) on = v->get<bool>();
    else if (v->is_number()) on = v->get<double>() != 0.0;
    else throw ConfigError(block.key("attn_temperature_tuning"), "expected true or false, got " + kind(*v));
  } else if (!llama4) {
    return;
  }
  const std::vector<bool>& rotary = rd.r.schedule.rotary;
  const bool has_nope = std::find(rotary.begin(), rotary.end(), false) != rotary.end();
  if (!on || !has_nope) return;
  QueryScaling& q = rd.c().query_scaling;
  if (q.active()) return;  // llama_4_scaling_beta already set it (Ministral 3 / Mistral 4)
  q.beta = block.number("attn_scale").value_or(0.1);
  q.period = block.integer("floor_scale", 1, kMaxLength).value_or(8192);
  q.position_offset = 1;
  q.nope_layers_only = true;
  rd.n.info(block.key("attn_temperature_tuning"),
            std::string(block.has("attn_temperature_tuning") ? "on" : "absent; on (Llama4TextConfig)") +
                ": the NoPE layers' queries are scaled by 1 + " + fmt(q.beta) + "·ln(1 + ⌊(p + 1) / " +
                std::to_string(q.period) + "⌋) (logits × " + fmt(query_scale(q, q.period - 1)) + " from p = " +
                std::to_string(q.period - 1) + ")");
}

}  // namespace pe::detail
