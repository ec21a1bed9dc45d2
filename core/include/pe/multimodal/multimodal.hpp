#pragma once
// Multimodal rotary embeddings (issue 12): which axis (t, h, w) and which inverse frequency
// every rotary pair uses, the position ids a mixed text/image/video prompt gets, rotating
// vectors by multi-axis positions, and closed-form scores between positions and over whole
// patch grids. Each function's reference code is cited in multimodal.cpp.
//
// Conventions: pairs are numbered in the rotary order of inv_freq (pair i rotates by the
// i-th frequency of the model's table); which dims form pair i is the layout's
// PairConvention (pe/encodings/rope.hpp: half-split (i, i + d/2) or interleaved (2i, 2i+1)). Axis
// indices are 0 = t, 1 = h (row), 2 = w (column) everywhere.
#include "pe/multimodal/module_guard.hpp"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/scaling/multimodal_config.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/scaling/scaling.hpp"
#include "pe/base/types.hpp"

namespace pe {

const char* to_string(MultiAxisScheme s);    // "mrope", "mrope-interleaved", "vision-2d", "axial"
const char* to_string(Vision2DVariant v);    // "qwen2-vl", "pixtral", "llama4"
const char* to_string(RopeIndexFamily f);    // "qwen2-vl", "qwen2.5-vl", "qwen3-vl"
const char* to_string(RopeIndexVersion v);   // "transformers-4", "transformers-5"
// Each throws InvalidArgument naming `parameter` and listing the names above.
MultiAxisScheme multi_axis_scheme_from_string(const std::string& s, const char* parameter = "scheme");
Vision2DVariant vision_2d_variant_from_string(const std::string& s, const char* parameter = "variant");
RopeIndexFamily rope_index_family_from_string(const std::string& s, const char* parameter = "rope_index");
RopeIndexVersion rope_index_version_from_string(const std::string& s, const char* parameter = "rope_index_version");

inline constexpr int kAxisT = 0;
inline constexpr int kAxisH = 1;
inline constexpr int kAxisW = 2;
using AxisPosition = std::array<double, 3>;  // (t, h, w)

// ---------------------------------------------------------------------------------------
// Pair → axis and frequency.

struct MultiAxisLayout {
  MultiAxisScheme scheme = MultiAxisScheme::MRope;
  Vision2DVariant vision_variant = Vision2DVariant::Qwen2VL;  // meaningful for vision-2d
  Eigen::ArrayXi axis_of_pair;      // 0 = t, 1 = h, 2 = w, one per rotary pair
  Eigen::ArrayXd inv_freq_of_pair;  // the frequency pair i rotates with (rad per position)
  PairConvention convention = PairConvention::HalfSplit;  // the model's pairing of dims
  // Added to every coordinate before rotating (Llama 4 vision rotates patch (r, c) by
  // (r + 1, c + 1); its CLS token, angle 0, is not modelled). Cancels in every score.
  double position_offset = 0.0;

