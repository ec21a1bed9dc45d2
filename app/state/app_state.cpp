#include "state/app_state.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>

#include "pe/base/errors.hpp"
#include "pe/models/gguf_rope.hpp"
#include "pe/models/hf_cache.hpp"
#include "pe/multimodal/multimodal.hpp"
#include "pe/base/text.hpp"
#include "state/view_names.hpp"

namespace app {

void adopt_model_encoding(AppState& state, const pe::LoadedConfig& loaded) {
  using F = pe::PositionEncodingFamily;
  const pe::PositionEncodingInfo& e = loaded.encoding;
  state.model_encoding = e;
  if (e.rotates()) return;
  // The illustration: the teaching RoPE at the width this model's positions have, named after
  // the model so a RoPE view's banner can say whose width it borrowed.
  pe::RopeConfig r = pe::load_preset(pe::kTeachingPreset);
  const bool table = e.family == F::LearnedAbsolute || e.family == F::Sinusoidal;
  const long long width = table ? e.embedding_width : e.head_dim;
  if (width >= 2 && width % 2 == 0 && width <= kMaxViewDim) r.head_dim = width;
  const long long positions = e.positions > 0 ? e.positions : kUnlimitedFamilyLength;
  r.max_position_embeddings = positions;
  r.name = loaded.config.name;
  r.title = loaded.config.title;
  r.source = loaded.config.source;
  state.rope = r;
  state.length = positions;
  if (state.position >= state.length) state.position = state.length > 1 ? 1 : 0;
  state.anchor = std::min(state.anchor, state.length - 1);
  state.pair = std::min<long long>(state.pair, r.rotary_dim() / 2 - 1);
  state.sections.clear();
  state.vector.clear();
  if (table) state.learned_max_len = std::clamp<long long>(positions, 1, kMaxLearnedLen);
  if (e.num_attention_heads >= 1 && e.num_attention_heads <= kMaxHeads) {
    state.heads = e.num_attention_heads;
    state.head = std::clamp<long long>(state.head, 1, state.heads);
  }
  // TODO(issue 32's views): T5 → num_buckets / max_distance, DeBERTa → position_buckets /
  // max_relative_positions, once AppState has those parameters (see the report of issue 33).
}

void apply_preset(AppState& state, const std::string& key) {
  const pe::LoadedConfig loaded = pe::load_preset_diagnosed(key);
  state.preset = key;
  state.model_source = "preset:" + key;
  adopt_model_encoding(state, loaded);
  if (!loaded.encoding.rotates()) return;
  const pe::RopeConfig& config = loaded.config;
  state.rope = config;
  // Show the model's training window; huge windows stay navigable through zoom.
  state.length = config.original_max_position_embeddings();
  if (state.position >= state.length) state.position = state.length > 1 ? 1 : 0;
  if (state.pair >= config.rotary_dim() / 2) state.pair = 0;
  state.sections.clear();  // pairs per axis belong to the previous model
}

AppState default_state() {
  AppState state;
  apply_preset(state, pe::kTeachingPreset);
  state.compare_b = state.rope;
  state.compare_b.theta = 500000.0;  // a first contrast: Llama 3's base against 10^4
  state.compare_b.name = "teaching, θ = 5·10⁵";
  return state;
}

bool is_gguf_path(const std::string& path) {
  return path.size() >= 5 && pe::ascii_lower(path.substr(path.size() - 5)) == ".gguf";
}

namespace {

// The config becomes the one shown, at its training window; the path joins recent_configs.
void adopt_config_file(AppState& state, const pe::LoadedConfig& loaded, const std::string& path) {
  state.preset.clear();
  state.model_source = path;
  state.config_error.clear();
  adopt_model_encoding(state, loaded);
  if (loaded.encoding.rotates()) {
    const pe::RopeConfig& config = loaded.config;
    state.rope = config;
    state.length = config.original_max_position_embeddings();
    state.position = std::min<long long>(state.position, state.length - 1);
    state.pair = std::min<long long>(state.pair, std::max<long long>(config.rotary_dim() / 2 - 1, 0));
    state.vector.clear();
    state.sections.clear();
  }
  auto& recent = state.recent_configs;
  recent.erase(std::remove(recent.begin(), recent.end(), path), recent.end());
  recent.insert(recent.begin(), path);
  if (recent.size() > 8) recent.resize(8);
}

}  // namespace

void load_config_file(AppState& state, const std::string& path) {
  if (is_gguf_path(path)) return load_gguf_file(state, path);  // a recent entry or a typed path
  const pe::LoadedConfig loaded = pe::load_hf_config_diagnosed(path);  // throws pe::ConfigError naming the key
  if (loaded.encoding.rotates()) pe::validate(loaded.config);
  adopt_config_file(state, loaded, path);
}

void load_gguf_file(AppState& state, const std::string& path) {
  // Throws pe::GgufError naming the key and byte offset; the state is then unchanged.
  const pe::GgufModelConfig model = pe::load_gguf_config(path);
  adopt_config_file(state, model.loaded, path);
}

void load_cached_model(AppState& state, const std::string& model) {
  // Throws pe::HfCacheError listing the paths tried and the closest cached names.
  const pe::CachedModel cached = pe::resolve_cached_model(model);
  const pe::LoadedConfig loaded = pe::load_cached_model_config(model);
  adopt_config_file(state, loaded, cached.config_path.string());
}

bool delta_axis_is_log(const AppState& s) {
  return s.delta_axis == "log" || (s.delta_axis == "auto" && s.length > 8192);
}

namespace {

// What the views need of a RoPE configuration (A's and compare's B alike): core's rules
// plus an even dimension the heatmaps can draw (one texture row per dim; 8192 fits every
// GL's limits). Errors name the parameter with `prefix` (e.g. "compare_b.").
void validate_view_rope(const pe::RopeConfig& rope, const std::string& prefix) {
  try {
    pe::require_even_dim("dim", rope.head_dim);
    pe::require_in_range("dim", rope.head_dim, 2, kMaxViewDim);
    pe::validate(rope);
  } catch (const pe::InvalidArgument& e) {
    if (prefix.empty()) throw;
    throw pe::InvalidArgument(prefix + e.parameter(), e.value(), e.allowed());
  }
}

void require_view_name(const char* parameter, const std::string& name, bool allow_compare) {
  if (!is_view_name(name) || (!allow_compare && view_hosts_views(name)))
    throw pe::InvalidArgument(parameter, name,
                              allow_compare ? "a name from `pe-viz --list-views`" : "a view name other than compare");
}

// The multimodal views' parameters (issue 12). The sum of `sections` is not checked here:
// dragging d leaves it behind, and the views say so beside the control (the command line
// checks it with require_sections_fit).
void validate_multimodal(const AppState& s) {
  pe::multi_axis_scheme_from_string(s.scheme == "auto" ? "mrope" : s.scheme, "scheme");
  pe::rope_index_version_from_string(s.rope_index, "rope_index");
  if (s.qk != "identical" && s.qk != "random" && s.qk != "mean-identical" && s.qk != "mean-random")
    throw pe::InvalidArgument("qk", s.qk, "identical, random, mean-identical or mean-random");
  if (!s.sections.empty()) {
    if (s.sections.size() != 3)
      throw pe::InvalidArgument("sections", std::to_string(s.sections.size()) + " numbers",
                                "three pair counts (t, h, w), or none for the config's own");
    for (long long n : s.sections) pe::require_in_range("sections", n, 0, kMaxViewDim / 2);
  }
  pe::require_in_range("merge_size", s.merge_size, 1, kMaxMergeSize);
  pe::require_in_range("sample_fps", s.sample_fps, 1e-3, 1e6);
  const long long tokens = prompt_tokens(s.prompt, s.merge_size);
  pe::require_in_range("prompt_token", s.prompt_token, 0, tokens - 1);
  pe::require_in_range("grid_rows", s.grid_rows, 1, pe::kMaxGridSide);
  pe::require_in_range("grid_cols", s.grid_cols, 1, pe::kMaxGridSide);
  if (s.grid_rows * s.grid_cols > pe::kMaxGridPatches)
    throw pe::InvalidArgument("grid_rows × grid_cols", std::to_string(s.grid_rows) + " × " + std::to_string(s.grid_cols),
                              "at most " + std::to_string(pe::kMaxGridPatches) + " patches (512 × 512)");
  pe::require_in_range("patch_row", s.patch_row, 0, s.grid_rows - 1);
  pe::require_in_range("patch_col", s.patch_col, 0, s.grid_cols - 1);
}

}  // namespace

long long prompt_tokens(const std::string& prompt, long long merge_size) {
  pe::require_in_range("merge_size", merge_size, 1, kMaxMergeSize);
  const std::vector<pe::PromptItem> items = pe::parse_prompt_spec(prompt);
  long long tokens = 0;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const pe::PromptItem& p = items[k];
    const std::string item = "item " + std::to_string(k + 1) + " \"" + pe::format_prompt_spec({p}) + "\"";
    if (p.kind != pe::PromptItemKind::Text && (p.h % merge_size != 0 || p.w % merge_size != 0))
      throw pe::InvalidArgument("prompt", item,
                                "H and W (patches before merging) divisible by merge_size = " + std::to_string(merge_size));
    tokens += p.kind == pe::PromptItemKind::Text ? p.tokens : p.t * (p.h / merge_size) * (p.w / merge_size);
    if (tokens > kMaxViewPromptTokens)
      throw pe::InvalidArgument("prompt", std::to_string(tokens) + "+ tokens by " + item,
                                "at most " + std::to_string(kMaxViewPromptTokens) + " tokens after merging (text plus patches)");
  }
  return tokens;
}

