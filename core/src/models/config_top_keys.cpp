// The top level of a config.json beyond RoPE's own keys: which positional keys have which
// use (the inspector lists them) and which unknown keys look like misspelt positional ones.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "config_reading.hpp"

namespace pe::detail {

const std::vector<TopKey>& top_level_key_uses() {
  static const std::vector<TopKey> uses = {
    {"sliding_window", "window of the sliding-attention layers (layer plan)"},
    {"sliding_window_pattern", "every Nth layer attends globally, the others slide (layer plan)"},
    {"_sliding_window_pattern", "every Nth layer attends globally, the others slide (layer plan)"},
    {"layer_types", "attention type of each layer (layer plan)"},
    {"no_rope_layers", "1 = the layer rotates, 0 = NoPE layer (Llama 4, SmolLM3; an empty list means the class default)"},
    {"no_rope_layer_interval", "a NoPE layer every Nth layer when no_rope_layers is empty (Llama 4, SmolLM3)"},
    {"full_attention_interval", "every Nth layer attends fully, the others are linear attention without RoPE (Qwen3-Next, Qwen3.5)"},
    {"attention_chunk_size", "RoPE layers attend within chunks of this many tokens (Llama 4)"},
    {"rope_local_base_freq", "base θ of the sliding-window layers (Gemma 3)"},
    {"use_sliding_window", "whether max_window_layers' sliding window applies (Qwen)"},
    {"max_window_layers", "layers from this index on use the sliding window when enabled (Qwen)"},
    {"qk_nope_head_dim", "MLA q/k dims that do not rotate"},
    {"interleave_moe_layer_step", "MoE layer spacing (Llama 4); not positional"},
    {"attn_temperature_tuning", "NoPE layers' query temperature by position (Llama 4): the scaling view's query scale"},
    {"floor_scale", "Llama 4 attention temperature: positions per step (query scale period)"},
    {"attn_scale", "Llama 4 attention temperature strength (query scale β)"},
    {"initial_context_length", "gpt-oss's pretraining length (transformers reads rope_scaling's copy)"},
    {"position_embedding_type", "Cohere's own name for the rotary layout (transformers ignores it)"},
    {"rotary_pct", "GPT-NeoX's name for partial_rotary_factor"},
    {"order_of_interleaved_layers", "Cohere remote-code key (transformers ignores it)"},
    {"layer_switch", "Cohere remote-code key (transformers uses sliding_window_pattern)"},
  };
  return uses;
}

namespace {

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
      "pe_viz_source", "pe_viz_convention", "pe_viz_checked", "pe_viz_comment", "n_embd", "n_head", "n_layer", "n_inner", "rotary_dim", "rope_interleave",
      "qk_rope_head_dim", "head_dim", "hidden_size", "num_attention_heads", "max_position_embeddings", "n_positions",
      "original_max_position_embeddings", "rope_scaling", "rope_parameters", "rope_theta", "rotary_emb_base",
      "partial_rotary_factor", "use_bidirectional_attention", "qk_layernorm", "use_qkv_bias", "max_length",
      "_name_or_path", "pretraining_tp", "image_token_id", "video_token_id", "vision_start_token_id",
      "vision_end_token_id", "vision_token_id", "mrope_section", "axes_dims_rope", "rope_traditional"};
  return keys;
}

}  // namespace

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

}  // namespace pe::detail
