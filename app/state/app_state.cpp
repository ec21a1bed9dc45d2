#include "state/app_state.hpp"

#include <algorithm>
#include <random>

#include "pe/errors.hpp"
#include "views/view.hpp"

namespace app {

void apply_preset(AppState& state, const std::string& key) {
  pe::RopeConfig config = pe::load_preset(key);
  state.preset = key;
  state.rope = config;
  // Show the model's training window; huge windows stay navigable through zoom.
  state.length = config.original_max_position_embeddings();
  if (state.position >= state.length) state.position = state.length > 1 ? 1 : 0;
  if (state.pair >= config.rotary_dim() / 2) state.pair = 0;
}

AppState default_state() {
  AppState state;
  apply_preset(state, pe::kTeachingPreset);
  state.compare_b = state.rope;
  state.compare_b.theta = 500000.0;  // a first contrast: Llama 3's base against 10^4
  state.compare_b.name = "teaching, θ = 5·10⁵";
  return state;
}

void load_config_file(AppState& state, const std::string& path) {
  pe::RopeConfig config = pe::load_hf_config(path);  // throws pe::ConfigError naming the key
  pe::validate(config);
  state.rope = config;
  state.preset.clear();
  state.length = config.original_max_position_embeddings();
  state.position = std::min<long long>(state.position, state.length - 1);
  state.pair = std::min<long long>(state.pair, std::max<long long>(config.rotary_dim() / 2 - 1, 0));
  state.vector.clear();
  state.config_error.clear();
  auto& recent = state.recent_configs;
  recent.erase(std::remove(recent.begin(), recent.end(), path), recent.end());
  recent.insert(recent.begin(), path);
  if (recent.size() > 8) recent.resize(8);
}

bool delta_axis_is_log(const AppState& s) {
  return s.delta_axis == "log" || (s.delta_axis == "auto" && s.length > 8192);
}

std::string validate_state(const AppState& s) {
  try {
    pe::require_even_dim("dim", s.rope.head_dim);  // every view pairs dimensions
    // Heatmaps draw one texture row per dimension; 8192 stays inside every GL's limits.
    if (s.rope.head_dim > kMaxViewDim)
      throw pe::InvalidArgument("dim", std::to_string(s.rope.head_dim), "2 ... " + std::to_string(kMaxViewDim) + " in the views");
    pe::validate(s.rope);
    if (!find_view(s.view)) throw pe::InvalidArgument("view", s.view, "a name from `pe-viz --list-views`");
    if (s.grid_views.size() != 4) throw pe::InvalidArgument("grid_views", std::to_string(s.grid_views.size()) + " views", "4 view names");
    for (const auto& v : s.grid_views)
      if (!find_view(v) || v == "compare") throw pe::InvalidArgument("grid_views", v, "view names other than compare");
    if (!find_view(s.compare_view) || s.compare_view == "compare")
      throw pe::InvalidArgument("compare_view", s.compare_view, "a view name other than compare");
    try {
      pe::validate(s.compare_b);
    } catch (const pe::InvalidArgument& e) {
      throw pe::InvalidArgument("compare_b." + e.parameter(), e.value(), e.allowed());
    }
    if (s.compare_b.head_dim > kMaxViewDim || s.compare_b.head_dim % 2 != 0)
      throw pe::InvalidArgument("compare_b.dim", std::to_string(s.compare_b.head_dim), "even, 2 ... " + std::to_string(kMaxViewDim));
    pe::require_length("length", s.length);
    if (s.position < 0 || s.position >= s.length)
      throw pe::InvalidArgument("position", std::to_string(s.position),
                                "0 ... length-1 = " + std::to_string(s.length - 1));
    if (s.pair < 0 || s.pair >= s.rope.rotary_dim() / 2)
      throw pe::InvalidArgument("pair", std::to_string(s.pair),
                                "0 ... " + std::to_string(s.rope.rotary_dim() / 2 - 1));
    if (s.samples < 1 || s.samples > kMaxSamples)
      throw pe::InvalidArgument("samples", std::to_string(s.samples), "1 ... " + std::to_string(kMaxSamples));
    if (s.anchor < 0 || s.anchor >= s.length)
      throw pe::InvalidArgument("anchor", std::to_string(s.anchor), "0 ... length-1 = " + std::to_string(s.length - 1));
    if (s.learned_max_len < 1 || s.learned_max_len > kMaxLearnedLen)
      throw pe::InvalidArgument("learned_max_len", std::to_string(s.learned_max_len), "1 ... " + std::to_string(kMaxLearnedLen));
    if (!(s.play_speed >= 0.01 && s.play_speed <= 1000.0))
      throw pe::InvalidArgument("play_speed", pe::format_double(s.play_speed), "0.01 ... 1000 positions per second");
    if (!(s.ui_scale >= 1.0f && s.ui_scale <= 3.0f))
      throw pe::InvalidArgument("ui_scale", pe::format_double(s.ui_scale), "1 ... 3");
    if (s.delta_axis != "auto" && s.delta_axis != "linear" && s.delta_axis != "log")
      throw pe::InvalidArgument("delta_axis", s.delta_axis, "auto, linear or log");
    if (s.heads < 1 || s.heads > kMaxHeads)
      throw pe::InvalidArgument("heads", std::to_string(s.heads), "1 ... " + std::to_string(kMaxHeads));
    if (s.head < 1 || s.head > s.heads)
      throw pe::InvalidArgument("head", std::to_string(s.head), "1 ... heads = " + std::to_string(s.heads));
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

std::vector<double> effective_vector(const AppState& state) {
  const long long dim = state.rope.head_dim;
  // Seed 001's worked-example query, then a seeded N(0, 0.5) tail so every pair has a hand.
  std::vector<double> v = {0.8, 0.3, -0.5, 0.2};
  v.resize(static_cast<std::size_t>(std::max<long long>(dim, 0)));
  std::mt19937_64 rng(state.seed + 1);
  std::normal_distribution<double> normal(0.0, 0.5);
  for (std::size_t i = 4; i < v.size(); ++i) v[i] = normal(rng);
  // User-edited entries override the defaults, however many were given.
  for (std::size_t i = 0; i < std::min(state.vector.size(), v.size()); ++i) v[i] = state.vector[i];
  return v;
}

const char* to_string(ColormapChoice c) {
  switch (c) {
    case ColormapChoice::RdBu: return "rdbu";
    case ColormapChoice::Viridis: return "viridis";
    case ColormapChoice::Cividis: return "cividis";
  }
  return "rdbu";
}

}  // namespace app