void require_sections_fit(const AppState& s) {
  if (s.sections.empty()) return;
  long long sum = 0;
  std::string list;
  for (long long n : s.sections) {
    sum += n;
    list += (list.empty() ? "" : ", ") + std::to_string(n);
  }
  const long long pairs = s.rope.rotary_dim() / 2;
  if (s.sections.size() != 3 || sum != pairs)
    throw pe::InvalidArgument("sections", "[" + list + "] (sum " + std::to_string(sum) + ")",
                              "three pair counts (t, h, w) summing to the rotary pairs, " + std::to_string(pairs) +
                                  " for d = " + std::to_string(s.rope.head_dim));
}

std::string validate_state(const AppState& s) {
  try {
    validate_view_rope(s.rope, "");
    validate_view_rope(s.compare_b, "compare_b.");
    require_view_name("view", s.view, true);
    require_view_name("compare_view", s.compare_view, false);
    if (s.grid_views.size() != 4) throw pe::InvalidArgument("grid_views", std::to_string(s.grid_views.size()) + " views", "4 view names");
    for (const auto& v : s.grid_views) require_view_name("grid_views", v, false);
    pe::require_length("length", s.length);
    pe::require_in_range("position", s.position, 0, s.length - 1);
    pe::require_in_range("pair", s.pair, 0, s.rope.rotary_dim() / 2 - 1);
    pe::require_in_range("anchor", s.anchor, 0, s.length - 1);
    pe::require_in_range("samples", s.samples, 1, kMaxSamples);
    pe::require_in_range("learned_max_len", s.learned_max_len, 1, kMaxLearnedLen);
    pe::require_in_range("heads", s.heads, 1, kMaxHeads);
    pe::require_in_range("head", s.head, 1, s.heads);
    pe::require_in_range("play_speed", s.play_speed, 0.01, 1000.0);
    pe::require_in_range("ui_scale", double(s.ui_scale), 1.0, 3.0);
    pe::require_in_range("line_width", double(s.line_width), 1.0, 4.0);
    const long long wd = static_cast<long long>(s.walkthrough_q.size());
    if (wd < 2 || wd > kMaxWalkthroughDim || wd % 2 != 0)
      throw pe::InvalidArgument("walkthrough_q", std::to_string(wd) + " numbers",
                                "an even count 2 ... " + std::to_string(kMaxWalkthroughDim));
    for (double x : s.walkthrough_q)
      if (!std::isfinite(x)) throw pe::InvalidArgument("walkthrough_q", pe::format_double(x), "finite numbers");
    pe::require_theta("walkthrough_theta", s.walkthrough_theta);
    pe::require_in_range("walkthrough_position", s.walkthrough_position, 0, 1000000000);
    pe::require_in_range("walkthrough_position_b", s.walkthrough_position_b, 0, 1000000000);
    pe::require_in_range("walkthrough_step", s.walkthrough_step, 0, kWalkthroughSteps - 1);
    for (const auto* t : {&s.tokens, &s.tokens_b}) {
      const long long n = static_cast<long long>(split_tokens(*t).size());
      if (n < 1 || n > kMaxTokens)
        throw pe::InvalidArgument(t == &s.tokens ? "tokens" : "tokens_b", std::to_string(n) + " words",
                                  "1 ... " + std::to_string(kMaxTokens) + " words");
    }
    if (!std::isfinite(s.p_rope) || s.p_rope <= 0.0 || s.p_rope > 1.0)
      throw pe::InvalidArgument("p_rope", pe::format_double(s.p_rope), "0 < p_rope <= 1 (the fraction of pairs kept)");
    pe::require_in_range("weights_layer", s.weights_layer, 0, 1000000);
    pe::require_theta("theta_low", s.theta_low);
    pe::require_theta("theta_high", s.theta_high);
    if (s.mistake != "seed-004" && s.mistake != "seed-001")
      throw pe::InvalidArgument("mistake", s.mistake, "seed-004 or seed-001");
    if (s.delta_axis != "auto" && s.delta_axis != "linear" && s.delta_axis != "log")
      throw pe::InvalidArgument("delta_axis", s.delta_axis, "auto, linear or log");
    validate_multimodal(s);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

std::vector<std::string> split_tokens(const std::string& sentence) {
  std::vector<std::string> words;
  std::string word;
  for (char c : sentence) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
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
