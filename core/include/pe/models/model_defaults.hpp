#pragma once
// What a model's configuration class fills in when config.json leaves a key out. Published
// config.json files are sparse (Gemma 3 27B has no rope_theta, no max_position_embeddings, no
// rope_local_base_freq); Hugging Face then takes the class defaults, and so must we. Values
// are the __init__ defaults of transformers' configuration_<model>.py (v5 naming), or of the
// model's own remote code where transformers has no class (MiniCPM3); each entry names it.
//
// The pair convention is the model's modeling code's, not the checkpoint's: Llama 4 rotates
// (2i, 2i+1) pairs by complex multiplication, Llama 3 uses rotate_half (i, i+d/2).
#include "pe/models/module_guard.hpp"
#include <optional>
#include <string>
#include <vector>

#include "pe/encodings/rope.hpp"

namespace pe {

// The per-layer attention schedule a config class derives when config.json has no `layer_types`.
enum class LayerRule {
  Uniform,             // every layer alike
  AlternateSlidingFirst,  // gemma2, gpt_oss: layer i slides when (i + 1) % 2 != 0 (0, 2, 4, ...)
  SlidingUnlessNth,    // gemma3 (6), cohere2 (4): layer i slides unless (i + 1) % period == 0
  NoRopeEveryNth,      // llama4: layer i has no RoPE when (i + 1) % no_rope_layer_interval == 0
  SlidingFromMaxWindowLayers,  // qwen2 / qwen3: layers i >= max_window_layers slide when use_sliding_window
  LinearUnlessNth,     // qwen3_next, qwen3_5: linear attention (no RoPE) unless (i + 1) % full_attention_interval == 0
  NoRopeEveryNthDense,  // smollm3: no_rope_layers, default no RoPE when (i + 1) % no_rope_layer_interval == 0; all full
};

struct ModelDefaults {
  const char* model_type;
  const char* config_class;  // where the defaults come from, e.g. "Gemma3TextConfig (configuration_gemma3.py)"
  double rope_theta;
  std::optional<double> local_rope_theta;  // sliding layers' base (gemma3 rope_local_base_freq)
  std::optional<long long> head_dim;       // class default; nullopt: hidden_size // num_attention_heads
  long long hidden_size;
  long long num_attention_heads;
  long long num_hidden_layers;
  long long max_position_embeddings;
  double partial_rotary_factor;
  std::optional<long long> qk_rope_head_dim;  // MLA (DeepSeek-V2/V3): only these dims rotate
  std::optional<long long> qk_nope_head_dim;
  PairConvention convention;
  const char* convention_source;  // the modeling code that fixes the pairing
  LayerRule layer_rule;
  long long layer_period;              // period for SlidingUnlessNth / NoRopeEveryNth, max_window_layers for Qwen
  std::optional<long long> sliding_window;  // class default window
  bool full_layers_without_rope;       // cohere2: global layers have no positional encoding
  long long attention_chunk_size;      // llama4: RoPE layers attend within chunks of this size (0: none)
  const char* default_rope_scaling;    // JSON the class uses when config.json has none (gpt_oss), or nullptr
  // The class sets partial_rotary_factor at the top level itself (kwargs.setdefault: Qwen3.5,
  // Qwen3-Next, GLM-4.5V), which then overrides a value inside rope_parameters.
  bool partial_rotary_factor_at_top_level = false;
};

// nullptr for a model type pe-viz has no defaults for (the generic HF defaults then apply).
const ModelDefaults* model_defaults(const std::string& model_type);
std::vector<std::string> known_model_types();

// Whether the model type's attention multiplies its softmax scale by
// get_mscale(factor, mscale_all_dim)² (RopeConfig::softmax_mscale): the transformers modeling
// files that read mscale_all_dim in their attention — DeepSeek-V2, V3, V3.2 (and Kimi K2, run
// as deepseek_v3), MiniCPM3, Mistral 4, LongCat-Flash, glm4_moe_lite, glm_moe_dsa, youtu.
bool softmax_mscale_family(const std::string& model_type);

// The language model's type inside a multimodal wrapper: "gemma3" → "gemma3_text",
// "llama4" → "llama4_text", "mistral3" → "mistral"; other types are returned unchanged.
std::string text_model_type(const std::string& model_type);

}  // namespace pe
