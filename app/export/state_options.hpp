#pragma once
// Command-line options that set AppState, shared by the GUI, --screenshot, export and
// bench. Option names are the parameter names used everywhere (theta, dim, length ...).
// Below the UI and the command line: lesson slides set the state by these same names
// (export/lesson_validation.cpp), and so do links (cli/url_fragment.cpp).
#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "state/app_state.hpp"

namespace app {

struct StateOverrides {
  std::optional<std::string> preset, config, view, convention, scaling, colormap, delta_axis, tokens, tokens_b, mistake;
  std::optional<double> theta, factor, partial_rotary_factor, ui_scale, line_width, theta_low, theta_high, p_rope;
  std::optional<long long> dim, length, position, pair, original_max_position_embeddings, samples, heads, head,
      walkthrough_step;
  std::optional<std::string> seed;  // parsed by apply_overrides: "-1" must not wrap to 2^64−1
  // Further model sources: a model in the Hugging Face cache ("ORG/NAME[@REV]") and a
  // GGUF file. --preset, --config, --model and --gguf exclude each other.
  std::optional<std::string> model, gguf;
  // Multimodal views (issue 12): --sections is "T,H,W" pair counts or "auto".
  std::optional<std::string> scheme, sections, prompt, rope_index, qk;
  std::optional<double> sample_fps;
  std::optional<long long> merge_size, prompt_token, grid_rows, grid_cols, patch_row, patch_col;
  // Frequency usage (issue 26): the weights read (a path or ORG/NAME) and the layer shown.
  std::optional<std::string> weights;
  std::optional<long long> weights_layer;
  // Relative positions and length extrapolation (issue 32): core's parameter names.
  std::optional<long long> num_buckets, max_distance, position_buckets, max_relative_positions, max_position_embeddings,
      sandwich_dim, cope_npos_max, training_length, clamp_len;
  std::optional<double> scale_base, r1, r2, fire_c, fire_threshold;
  std::optional<std::string> pos_att_type, position_embedding_type, cope_text, cope_gates;
  // --causal is a switch that also takes a value (--causal=false): `causal` holds what was
  // given, `causal_switch` is only CLI11's target for the switch.
  std::optional<bool> causal;
  bool causal_switch = false;
  bool light = false;
  bool grid = false;
  bool no_pixel_mean = false;
};

void add_state_options(CLI::App& cli, StateOverrides& o);

// --preset, --config, --model and --gguf each choose the model; throws pe::InvalidArgument
// naming the options when more than one is given.
void require_one_model_source(bool preset, bool config, bool model, bool gguf);

// Applies overrides in a fixed order (preset/config first, then single parameters) and
// validates; throws std::runtime_error / pe::InvalidArgument with a message naming the option.
void apply_overrides(AppState& state, const StateOverrides& o);

// How --model fetches a config.json the local cache lacks from the Hub. The command line
// installs one with a progress line on stderr and Ctrl-C (cli/model_config.hpp); without one
// the fetch waits quietly. Throws what the fetch throws (pe::HubError, pe::WeightsCancelled).
using ModelConfigFetcher = std::function<void(const std::string& model)>;
void set_model_config_fetcher(ModelConfigFetcher fetcher);
ModelConfigFetcher model_config_fetcher();

}  // namespace app
