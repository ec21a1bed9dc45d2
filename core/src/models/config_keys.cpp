// The positional keys pe-viz knows (for misspelling suggestions and "ignored for this rope
// type" diagnostics), edit distance, and the command line's "no effect here" notes.
//
// Per-type keys are transformers' _validate_<type>_rope_parameters required + optional sets
// (modeling_rope_utils.py, v5); the extra keys are vLLM's (get_rope's extra_kwargs in
// model_executor/layers/rotary_embedding/__init__.py) and the multimodal models'.
#include <algorithm>
#include <string>
#include <vector>

#include "pe/models/config_diagnostics.hpp"

namespace pe {

std::vector<std::string> rope_parameter_keys_for(RopeType type) {
  switch (type) {
    case RopeType::Default: return {};
    case RopeType::Linear:
    case RopeType::NtkAware:
    case RopeType::Dynamic: return {"factor"};
    case RopeType::Yarn:
      return {"factor", "original_max_position_embeddings", "attention_factor", "beta_fast", "beta_slow", "mscale",
              "mscale_all_dim", "truncate"};
    case RopeType::LongRope:
      return {"short_factor", "long_factor", "original_max_position_embeddings", "attention_factor", "factor"};
    case RopeType::Llama3:
      return {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"};
    // _validate_proportional_rope_parameters requires only rope_type and rope_theta; `factor`
    // draws its "Unrecognized keys" warning, yet _compute_proportional_rope_parameters divides
    // by it (the config reader says both).
    case RopeType::Proportional: return {"factor"};
  }
  return {};
}

const std::vector<std::string>& known_rope_parameter_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k = {"rope_type", "type", "rope_theta", "partial_rotary_factor"};
    for (RopeType t : all_rope_types())
      for (auto& key : rope_parameter_keys_for(t))
        if (std::find(k.begin(), k.end(), key) == k.end()) k.push_back(key);
    // vLLM's and multimodal models' keys (known, read elsewhere).
    for (const char* extra : {"attn_factor", "extrapolation_factor", "apply_yarn_scaling", "mrope_section",
                              "mrope_interleaved", "short_mscale", "long_mscale", "mixed_b", "alpha",
                              "llama_4_scaling_beta", "finetuned"})
      k.emplace_back(extra);
    return k;
  }();
  return keys;
}

const std::vector<std::string>& known_top_level_positional_keys() {
  static const std::vector<std::string> keys = {
      "rope_theta", "rope_scaling", "rope_parameters", "max_position_embeddings", "original_max_position_embeddings",
      "head_dim", "hidden_size", "num_attention_heads", "partial_rotary_factor", "rotary_pct", "rotary_emb_base",
      "rotary_dim", "qk_rope_head_dim", "qk_nope_head_dim", "rope_interleave", "n_positions", "sliding_window",
      "sliding_window_pattern", "layer_types", "no_rope_layers", "no_rope_layer_interval", "attention_chunk_size",
      "rope_local_base_freq", "use_sliding_window", "max_window_layers", "num_hidden_layers", "text_config",
      "llm_config", "language_config", "model_type", "mrope_section", "axes_dims_rope", "interleave_moe_layer_step",
      "attn_temperature_tuning", "floor_scale", "attn_scale", "initial_context_length", "full_attention_interval", "global_head_dim", "position_embedding_type",
      "order_of_interleaved_layers", "layer_switch", "_sliding_window_pattern", "pe_viz_name", "pe_viz_title",
      "pe_viz_source", "pe_viz_convention"};
  return keys;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment: Levenshtein plus adjacent transposition ("rpoe" → "rope" = 1).
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::optional<std::string> likely_intended_key(const std::string& key, const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(1, std::min<std::size_t>(3, key.size() / 4));
  std::optional<std::string> best;
  std::size_t best_d = limit + 1;
  for (const auto& c : candidates) {
    if (c == key) return std::nullopt;
    const std::size_t dist = edit_distance(key, c);
    if (dist < best_d) {
      best_d = dist;
      best = c;
    }
  }
  if (best_d <= limit) return best;
  return std::nullopt;
}

std::vector<std::string> ineffective_option_notes(const RopeConfig& c, const OptionsGiven& given) {
  std::vector<std::string> notes;
  const RopeType t = c.scaling.type;
  if (given.factor) {
    if (t == RopeType::Default)
      notes.push_back("--factor has no effect with the default rope type (choose a method with --scaling)");
    else if (t == RopeType::LongRope && c.scaling.original_max_position_embeddings > 0)
      notes.push_back("--factor has no effect here: longrope derives its factor from max_position_embeddings / "
                      "original_max_position_embeddings");
  }
  if (given.original_max_position_embeddings &&
      (t == RopeType::Default || t == RopeType::Linear || t == RopeType::NtkAware))
    notes.push_back(std::string("--original-max-position-embeddings has no effect with rope type ") + to_string(t) +
                    " (only dynamic, yarn, llama3 and longrope scale from a pretraining length)");
  if (given.length && t != RopeType::Dynamic && t != RopeType::LongRope)
    notes.push_back(std::string("--length does not change rope type ") + to_string(t) +
                    "'s frequencies (only dynamic and longrope depend on the current length)");
  return notes;
}

}  // namespace pe
