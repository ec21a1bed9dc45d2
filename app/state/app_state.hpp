#pragma once
// Everything the user can set, in one value. Views read it; only the parameter panel,
// the command line and session loading write it. Names match the CLI options and
// session keys (theta, dim, length, position, pair, convention, scaling, factor, ...).
#include <cstdint>
#include <string>
#include <vector>

#include "pe/models/config.hpp"

namespace app {

enum class ColormapChoice { RdBu, Viridis, Cividis };

struct AppState {
  std::string view = "sinusoidal";
  std::string preset = pe::kTeachingPreset;
  // Where the model's configuration was read from, for the inspector and layers views:
  // "preset:KEY", or the config.json / .gguf path (a Hugging Face cache model: its
  // snapshot's config.json). Kept when parameters are edited or a layer is picked (the
  // views then say what changed); cleared for hand-made configurations.
  std::string model_source = std::string("preset:") + pe::kTeachingPreset;
  // The RoPE configuration (theta, head_dim = "dim", scaling ...) currently shown.
  pe::RopeConfig rope;
  // The loaded model's positional encoding (issue 33): its family (rope, learned-absolute,
  // t5-relative-bias, alibi …), sizes and family parameters, as core read them from the
  // preset / config.json. When it does not rotate, `rope` is the teaching RoPE at the model's
  // width, which the RoPE views draw only as a labelled illustration. Session key
  // "model_encoding"; set with the model (presets, --config, drops, recent files, the cache).
  pe::PositionEncodingInfo model_encoding;
  long long length = 128;   // positions shown (the "current length" for dynamic scaling)
  long long position = 1;   // selected position p (clock hands, tooltips)
  long long pair = 0;       // selected dimension pair i
  // Clock hands: the vector being rotated; empty means seed 001's q padded with a
  // seeded random tail.
  std::vector<double> vector;
  bool playing = false;
  double play_speed = 1.0;  // positions per second
  // Relative score
  // Δ axis of the relative score: "auto" is linear up to L = 8192 and log beyond, where a
  // linear axis would show only the noise of the fast pairs.
  std::string delta_axis = "auto";  // auto | linear | log
  bool seed003_sign = false;
  // Common mistake: which seed's convention mix is shown beside the real rotation
  // (SEED-ERRATA 3: seed-004, half-split cache with interleaved pairs; 8: seed-001, the
  // mirror image).
  std::string mistake = "seed-004";  // seed-004 | seed-001  // also show seed 003's rotation by −pθ (the curve mirrors)
  long long samples = 64;   // random pairs averaged
  std::uint64_t seed = 0;
  long long anchor = 0;     // m, to show s depends only on Δ
  // ALiBi / attention
  long long heads = 8;
  long long head = 1;       // 1-based ALiBi head shown
  long long learned_max_len = 64;
  // Extrapolation: the scaling method compared with plain RoPE
  pe::RopeType extrapolation_method = pe::RopeType::Yarn;
  // Compare A/B: B is a second configuration drawn beside the main one (A).
  pe::RopeConfig compare_b;
  std::string compare_b_preset;
  std::string compare_view = "rope-cos";
  // Real configs: recently opened config.json paths (newest first) and the last error.
  std::vector<std::string> recent_configs;
  std::string config_error;
  bool animate_length = false;  // dynamic NTK: sweep the current length
  // Teaching: seed 001's worked example, with its own inputs (d = walkthrough_q.size()).
  std::vector<double> walkthrough_q = {0.8, 0.3, -0.5, 0.2};
  double walkthrough_theta = 10000.0;
  long long walkthrough_position = 1;    // p of steps 2 and 3
  long long walkthrough_position_b = 3;  // the second position (angle difference)
  long long walkthrough_step = 0;        // 0-based step shown
  // Permutation demo (seeds 000/001): two sentences made of the same words.
  std::string tokens = "the dog bit the man";
  std::string tokens_b = "the man bit the dog";
  // p-RoPE as a teaching control (Barbero et al., ICLR 2025): keep the fastest fraction of the
  // pairs, drop the slowest (frequency 0). 1 = off. Applied to the derived frequencies, so every
  // RoPE view shows it; rope-spectrum and relative-score draw what it dropped.
  double p_rope = 1.0;
  // Theta lesson (seed 001 "Why theta = 10000?"): the low and high bases compared.
  double theta_low = 100.0;
  double theta_high = 100000.0;
  // Multimodal views (mrope-layout, mrope-positions, rope-2d; issue 12). The multi-axis
  // layout is the config's own (mrope_section, axes_dims_rope, a vision tower's 2D RoPE); a
  // text-only config (the teaching preset) gets one built from its θ and d.
  std::string scheme = "auto";      // auto (the config's, else mrope) | mrope | mrope-interleaved | ernie-3d | vision-2d | axial
  // Rotary pairs per axis (t, h, w), summing to the rotary pairs. Empty: the config's
  // mrope_section, else Qwen2-VL's proportions ([16, 24, 24] of 64 pairs: ¼, ⅜, ⅜).
  std::vector<long long> sections;
  std::string prompt = "text:4,image:1x8x12,text:3,video:4x8x8,text:2";  // grids before the spatial merge
  long long merge_size = 2;         // spatial_merge_size (Qwen2-VL, Qwen2.5-VL, Qwen3-VL: 2)
  double sample_fps = 2.0;              // sampled video frames per second (Qwen2.5-VL's time ids)
  std::string rope_index = "transformers-4";  // get_rope_index rule: transformers-4 | transformers-5
  long long prompt_token = 12;      // selected token (0-based): the default image's patch (row 1, col 2)
  long long grid_rows = 24, grid_cols = 32;  // rope-2d's patch grid (after merging)
  long long patch_row = 8, patch_col = 12;   // rope-2d's query patch
  std::string qk = "mean-identical";         // rope-2d's q·k: identical | random | mean-identical | mean-random
  // Frequency usage (issue 26): the trained model whose q/k weights are read — a model folder,
  // a .safetensors or .gguf file, or ORG/NAME in the local Hugging Face cache ("" none) — and
  // the layer whose heads are shown (a layer index of that model).
  std::string weights;
  long long weights_layer = 0;
  // Display
  ColormapChoice colormap = ColormapChoice::RdBu;
  bool pixel_mean = true;
  float ui_scale = 1.0f;
  bool dark_theme = true;
  bool show_panel = true;
  float line_width = 1.0f;    // plot line thickness multiplier (projectors: 2 ... 4)
  bool show_formula = true;   // the formula strip under each view
  bool show_help = false;     // F1 overlay (not saved)
  // Layout of the view area: one view per tab, or a 2 × 2 grid of chosen views.
  bool grid = false;
  std::vector<std::string> grid_views = {"sinusoidal", "rope-cos", "clock-hands", "relative-score"};   // the parameter panel (hide it to give a projector the plot)