  long long pairs() const { return static_cast<long long>(axis_of_pair.size()); }
  long long rotary_dim() const { return 2 * pairs(); }
  std::array<long long, 3> pairs_per_axis() const;
};

// M-RoPE over a model's 1D table inv_freq (rotary_dim/2 entries, after any scaling):
// sections = mrope_section (t, h, w pairs, summing to inv_freq.size()). Contiguous
// (Qwen2-VL) or interleaved (Qwen3-VL: pair i is h if i % 3 == 1 and i < 3·sections[1], w if
// i % 3 == 2 and i < 3·sections[2], else t). Frequencies stay inv_freq[i] either way.
MultiAxisLayout mrope_layout(const Eigen::ArrayXd& inv_freq, const std::vector<long long>& sections, bool interleaved);
// The same for any of the language models' M-RoPE schemes (MRope, MRopeInterleaved, Ernie3D).
// ERNIE 4.5 VL (transformers modeling_ernie4_5_vl_moe.py: compute_default_rope_parameters'
// permutation and recomposition_to_3d): of sections (t, h, w) with h = w, pair i < h + w follows
// h when i is even and w when odd, the pairs above follow t; adjacent pairs (2i, 2i+1).
MultiAxisLayout mrope_layout(const Eigen::ArrayXd& inv_freq, const std::vector<long long>& sections, MultiAxisScheme scheme);
// The schemes a language model's M-RoPE uses, with prompt position ids (t, h, w per token).
bool is_language_mrope(MultiAxisScheme scheme);
// A vision encoder's 2D RoPE for one head of head_dim dims (divisible by 4).
MultiAxisLayout vision_2d_layout(Vision2DVariant variant, long long head_dim, double theta);
// Axial RoPE: axes_dims (dims per axis, each even, as diffusers' axes_dims_rope), one
// ladder theta^(−2j/axes_dims[a]) per axis, interleaved pairs.
MultiAxisLayout axial_layout(const std::vector<long long>& axes_dims, double theta);

// The layout config.multimodal.multi_axis describes, with the frequencies the model uses
// (M-RoPE: scaled_frequencies(config, current_length).inv_freq). Throws InvalidArgument
// ("multimodal") when the config has no multi-axis layout.
MultiAxisLayout multi_axis_layout(const RopeConfig& config, long long current_length);

// For readers of other formats (GGUF: rope.dimension_sections and the rope mode MROPE /
// IMROPE / VISION): the description a scheme and its sections (pairs per axis, t first;
// drop llama.cpp's unused fourth section) give, checked against the rotary pairs.
// Throws InvalidArgument("sections", ...) naming the rule that failed.
MultiAxisRope multi_axis_from_sections(MultiAxisScheme scheme, std::vector<long long> sections, long long rotary_pairs,
                                       Vision2DVariant variant = Vision2DVariant::Qwen2VL);
// The same checks for any MultiAxisRope (sections non-negative, summing to rotary_pairs).
void validate(const MultiAxisRope& m, long long rotary_pairs);

// The vision encoder of a VLM config as a RopeConfig of its own (theta, head_dim, its
// vision-2d layout; name "<name>-vision"). Throws InvalidArgument("tower", ...) when the
// config has no vision tower with a rotary embedding.
RopeConfig vision_tower_config(const RopeConfig& vlm);

// ---------------------------------------------------------------------------------------
// Prompt position ids (get_rope_index).

enum class PromptItemKind { Text, Image, Video };
const char* to_string(PromptItemKind k);  // "text", "image", "video"

// One run of a prompt: `tokens` text tokens, or an image / video of grid t × h × w patches
// as the processor reports it (image_grid_thw / video_grid_thw: t in temporal patches, h
// and w before the spatial merge).
struct PromptItem {
  PromptItemKind kind = PromptItemKind::Text;
  long long tokens = 0;  // text only
  long long t = 1, h = 1, w = 1;
};

inline constexpr long long kMaxPromptTokens = 1LL << 22;  // 4,194,304 tokens per prompt
inline constexpr long long kMaxPromptItems = 4096;
inline constexpr long long kMaxPromptGridSide = 65536;  // per t, h, w entry, before merging

// "text:5,image:1x8x12,text:3,video:4x8x8" (spaces around items allowed). Throws
// InvalidArgument("prompt", ...) naming the item and what is wrong. Sizes are checked
// against the limits above; merge-size divisibility is checked by rope_index.
std::vector<PromptItem> parse_prompt_spec(const std::string& text);
std::string format_prompt_spec(const std::vector<PromptItem>& prompt);

struct RopeIndexOptions {
  RopeIndexFamily family = RopeIndexFamily::Qwen2VL;
  RopeIndexVersion version = RopeIndexVersion::Transformers4;
  long long spatial_merge_size = 2;
  long long temporal_patch_size = 2;
  double tokens_per_second = 0.0;  // Qwen2.5-VL
  double sample_fps = 2.0;              // sampled video frames per second (the processor's default 2)
};
// The options a config implies (its multimodal block), with `sample_fps` for videos.
RopeIndexOptions rope_index_options(const RopeConfig& config, double sample_fps = 2.0);

struct PositionIds {
  std::vector<long long> t, h, w;    // one entry per token
  std::vector<PromptItemKind> kind;  // what each token is
  long long rope_delta = 0;          // max id + 1 − tokens (HF's mrope_position_deltas)
  long long tokens() const { return static_cast<long long>(t.size()); }
};

// The (t, h, w) position ids of every token, as Hugging Face's get_rope_index builds them
// for options.family / options.version. Throws InvalidArgument naming the option or the
// prompt item (grid not divisible by spatial_merge_size, too many tokens, sample_fps <= 0, ...).
PositionIds rope_index(const std::vector<PromptItem>& prompt, const RopeIndexOptions& options);

// ---------------------------------------------------------------------------------------
// Rotation and scores.

// Rotates x (size >= layout.rotary_dim(); the tail passes through) to `position`: pair i by
// angle (position[axis_i] + position_offset) · inv_freq_of_pair[i], pairs laid out by
// layout.convention.
Eigen::VectorXd apply_multi_axis_rope(const Eigen::Ref<const Eigen::VectorXd>& x, const MultiAxisLayout& layout,
                                      const AxisPosition& position);

// ⟨R(query)q, R(key)k⟩ in closed form from relative_score_coefficients / choice_coefficients
// (pe/analysis/analysis.hpp), pair i contributing a_i cos(Δ_i θ_i) + b_i sin(Δ_i θ_i) with
// Δ_i = key[axis_i] − query[axis_i]; depends on the position difference only.
double multi_axis_score(const RelativeScoreCoefficients& c, const MultiAxisLayout& layout, const AxisPosition& query,
                        const AxisPosition& key);
// Coefficients for seeded vectors (identical / random / averaged), one per pair of layout.
RelativeScoreCoefficients multi_axis_coefficients(VectorChoice choice, const MultiAxisLayout& layout,
                                                  std::uint64_t seed = 0, long long samples = 64);

inline constexpr long long kMaxGridSide = 4096;
inline constexpr long long kMaxGridPatches = 262'144;  // 512 × 512 patches per scored grid

// Score of the query patch (query_row, query_col) against every patch of a rows × cols grid
// (out(r, c)); key patches sit delta_t frames after the query. Each pair depends on one
// axis, so this is separable: O((rows + cols) · pairs + rows · cols).
TableD grid_scores(const RelativeScoreCoefficients& c, const MultiAxisLayout& layout, long long rows, long long cols,
                   long long query_row, long long query_col, double delta_t = 0.0);
void grid_scores_into(TableD& out, const RelativeScoreCoefficients& c, const MultiAxisLayout& layout, long long rows,
                      long long cols, long long query_row, long long query_col, double delta_t = 0.0);
// The same grid when patches get flattened 1D positions p = row · cols + col on every axis
// (what a model sees if the spatial layout is lost): a patch one row down is `cols`
// positions away, the row's last patch and the next row's first are neighbours.
TableD flattened_grid_scores(const RelativeScoreCoefficients& c, const MultiAxisLayout& layout, long long rows,
                             long long cols, long long query_row, long long query_col);
void flattened_grid_scores_into(TableD& out, const RelativeScoreCoefficients& c, const MultiAxisLayout& layout,
                                long long rows, long long cols, long long query_row, long long query_col);

}  // namespace pe
