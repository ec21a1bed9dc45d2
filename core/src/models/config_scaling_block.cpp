// The main RoPE dict: its rope type and parameters (read_scaling), the top-level
// original_max_position_embeddings, and what each method does with them, noted and checked.
//
// Reference: transformers' RotaryEmbeddingConfigMixin (modeling_rope_utils.py, v5:
// convert_rope_params_to_dict, standardize_rope_params, _validate_<type>_rope_parameters) and
// each model's configuration_<model>.py for its defaults (pe/models/model_defaults.hpp). Read at
// zucchini-nlp/transformers@26892c16 (tracks main, after #40320's explicit YaRN factor).
// Where transformers accepts a config and only logs a warning, pe-viz accepts it too and says
// so in a diagnostic; where transformers raises (a missing required key), pe-viz refuses.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "config_reading.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"

namespace pe::detail {
namespace {

const char* const kRopeTypeList =
    "default, linear, ntk, dynamic, yarn, llama3, longrope, proportional (aliases: su, mrope)";

// "unknown rope type "yran"; expected one of …; did you mean "yarn"?"
std::string unknown_type_message(const std::string& given) {
  std::vector<std::string> names;
  for (RopeType t : all_rope_types()) names.push_back(to_string(t));
  std::string m = "unknown rope type \"" + given + "\"; expected one of " + kRopeTypeList;
  if (auto guess = likely_intended_key(ascii_lower(given), names)) m += "; did you mean \"" + *guess + "\"?";
  return m;
}

std::string missing_for(RopeType t) { return std::string("missing (required for rope_type \"") + to_string(t) + "\")"; }

// Keys this rope type does not read, unknown keys and likely misspellings
// (_check_received_keys logs "Unrecognized keys" for both).
void note_unread_keys(const Fields& f, RopeType type, Notes& n) {
  const std::string type_name = to_string(type);
  const std::vector<std::string> used = rope_parameter_keys_for(type);
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
    if (k == "llama_4_scaling_beta") {
      n.info(key, "= " + brief(*it) + ": query scaling 1 + β·ln(1 + ⌊p / original_max_position_embeddings⌋), read by "
                  "Ministral 3's and Mistral 4's attention (not by modeling_rope_utils, which lists it in "
                  "ignore_keys_at_rope_validation)");
      continue;
    }
    if (k == "mrope_section" || k == "mrope_interleaved") {
      n.info(key, "= " + brief(*it) + ": multimodal rotary sections (Qwen2-VL family); transformers skips it in "
                  "validation (ignore_keys_at_rope_validation); the pair split is the multimodal views' business");
      continue;
    }
    if (k == "extrapolation_factor" || k == "apply_yarn_scaling" || k == "short_mscale" || k == "long_mscale" ||
        k == "mixed_b" || k == "alpha" || k == "finetuned") {
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
}

}  // namespace

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
    throw ConfigError(type_key, unknown_type_message(*type_text));
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
  const auto factor = f.number("factor");
  if (factor) {
    s.factor = *factor;
    out.factor_given = true;
    if (f.is_integer_literal("factor"))
      n.info(f.key("factor"), "written as an integer (" + fmt(*factor) + "); transformers' validator logs "
                              "\"must be a float >= 1\" but computes with it unchanged");
  } else if (s.type != RopeType::Default && s.type != RopeType::LongRope && s.type != RopeType::Proportional) {
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

  note_unread_keys(f, s.type, n);
  return out;
}

namespace {

void note_yarn(ConfigReading& rd, const std::string& p) {
  RopeConfig& c = rd.c();
  RopeScaling& s = c.scaling;
  Notes& n = rd.n;
  const ScalingRead& read = rd.read;
  const long long orig = c.original_max_position_embeddings();
  if (!read.original_given)
    rd.default_note(p + ".original_max_position_embeddings", std::to_string(c.max_position_embeddings),
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
}

void note_llama3(ConfigReading& rd, const std::string& p) {
  RopeConfig& c = rd.c();
  RopeScaling& s = c.scaling;
  Notes& n = rd.n;
  const ScalingRead& read = rd.read;
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
}

void note_longrope(ConfigReading& rd, const std::string& p) {
  RopeConfig& c = rd.c();
  RopeScaling& s = c.scaling;
  Notes& n = rd.n;
  const ScalingRead& read = rd.read;
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
}

void note_proportional(ConfigReading& rd, const std::string& p) {
  const RopeConfig& c = rd.c();
  Notes& n = rd.n;
  n.info(p, "proportional (p-RoPE): the fastest int(partial_rotary_factor · head_dim // 2) = " +
                std::to_string(c.rotating_pairs()) + " of " + std::to_string(c.rotary_dim() / 2) +
                " pairs rotate at θ^(−2i/" + std::to_string(c.head_dim) + ") over the full head_dim; the other pairs get "
                "frequency 0 and pass through (Barbero et al. 2025; transformers _compute_proportional_rope_parameters)");
  if (rd.read.factor_given)
    n.warn(p + ".factor", "= " + fmt(c.scaling.factor) + ": _validate_proportional_rope_parameters logs it as an "
                          "unrecognized key (it requires only rope_type and rope_theta), yet the frequencies are "
                          "divided by it");
}

// Ministral 3 / Mistral 4: rope_parameters.llama_4_scaling_beta scales the queries by
// 1 + β·ln(1 + ⌊p / L⌋), L = the same dict's original_max_position_embeddings.
void read_llama4_beta(ConfigReading& rd) {
  const Fields& dict = *rd.dicts.main;
  const auto beta = dict.number("llama_4_scaling_beta");
  if (!beta || *beta == 0.0) return;
  QueryScaling& q = rd.c().query_scaling;
  q.beta = *beta;
  if (auto l = dict.integer("original_max_position_embeddings", 1, kMaxLength)) {
    q.period = *l;
  } else {
    q.period = rd.c().original_max_position_embeddings();
    rd.n.warn(dict.key("original_max_position_embeddings"),
              "absent beside llama_4_scaling_beta: transformers' get_llama_4_attn_scale reads it from this dict and "
              "fails without it; pe-viz uses " + std::to_string(q.period));
  }
  rd.n.info(dict.key("llama_4_scaling_beta"),
            "queries scaled by 1 + " + fmt(q.beta) + "·ln(1 + ⌊p / " + std::to_string(q.period) + "⌋) after RoPE, every "
            "layer (Ministral 3 / Mistral 4 get_llama_4_attn_scale): logits × " + fmt(query_scale(q, q.period)) +
            " from p = " + std::to_string(q.period) + ", × " + fmt(query_scale(q, 7 * q.period)) + " from p = " +
            std::to_string(7 * q.period));
}

}  // namespace

void read_scaling_block(ConfigReading& rd) {
  RopeConfig& c = rd.c();
  Resolution& r = rd.r;
  Notes& n = rd.n;
  const Fields& block = rd.block;
  const std::optional<Fields>& main_dict = rd.dicts.main;
  ScalingRead& read = rd.read;
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
      case RopeType::Yarn:
        note_yarn(rd, p);
        break;
      case RopeType::Llama3:
        note_llama3(rd, p);
        break;
      case RopeType::LongRope:
        note_longrope(rd, p);
        break;
      case RopeType::Proportional:
        note_proportional(rd, p);
        break;
    }
    read_llama4_beta(rd);
  }
}

}  // namespace pe::detail
