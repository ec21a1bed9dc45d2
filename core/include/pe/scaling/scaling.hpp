#pragma once
// RoPE context-extension scaling, with Hugging Face transformers' names and defaults
// (modeling_rope_utils.py `rope_scaling` / `rope_parameters`). Each method's source is
// cited in scaling.cpp next to its formula.
#include "pe/scaling/module_guard.hpp"
#include <optional>
#include <string>
#include <vector>
#include "pe/scaling/multimodal_config.hpp"
#include "pe/encodings/rope.hpp"

namespace pe {

enum class RopeType {
  Default,   // "default": θ_i = theta^(-2i/d)
  Linear,    // "linear": position interpolation, Chen et al. 2023
  NtkAware,  // "ntk": bloc97's NTK-aware base change, static
  Dynamic,   // "dynamic": dynamic NTK, depends on the current length
  Yarn,      // "yarn": Peng et al. 2023
  Llama3,    // "llama3": Llama 3.1 wavelength-band scaling
  LongRope,  // "longrope": Phi-3 per-dimension factors
  // "proportional": p-RoPE (Barbero et al., ICLR 2025; transformers v5, Gemma 4): the fastest
  // int(partial_rotary_factor·head_dim // 2) pairs rotate at θ^(−2i/head_dim) over the FULL
  // head_dim, the other pairs get frequency 0 (they pass through, NoPE dims).
  Proportional,
};
const char* to_string(RopeType t);                 // the HF name ("default", "linear", "ntk", ...)
RopeType rope_type_from_string(const std::string& s);  // accepts HF names and aliases ("su" -> longrope); throws InvalidArgument
std::vector<RopeType> all_rope_types();

struct RopeScaling {
  RopeType type = RopeType::Default;
  double factor = 1.0;
  long long original_max_position_embeddings = 0;  // 0: use RopeConfig::max_position_embeddings
  // yarn
  double beta_fast = 32.0;
  double beta_slow = 1.0;
  std::optional<double> mscale;
  std::optional<double> mscale_all_dim;
  std::optional<double> attention_factor;  // explicit override (yarn, longrope)
  bool truncate = true;                    // yarn: floor/ceil the correction range (HF default true)
  // llama3
  double low_freq_factor = 1.0;
  double high_freq_factor = 4.0;
  // longrope
  std::vector<double> short_factor;
  std::vector<double> long_factor;
};

// A position-dependent factor on the queries that some models apply beside RoPE; it
// multiplies every q·k logit of the query at position p (0-based):
//  - Ministral 3 / Mistral 4 (transformers modeling_ministral3.py / modeling_mistral4.py
//    get_llama_4_attn_scale): 1 + β·ln(1 + ⌊p / L⌋), β = rope_parameters.llama_4_scaling_beta,
//    L = rope_parameters.original_max_position_embeddings; every layer, after RoPE.
//  - Llama 4 (modeling_llama4.py Llama4TextAttention, attn_temperature_tuning):
//    1 + attn_scale·ln(1 + ⌊(p + 1) / floor_scale⌋), on its NoPE layers only.
struct QueryScaling {
  double beta = 0.0;              // β or attn_scale; 0: no query scaling
  long long period = 0;           // L or floor_scale
  long long position_offset = 0;  // Llama 4 counts p + 1
  bool nope_layers_only = false;  // Llama 4: only layers without RoPE
  bool active() const { return beta != 0.0 && period > 0; }
};
// The factor at position p (1 when inactive or p + offset < period).
double query_scale(const QueryScaling& q, long long position);

struct RopeConfig {
  std::string name;    // preset key or file name
  std::string title;   // human-readable model name ("Llama 3.1 8B"); may be empty
  std::string source;  // where the numbers come from (model card / config.json URL text)
  double theta = 10000.0;        // rope_theta
  long long head_dim = 64;
  double partial_rotary_factor = 1.0;
  long long max_position_embeddings = 2048;
  PairConvention convention = PairConvention::HalfSplit;  // HF models use rotate_half
  RopeScaling scaling;
  // Multimodal rotary (issue 12): multi-axis layout (M-RoPE, vision 2D, axial), the VLM's
  // vision tower, prompt position-id settings. Empty for text-only models.
  MultimodalRope multimodal;
  QueryScaling query_scaling;  // Ministral 3 / Mistral 4, Llama 4's NoPE layers
  // The attention multiplies its softmax scale by get_mscale(factor, mscale_all_dim)² on top
  // of the rotary attention factor (yarn with mscale_all_dim): DeepSeek-V2/V3 and the models
  // built on their attention (deepseek_family_softmax_mscale in pe/models/model_defaults.hpp).
  // Other models with these keys (Ministral 3) do not.
  bool softmax_mscale = false;

  // Dims the rotary tables span, even: floor(head_dim·partial_rotary_factor) rounded down to
  // even — for "proportional" the whole head (its slow pairs turn at frequency 0).
  long long rotary_dim() const;
  // Pairs that turn at a non-zero frequency: rotary_dim() / 2, for "proportional"
  // int(partial_rotary_factor·head_dim // 2).
  long long rotating_pairs() const;
  long long original_max_position_embeddings() const;  // scaling's, else max_position_embeddings
};

// Validates every field (throws InvalidArgument naming it).
void validate(const RopeConfig& config);

struct ScaledFrequencies {
  Eigen::ArrayXd inv_freq;        // rotary_dim/2 entries (what the model rotates with)
  Eigen::ArrayXd original_inv_freq;  // unscaled, same size
  double attention_factor = 1.0;  // multiplies cos/sin (HF); logits scale by its square
  double effective_theta = 10000.0;  // base after NTK/dynamic change, else theta
  long long rotary_dim = 0;
  // Added for the scaling view and `dump`:
  double factor = 1.0;  // the factor actually applied (longrope derives max/original like HF)
  long long original_max_position_embeddings = 0;  // the L_orig the method used
  bool uses_long_factor = false;  // longrope: long_factor chosen (length > L_orig)
  // Net multiplier on q·k logits: attention_factor², times DeepSeek-V2/V3's extra softmax
  // scale get_mscale(factor, mscale_all_dim)² where the config's softmax_mscale says so.
  double logit_scale = 1.0;
  // yarn: ramp bounds in pair units as used (after floor/ceil and clamping); pairs <= low
  // keep their frequency, pairs >= high are divided by factor. 0 for other methods.
  double yarn_low = 0.0;
  double yarn_high = 0.0;
};

// current_length matters for `dynamic` (and longrope's short/long switch); it is the
// sequence length being processed. Throws InvalidArgument on bad config.
ScaledFrequencies scaled_frequencies(const RopeConfig& config, long long current_length);

// p-RoPE as a teaching control on any frequencies (Barbero et al., ICLR 2025): keep the
// int(p·pairs) fastest pairs, set the others to frequency 0 (they pass through unrotated).
// p = 1 changes nothing. Throws InvalidArgument("p_rope") outside (0, 1] or when no pair is kept.
void keep_fastest_pairs(ScaledFrequencies& f, double p);
// Pairs int(p·pairs) keeps: transformers' int(p·d // 2) with d = 2·pairs.
long long pairs_kept(long long pairs, double p);

// YaRN helpers, exposed for the scaling view (ramp boundaries drawn as lines).
// Dimension index (in pair units, possibly fractional) whose wavelength makes
// `num_rotations` turns over original_max_position_embeddings.
double yarn_correction_dim(double num_rotations, long long dim, double theta, long long original_max_pos);
double yarn_get_mscale(double scale, double mscale);  // 0.1·mscale·ln(scale)+1, 1 for scale<=1

}  // namespace pe
