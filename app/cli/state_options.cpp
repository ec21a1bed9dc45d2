#include "cli/state_options.hpp"

#include <cmath>
#include <stdexcept>

#include "pe/config.hpp"
#include "pe/errors.hpp"
#include "views/view.hpp"

namespace app {

void add_state_options(CLI::App& cli, StateOverrides& o) {
  std::string views;
  for (const auto& v : all_views()) views += std::string(views.empty() ? "" : ", ") + v.name;
  cli.add_option("--view", o.view, "View to show: " + views);
  cli.add_option("--preset", o.preset, "Model preset (see `pe-viz dump --list-presets`)");
  cli.add_option("--config", o.config, "Hugging Face config.json to load");
  cli.add_option("--theta", o.theta, "RoPE/sinusoidal base theta (> 1)");
  cli.add_option("--dim", o.dim, "Head dimension d (even, 2 ... 8192)");
  cli.add_option("--length", o.length, "Positions shown / current sequence length L (>= 1)");
  cli.add_option("--position", o.position, "Selected position p (0 ... L-1)");
  cli.add_option("--pair", o.pair, "Selected dimension pair i (0 ... d/2-1)");
  cli.add_option("--convention", o.convention, "Pair convention: interleaved | half-split");
  cli.add_option("--scaling", o.scaling, "RoPE scaling: default | linear | ntk | dynamic | yarn | llama3 | longrope");
  cli.add_option("--factor", o.factor, "Scaling factor (>= 1)");
  cli.add_option("--original-max-position-embeddings", o.original_max_position_embeddings,
                 "Training context length L_orig for scaling");
  cli.add_option("--partial-rotary-factor", o.partial_rotary_factor, "Fraction of dims that rotate (0, 1]");
  cli.add_option("--delta-axis", o.delta_axis, "relative-score Δ axis: auto | linear | log");
  cli.add_option("--samples", o.samples, "Random pairs averaged in relative-score (>= 1)");
  cli.add_option("--seed", o.seed, "Random seed (0 ... 18446744073709551615)");
  cli.add_option("--heads", o.heads, "ALiBi head count (>= 1)");
  cli.add_option("--head", o.head, "ALiBi head shown (1 ... heads)");
  cli.add_option("--colormap", o.colormap, "Heatmap colormap: rdbu | viridis | cividis");
  cli.add_option("--ui-scale", o.ui_scale, "UI scale for projectors, 1 ... 3");
  cli.add_option("--line-width", o.line_width, "Plot line thickness multiplier, 1 ... 4 (projectors: 3)");
  cli.add_option("--tokens", o.tokens, "permutation: sentence A (1 ... 24 words)");
  cli.add_option("--tokens-b", o.tokens_b, "permutation: sentence B, the same words reordered");
  cli.add_option("--theta-low", o.theta_low, "theta-lesson: the low base (> 1)");
  cli.add_option("--theta-high", o.theta_high, "theta-lesson: the high base (> 1)");
  cli.add_option("--walkthrough-step", o.walkthrough_step, "walkthrough: step shown, 1 ... 5");
  cli.add_flag("--light", o.light, "Light theme");
  cli.add_flag("--grid", o.grid, "Show a 2x2 grid of views instead of tabs (in the GUI)");
  cli.add_flag("--no-pixel-mean", o.no_pixel_mean, "Point-sample heatmaps instead of the per-pixel mean");
}

void apply_overrides(AppState& s, const StateOverrides& o) {
  if (o.preset) apply_preset(s, *o.preset);
  if (o.config) {
    try {
      s.rope = pe::load_hf_config(*o.config);
    } catch (const pe::ConfigError& e) {
      // Core's message names the key; on the command line it must name the file too (as dump does).
      const std::string what = e.what();
      if (what.find(*o.config) != std::string::npos) throw;
      throw pe::ConfigError("", *o.config + ": " + what);
    }
    s.preset.clear();
    s.length = s.rope.original_max_position_embeddings();
  }
  if (o.view) {
    if (!find_view(*o.view)) {
      std::string names;
      for (const auto& v : all_views()) names += std::string(names.empty() ? "" : ", ") + v.name;
      throw pe::InvalidArgument("view", *o.view, "one of " + names);
    }
    s.view = *o.view;
  }
  // Changing the model's numbers makes it a custom configuration (the preset no longer applies).
  if (o.theta || o.dim || o.partial_rotary_factor || o.convention || o.scaling || o.factor || o.original_max_position_embeddings)
    s.preset.clear();
  // Checked here under the CLI's names (core's config validation uses config.json keys).
  if (o.theta) pe::require_theta("theta", *o.theta);
  if (o.factor && !(std::isfinite(*o.factor) && *o.factor >= 1.0))
    throw pe::InvalidArgument("factor", pe::format_double(*o.factor), "a finite number >= 1");
  if (o.theta) s.rope.theta = *o.theta;
  if (o.dim) s.rope.head_dim = *o.dim;
  if (o.partial_rotary_factor) s.rope.partial_rotary_factor = *o.partial_rotary_factor;
  if (o.convention) s.rope.convention = pe::pair_convention_from_string(*o.convention);
  if (o.scaling) {
    try {
      s.rope.scaling.type = pe::rope_type_from_string(*o.scaling);
    } catch (const pe::InvalidArgument& e) {
      throw pe::InvalidArgument("scaling", *o.scaling, e.allowed());
    }
  }
  if (o.factor) s.rope.scaling.factor = *o.factor;
  if (o.original_max_position_embeddings) s.rope.scaling.original_max_position_embeddings = *o.original_max_position_embeddings;
  if (o.length) {
    s.length = *o.length;
    if (!o.position && s.position >= s.length) s.position = 0;
  }
  if (o.position) s.position = *o.position;
  if (o.pair) s.pair = *o.pair;
  if (o.samples) s.samples = *o.samples;
  if (o.delta_axis) s.delta_axis = *o.delta_axis;
  if (o.seed) {
    const std::string& t = *o.seed;
    std::size_t used = 0;
    unsigned long long v = 0;
    bool ok = !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
    if (ok) {
      try {
        v = std::stoull(t, &used);
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok || used != t.size()) throw pe::InvalidArgument("seed", t, "a whole number 0 ... 18446744073709551615");
    s.seed = v;
  }
  if (o.heads) s.heads = *o.heads;
  if (o.head) s.head = *o.head;
  if (o.colormap) {
    if (*o.colormap == "rdbu") s.colormap = ColormapChoice::RdBu;
    else if (*o.colormap == "viridis") s.colormap = ColormapChoice::Viridis;
    else if (*o.colormap == "cividis") s.colormap = ColormapChoice::Cividis;
    else throw pe::InvalidArgument("colormap", *o.colormap, "rdbu, viridis or cividis");
  }
  if (o.ui_scale) {
    if (!(*o.ui_scale >= 1.0 && *o.ui_scale <= 3.0)) throw pe::InvalidArgument("ui-scale", pe::format_double(*o.ui_scale), "1 ... 3");
    s.ui_scale = float(*o.ui_scale);
  }
  if (o.line_width) {
    if (!(*o.line_width >= 1.0 && *o.line_width <= 4.0))
      throw pe::InvalidArgument("line-width", pe::format_double(*o.line_width), "1 ... 4");
    s.line_width = float(*o.line_width);
  }
  if (o.tokens) s.tokens = *o.tokens;
  if (o.tokens_b) s.tokens_b = *o.tokens_b;
  if (o.theta_low) {
    pe::require_theta("theta-low", *o.theta_low);
    s.theta_low = *o.theta_low;
  }
  if (o.theta_high) {
    pe::require_theta("theta-high", *o.theta_high);
    s.theta_high = *o.theta_high;
  }
  if (o.walkthrough_step) {
    if (*o.walkthrough_step < 1 || *o.walkthrough_step > kWalkthroughSteps)
      throw pe::InvalidArgument("walkthrough-step", std::to_string(*o.walkthrough_step), "1 ... " + std::to_string(kWalkthroughSteps));
    s.walkthrough_step = *o.walkthrough_step - 1;
  }
  if (o.light) s.dark_theme = false;
  if (o.grid) s.grid = true;
  if (o.no_pixel_mean) s.pixel_mean = false;
  if (s.rope.head_dim != static_cast<long long>(s.vector.size())) s.vector.clear();
  const std::string error = validate_state(s);
  if (!error.empty()) throw std::runtime_error(error);
}

}  // namespace app