  double theta() const { return rope.theta; }
  long long dim() const { return rope.head_dim; }
};

// Loads a Hugging Face config.json into state.rope (length = its training context) and
// records it in recent_configs. On error the state is unchanged and the error rethrown.
void load_config_file(AppState& state, const std::string& path);
// The same for a GGUF file (header and RoPE factor tensors; pe::load_gguf_config), which
// joins recent_configs too (load_config_file hands a ".gguf" path on to this).
void load_gguf_file(AppState& state, const std::string& path);
bool is_gguf_path(const std::string& path);  // ends in ".gguf", any case
// The same for a model in the local Hugging Face hub cache, "ORG/NAME[@REVISION]" (offline;
// pe::load_cached_model_config); its snapshot's config.json joins recent_configs.
void load_cached_model(AppState& state, const std::string& model);

// Loads a preset into state (rope config and a sensible length); throws pe::InvalidArgument.
// A preset that does not rotate (gpt2, t5-base, bloom-560m …) sets model_encoding and the
// views' numbers from its family (see adopt_model_encoding).
void apply_preset(AppState& state, const std::string& key);
// The model's positional encoding becomes the state's: model_encoding, and for a model that
// does not rotate the numbers its own views draw — learned / sinusoidal: dim = the table's
// width (GPT-2's n_embd 768), learned_max_len = length = its positions (1024); ALiBi, T5 and
// the rest: dim = head_dim, heads = num_attention_heads; `rope` then is the teaching RoPE at
// that dim, an illustration only. A rotary model's numbers are left to the caller (as before).
void adopt_model_encoding(AppState& state, const pe::LoadedConfig& loaded);
// Positions shown for a family without a position limit (T5's buckets, BLOOM's ALiBi).
inline constexpr long long kUnlimitedFamilyLength = 512;
AppState default_state();

bool delta_axis_is_log(const AppState& state);

// Limits of what the views can draw (core accepts more; a view draws one row per dim,
// averages `samples` vectors every θ change, and so on).
inline constexpr long long kMaxViewDim = 8192;
inline constexpr long long kMaxSamples = 4096;
inline constexpr long long kMaxHeads = 1024;
inline constexpr long long kMaxLearnedLen = 8192;
inline constexpr long long kMaxWalkthroughDim = 16;   // every number of every step is printed
inline constexpr long long kWalkthroughSteps = 5;     // frequencies, angles, rotation, two positions, score
inline constexpr long long kMaxTokens = 24;           // words per sentence in the permutation demo
inline constexpr long long kMaxMergeSize = 16;        // spatial_merge_size (the Qwen models use 2)
inline constexpr long long kMaxViewPromptTokens = 65536;  // mrope-positions draws every token's ids

// Tokens of a prompt spec after the spatial merge (text runs plus t·(h/m)·(w/m) per image or
// video). Throws pe::InvalidArgument naming `prompt` (a bad item, a grid not divisible by
// merge_size, more than kMaxViewPromptTokens) or `merge_size`.
long long prompt_tokens(const std::string& prompt, long long merge_size);
// `sections`, when set, must give the config's rotary pairs (d/2 of the rotating dims);
// throws pe::InvalidArgument("sections", ...) naming both sums.
void require_sections_fit(const AppState& state);

// Words of a sentence (split on whitespace).
std::vector<std::string> split_tokens(const std::string& sentence);

// Checks the state against core's rules; returns "" or a message naming the parameter.
std::string validate_state(const AppState& state);

// The vector the clock-hands and score views rotate (state.vector or the default).
std::vector<double> effective_vector(const AppState& state);

const char* to_string(ColormapChoice c);

}  // namespace app
