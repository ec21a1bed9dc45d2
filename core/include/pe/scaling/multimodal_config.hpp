#pragma once
// What a config says about multimodal rotary embeddings (issue 12), as plain data. It is a
// field of RopeConfig (pe/scaling/scaling.hpp), so this header includes nothing of pe's own; the
// layouts, prompt position ids and scores built from it are in pe/multimodal/multimodal.hpp.
//
// Sources (Hugging Face transformers unless said otherwise):
//  - M-RoPE: modeling_qwen2_vl.py apply_multimodal_rotary_pos_emb (Qwen2-VL, Qwen2.5-VL)
//  - interleaved M-RoPE: modeling_qwen3_vl.py Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope
//  - vision 2D: modeling_qwen2_vl.py VisionRotaryEmbedding + rot_pos_emb, modeling_pixtral.py
//    PixtralRotaryEmbedding, modeling_llama4.py Llama4VisionRotaryEmbedding
//  - axial: diffusers transformer_flux.py FluxPosEmbed + embeddings.py get_1d_rotary_pos_embed
#include "pe/scaling/module_guard.hpp"
#include <optional>
#include <string>
#include <vector>

namespace pe {

// How the rotary pairs of one attention head are shared among position axes.
enum class MultiAxisScheme {
  MRope,             // "mrope": contiguous sections t | h | w (Qwen2-VL, Qwen2.5-VL)
  MRopeInterleaved,  // "mrope-interleaved": t,h,w,t,h,w,... (Qwen3-VL)
  Vision2D,          // "vision-2d": a vision encoder's patches rotate by (row, col)
  Axial,             // "axial": one frequency ladder per axis (FLUX / DiT, diffusers)
  // "ernie-3d": ERNIE 4.5 VL's 3D RoPE — h and w alternate over the fastest pairs (even → h,
  // odd → w), t takes the slowest; adjacent (interleaved) pairs.
  Ernie3D,
};

// Vision 2D RoPE differs per model in which frequencies h and w get and how pairs sit in
// the head (see multimodal.cpp for each one's source).
enum class Vision2DVariant {
  Qwen2VL,  // "qwen2-vl": ladder over head_dim/2, h then w, half-split (also Qwen2.5-VL, Qwen3-VL)
  Pixtral,  // "pixtral": one ladder over head_dim, h takes freqs[::2], w freqs[1::2], half-split
  Llama4,   // "llama4": ladder over head_dim/2, x (w) then y (h), interleaved, positions + 1
};

// Which model family's get_rope_index builds the language model's position ids.
enum class RopeIndexFamily {
  Qwen2VL,   // "qwen2-vl": text 1D, vision (t, h, w) grid offsets
  Qwen25VL,  // "qwen2.5-vl": as Qwen2-VL, video t scaled by second_per_grid_t · tokens_per_second
  Qwen3VL,   // "qwen3-vl": as Qwen2-VL, but each video frame is its own t = 1 block (timestamps are text)
};

// transformers rewrote get_rope_index in v5: text after a vision block no longer starts at
// the block's max id + 1 but at its start + max(h, w) / merge (the temporal extent of a
// video is ignored), and Qwen2.5-VL truncates second_per_grid_t to an integer.
enum class RopeIndexVersion {
  Transformers4,  // "transformers-4": the rule the Qwen models shipped with (and vLLM uses)
  Transformers5,  // "transformers-5"
};

// A VLM's vision encoder rotary (its `vision_config`), for `--tower vision`.
struct VisionTowerRope {
  Vision2DVariant variant = Vision2DVariant::Qwen2VL;
  double theta = 10000.0;        // rope_theta; Qwen's VisionRotaryEmbedding hard-codes 10000
  long long head_dim = 80;       // explicit head_dim, else (embed_dim | hidden_size) / (num_heads | num_attention_heads)
  long long patch_size = 14;
  long long max_patches_per_side = 0;  // image_size / patch_size where the model has a fixed table; 0: none
  std::string model_type;        // vision_config.model_type as written, may be empty
};

struct MultiAxisRope {
  MultiAxisScheme scheme = MultiAxisScheme::MRope;
  // Rotary pairs per axis (t, h, w), in the order the model assigns them: mrope_section for
  // M-RoPE; axes_dims_rope / 2 for axial; head_dim / 4 per spatial axis for vision 2D
  // (there the first entry is 0: patches have no t axis).
  std::vector<long long> sections;
  Vision2DVariant vision_variant = Vision2DVariant::Qwen2VL;  // vision-2d only
};

// Everything multimodal a config declared. Empty (no multi_axis, no vision_tower) for
// text-only models.
struct MultimodalRope {
  std::optional<MultiAxisRope> multi_axis;      // this rotary's own multi-axis layout
  std::optional<VisionTowerRope> vision_tower;  // the VLM's vision encoder, when it has a rotary
  // Prompt position ids (language model of a VLM; vision_config keys).
  RopeIndexFamily rope_index = RopeIndexFamily::Qwen2VL;
  long long spatial_merge_size = 2;   // vision_config.spatial_merge_size (HF default 2)
  long long temporal_patch_size = 2;  // vision_config.temporal_patch_size (HF default 2)
  double tokens_per_second = 0.0;     // vision_config.tokens_per_second (Qwen2.5-VL); 0: no time scaling
  // What the reader noticed on the way ("rope_type says default but mrope_section is
  // present: M-RoPE"), each "key: message".
  std::vector<std::string> notes;

  bool empty() const { return !multi_axis && !vision_tower; }
};

}  // namespace pe
