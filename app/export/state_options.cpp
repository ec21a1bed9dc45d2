#include "export/state_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/base/errors.hpp"
#include "pe/models/gguf_rope.hpp"
#include "pe/models/hf_cache.hpp"
#include "state/legacy_names.hpp"
#include "views/model_family.hpp"
#include "views/view.hpp"
#include "state/hub_config.hpp"

namespace app {

void add_state_options(CLI::App& cli, StateOverrides& o) {
  std::string views;
  for (const auto& v : all_views()) views += std::string(views.empty() ? "" : ", ") + v.name;
  cli.add_option("--view", o.view, "View to show: " + views);
  cli.add_option("--preset", o.preset, "Model preset (see `pe-viz dump --list-presets`)");
  cli.add_option("--config", o.config, "Hugging Face config.json to load");
  cli.add_option("--model", o.model,
                 "A model by name, ORG/NAME or ORG/NAME@REVISION: its config.json from the local Hugging Face cache, else from the "
                 "Hub into that cache (HF_ENDPOINT, HF_TOKEN; HF_HUB_OFFLINE=1: the cache only)");
  cli.add_option("--gguf", o.gguf, "A GGUF model file (its header and RoPE factor tensors are read, never the weights)");
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
  cli.add_option("--mistake", o.mistake, "common-mistake: which convention mix is shown: half-split-cache (a cat(freqs, freqs) cache read with interleaved pairs) | interleaved-cache (a repeat_interleave'd cache with a half-split rotate_half)");
  cli.add_option("--samples", o.samples, "Random pairs averaged in relative-score (>= 1)");
  cli.add_option("--seed", o.seed, "Random seed (0 ... 18446744073709551615)");
  cli.add_option("--heads", o.heads, "ALiBi head count (>= 1)");
  cli.add_option("--head", o.head, "ALiBi head shown (1 ... heads)");
  cli.add_option("--colormap", o.colormap, "Heatmap colormap: rdbu | viridis | cividis");
  cli.add_option("--ui-scale", o.ui_scale, "UI scale for projectors, 1 ... 3");
  cli.add_option("--line-width", o.line_width, "Plot line thickness multiplier, 1 ... 4 (projectors: 3)");
  cli.add_option("--tokens", o.tokens, "permutation: sentence A (1 ... 24 words)");
  cli.add_option("--tokens-b", o.tokens_b, "permutation: sentence B, the same words reordered");
  cli.add_option("--p-rope", o.p_rope,
                 "p-RoPE: keep the fastest fraction of the rotary pairs, drop the slowest (0 < p <= 1; 1 = off)");
  cli.add_option("--theta-low", o.theta_low, "theta-lesson: the low base (> 1)");
  cli.add_option("--theta-high", o.theta_high, "theta-lesson: the high base (> 1)");
  cli.add_option("--walkthrough-step", o.walkthrough_step, "walkthrough: step shown, 1 ... 5");
  // Multimodal views (issue 12)
  cli.add_option("--scheme", o.scheme, "Multi-axis layout: auto (the config's) | mrope | mrope-interleaved | ernie-3d | vision-2d | axial");
  cli.add_option("--sections", o.sections, "Rotary pairs per axis t,h,w (e.g. 16,24,24), summing to d/2; auto: the config's");
  cli.add_option("--prompt", o.prompt, "mrope-positions: prompt, e.g. \"text:4,image:1x8x12,video:4x8x8\" (grids before merging)");
  cli.add_option("--merge-size", o.merge_size, "spatial_merge_size, 1 ... 16 (image H and W divisible by it)");
  cli.add_option("--sample-fps", o.sample_fps, "Sampled video frames per second (Qwen2.5-VL's time ids), > 0");
  cli.add_option("--rope-index", o.rope_index, "get_rope_index rule: transformers-4 | transformers-5");
  cli.add_option("--prompt-token", o.prompt_token, "mrope-positions: selected token, 0 ... tokens-1");
  cli.add_option("--grid-rows", o.grid_rows, "rope-2d: patch grid rows (rows x cols <= 262144)");
  cli.add_option("--grid-cols", o.grid_cols, "rope-2d: patch grid columns");
  cli.add_option("--patch-row", o.patch_row, "rope-2d: query patch row, 0 ... grid_rows-1");
  cli.add_option("--patch-col", o.patch_col, "rope-2d: query patch column, 0 ... grid_cols-1");
  cli.add_option("--qk", o.qk, "rope-2d: q and k: identical | random | mean-identical | mean-random");
  cli.add_option("--weights", o.weights,
                 "frequency-usage: the trained model whose q/k weights are read: a model folder (config.json + safetensors), "
                 "a .safetensors or .gguf file, or ORG/NAME in the local Hugging Face cache");
  cli.add_option("--weights-layer", o.weights_layer, "frequency-usage: the layer whose heads x pairs are shown (0-based)");
  // Relative positions and length extrapolation (issue 32)
  cli.add_option("--num-buckets", o.num_buckets,
                 "t5-bias: relative_attention_num_buckets (>= 4 bidirectional, >= 2 causal; at most 4096)");
  cli.add_option("--max-distance", o.max_distance,
                 "t5-bias: relative_attention_max_distance (> num_buckets/4 bidirectional, > num_buckets/2 causal)");
  cli.add_flag("--causal", o.causal_switch, "t5-bias: the decoder's buckets (every key after the query in bucket 0); "
                                              "--causal=false: the encoder's, bidirectional")
      ->each([&o](const std::string& v) {
        // Called with the text CLI11 then converts (and refuses when it is no switch value).
        o.causal = !(v == "false" || v == "0" || v == "off" || v == "no" || v == "-1");
      });
  cli.add_option("--position-buckets", o.position_buckets, "deberta: position_buckets (2 ... 65536; DeBERTa-v3: 256)");
  cli.add_option("--max-relative-positions", o.max_relative_positions,
                 "deberta: max_relative_positions (< 1: max_position_embeddings stands in; >= position_buckets/2 + 2)");
  cli.add_option("--max-position-embeddings", o.max_position_embeddings,
                 "relative-key, deberta: rows of BERT's / DeBERTa's position table P (BERT: 512)");
  cli.add_option("--pos-att-type", o.pos_att_type, "deberta: position terms: c2p|p2c (v2, v3), c2p, p2c or none");
  cli.add_option("--position-embedding-type", o.position_embedding_type, "relative-key: relative_key | relative_key_query");
  cli.add_option("--scale-base", o.scale_base, "xpos: scale_base of the decay zeta^(Δ/scale_base) (> 0; torchscale: 512)");
  cli.add_option("--r1", o.r1, "KERPLE: r1 > 0 (log: -r1*log(1 + r2*Δ), power: -r1*Δ^r2)");
  cli.add_option("--r2", o.r2, "KERPLE: 0 < r2 <= 2 (the power variant's range; one r2 serves both)");
  cli.add_option("--sandwich-dim", o.sandwich_dim, "Sandwich: dimension of its sinusoids (even, 2 ... 8192)");
  cli.add_option("--fire-c", o.fire_c, "FIRE: c > 0 of log(c*x + 1)");
  cli.add_option("--fire-threshold", o.fire_threshold, "FIRE: the threshold L > 0 of max(L, i)");
  cli.add_option("--cope-text", o.cope_text, "cope: the sentence whose tokens the gates count (1 ... 512 tokens)");
  cli.add_option("--cope-gates", o.cope_gates, "cope: which tokens count: every-token | sentence-ends | words | punctuation");
  cli.add_option("--cope-npos-max", o.cope_npos_max, "cope: positions clamp at npos_max - 1 (1 ... 65536)");
  cli.add_option("--training-length", o.training_length, "distance-bias: the training length L_train marked (2 ... 10^9)");
  cli.add_option("--clamp-len", o.clamp_len, "transformer-xl: farther keys share R_clamp_len (0: no clamp)");
  cli.add_flag("--light", o.light, "Light theme");
  cli.add_flag("--grid", o.grid, "Show a 2x2 grid of views instead of tabs (in the GUI)");
  cli.add_flag("--no-pixel-mean", o.no_pixel_mean, "Point-sample heatmaps instead of the per-pixel mean");
}

void require_one_model_source(bool preset, bool config, bool model, bool gguf) {
  std::string given;
  for (const auto& [on, name] : {std::pair{preset, "--preset"}, {config, "--config"}, {model, "--model"}, {gguf, "--gguf"}})
    if (on) given += std::string(given.empty() ? "" : " and ") + name;
  if (static_cast<int>(preset) + config + model + gguf > 1)
    throw pe::InvalidArgument("model source", given, "one of --preset, --config, --model, --gguf (each chooses the model)");
}

namespace {

// A model from another source: the configuration shown at its training window; warnings
// the source reported (e.g. a cache without refs/main) go to stderr.
void adopt_loaded(AppState& s, const pe::LoadedConfig& loaded) {
  for (const auto& d : loaded.diagnostics)
    if (d.severity != pe::Severity::Info)
      std::fprintf(stderr, "pe-viz: %s: %s%s%s\n", pe::to_string(d.severity), d.key.c_str(), d.key.empty() ? "" : ": ",
                   d.message.c_str());
  s.preset.clear();
  adopt_model_encoding(s, loaded);
  if (!loaded.encoding.rotates()) return;
  s.rope = loaded.config;
  s.length = s.rope.original_max_position_embeddings();
}

// "16,24,24" (or "auto": the config's own) → `sections`.
std::vector<long long> parse_sections(const std::string& text) {
  if (text == "auto" || text.empty()) return {};
  std::vector<long long> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::size_t used = 0;
    long long v = -1;
    try {
      v = std::stoll(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size() || part.find_first_not_of(" 0123456789") != std::string::npos)
      throw pe::InvalidArgument("sections", "\"" + text + "\"", "three whole numbers t,h,w (e.g. 16,24,24) or auto");
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() != 3) throw pe::InvalidArgument("sections", "\"" + text + "\"", "three whole numbers t,h,w (e.g. 16,24,24) or auto");
  return out;
}

// A new prompt or grid moves the selection back inside it unless the selection was given too.
void apply_multimodal_overrides(AppState& s, const StateOverrides& o) {
  if (o.scheme) s.scheme = *o.scheme;
  if (o.sections) s.sections = parse_sections(*o.sections);
  if (o.prompt) s.prompt = *o.prompt;
  if (o.merge_size) s.merge_size = *o.merge_size;
  if (o.sample_fps) s.sample_fps = *o.sample_fps;
  if (o.rope_index) s.rope_index = *o.rope_index;
  if ((o.prompt || o.merge_size) && !o.prompt_token) {
    try {
      s.prompt_token = std::min(s.prompt_token, prompt_tokens(s.prompt, s.merge_size) - 1);
    } catch (const pe::InvalidArgument&) {
      // validate_state names the bad prompt or merge size below.
    }
  }
  if (o.prompt_token) s.prompt_token = *o.prompt_token;
  if (o.grid_rows) s.grid_rows = *o.grid_rows;
  if (o.grid_cols) s.grid_cols = *o.grid_cols;
  if (!o.patch_row) s.patch_row = std::clamp<long long>(s.patch_row, 0, std::max<long long>(s.grid_rows - 1, 0));
  if (!o.patch_col) s.patch_col = std::clamp<long long>(s.patch_col, 0, std::max<long long>(s.grid_cols - 1, 0));
  if (o.patch_row) s.patch_row = *o.patch_row;
  if (o.patch_col) s.patch_col = *o.patch_col;
  if (o.qk) s.qk = *o.qk;
  // Only when given here: a restored session's sections that d has left behind are the
  // views' to point out, not a reason to refuse to start.
  if (o.sections) require_sections_fit(s);
}

}  // namespace

namespace {
ModelConfigFetcher& fetcher_slot() {
  static ModelConfigFetcher f;
  return f;
}
}  // namespace

void set_model_config_fetcher(ModelConfigFetcher fetcher) { fetcher_slot() = std::move(fetcher); }

ModelConfigFetcher model_config_fetcher() {
  if (fetcher_slot()) return fetcher_slot();
  // No command line to report to: wait for the Hub quietly.
  return [](const std::string& model) {
    if (std::unique_ptr<pe::HubModel> hub = model_config_download(model)) {
      while (!hub->advance_config(100)) {
      }
      require_config_kept(*hub);
    }
  };
}

void apply_overrides(AppState& s, const StateOverrides& o) {
  require_one_model_source(o.preset.has_value(), o.config.has_value(), o.model.has_value(), o.gguf.has_value());
  if (o.preset) apply_preset(s, *o.preset);
  if (o.config) {
    pe::LoadedConfig loaded;
    try {
      loaded = pe::load_hf_config_diagnosed(*o.config);
    } catch (const pe::ConfigError& e) {
      // Core's message names the key; on the command line it must name the file too (as dump does).
      const std::string what = e.what();
      if (what.find(*o.config) != std::string::npos) throw;
      throw pe::ConfigError("", *o.config + ": " + what);
    }
    s.preset.clear();
    s.model_source = *o.config;
    adopt_model_encoding(s, loaded);
    if (loaded.encoding.rotates()) {
      s.rope = loaded.config;
      s.length = s.rope.original_max_position_embeddings();
    }
  }
  if (o.model) {
    model_config_fetcher()(*o.model);
    adopt_loaded(s, pe::load_cached_model_config(*o.model));
    s.model_source = pe::resolve_cached_model(*o.model).config_path.string();
  }
  if (o.gguf) {
    try {
      adopt_loaded(s, pe::load_gguf_config(*o.gguf).loaded);
      s.model_source = *o.gguf;
    } catch (const pe::ConfigError& e) {
      const std::string what = e.what();  // names the key and byte; the command line adds the file
      if (what.find(*o.gguf) != std::string::npos) throw;
      throw pe::ConfigError("", *o.gguf + ": " + what);
    }
  }
  // A model that does not rotate opens in its own view (GPT-2: learned, BLOOM: alibi) unless
  // --view names one.
  if (!o.view && (o.preset || o.config || o.model) && !s.model_encoding.rotates()) s.view = family_view(s);
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
  if (o.original_max_position_embeddings)
    pe::require_length("original-max-position-embeddings", *o.original_max_position_embeddings);
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
  if (o.mistake) s.mistake = current_mistake_name(*o.mistake);
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
  if (o.p_rope) {
    if (!std::isfinite(*o.p_rope) || *o.p_rope <= 0.0 || *o.p_rope > 1.0)
      throw pe::InvalidArgument("p-rope", pe::format_double(*o.p_rope), "0 < p <= 1 (the fraction of pairs kept)");
    s.p_rope = *o.p_rope;
  }
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
  apply_multimodal_overrides(s, o);
  if (o.weights) {
    if (o.weights->empty()) throw pe::InvalidArgument("weights", "\"\"", "a model folder, a .safetensors or .gguf file, or ORG/NAME");
    s.weights = *o.weights;
    if (!o.view) s.view = "frequency-usage";  // what --weights is for, unless another view is asked for
  }
  if (o.weights_layer) {
    if (*o.weights_layer < 0) throw pe::InvalidArgument("weights-layer", std::to_string(*o.weights_layer), "a layer index >= 0");
    s.weights_layer = *o.weights_layer;
  }
  if (o.num_buckets) s.num_buckets = *o.num_buckets;
  if (o.max_distance) s.max_distance = *o.max_distance;
  if (o.causal) s.causal = *o.causal;
  if (o.position_buckets) s.position_buckets = *o.position_buckets;
  if (o.max_relative_positions) s.max_relative_positions = *o.max_relative_positions;
  if (o.max_position_embeddings) s.max_position_embeddings = *o.max_position_embeddings;
  if (o.pos_att_type) s.pos_att_type = *o.pos_att_type;
  if (o.position_embedding_type) s.position_embedding_type = *o.position_embedding_type;
  if (o.scale_base) s.scale_base = *o.scale_base;
  if (o.r1) s.r1 = *o.r1;
  if (o.r2) s.r2 = *o.r2;
  if (o.sandwich_dim) s.sandwich_dim = *o.sandwich_dim;
  if (o.fire_c) s.fire_c = *o.fire_c;
  if (o.fire_threshold) s.fire_threshold = *o.fire_threshold;
  if (o.cope_text) s.cope_text = *o.cope_text;
  if (o.cope_gates) s.cope_gates = *o.cope_gates;
  if (o.cope_npos_max) s.cope_npos_max = *o.cope_npos_max;
  if (o.training_length) s.training_length = *o.training_length;
  if (o.clamp_len) s.clamp_len = *o.clamp_len;
  if (o.light) s.dark_theme = false;
  if (o.grid) s.grid = true;
  if (o.no_pixel_mean) s.pixel_mean = false;
  if (s.rope.head_dim != static_cast<long long>(s.vector.size())) s.vector.clear();
  const std::string error = validate_state(s);
  if (!error.empty()) throw std::runtime_error(error);
  {
    // An option this configuration does not use is accepted but said so.
    pe::OptionsGiven given;
    given.factor = o.factor.has_value();
    given.original_max_position_embeddings = o.original_max_position_embeddings.has_value();
    for (const auto& note : pe::ineffective_option_notes(s.rope, given)) std::fprintf(stderr, "pe-viz: note: %s\n", note.c_str());
  }
}

}  // namespace app
