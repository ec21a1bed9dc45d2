// Which rotary frequencies a trained model uses (issue 26): its q/k weights read per rotary
// pair (pe/weights, the measure of Barbero et al., "Round and Round We Go! What makes Rotary
// Positional Encodings useful?", ICLR 2025). A layers × pairs heatmap of each pair's share of
// the layer's q·k weight on a log wavelength axis, with the training context marked; the
// selected layer's q, k and q·k curves with the config's RoPE frequencies on the same axis;
// its heads × pairs; and a note saying, measured, whether the model keeps its largest norms
// in the slow pairs and what p-RoPE would take away.
//
// The weights are read on a worker thread (state/weights_usage): a progress bar and Cancel
// while a big checkpoint streams through, never a frame spent waiting; exports wait.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "pe/scaling/scaling.hpp"
#include "plot/log_x_heatmap.hpp"
#include "platform/frame_pacing.hpp"
#include "platform/host.hpp"
#include "state/weights_usage.hpp"
#include "views/multimodal_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {

constexpr double kPRope = 0.75;  // the p-RoPE the note weighs (Barbero et al. keep ¾ of the pairs)
// The fastest pairs p-RoPE keeps rotating: transformers' int(p · head_dim // 2), head_dim = 2·pairs.
long long prope_kept(long long pairs) { return static_cast<long long>(std::floor(kPRope * double(2 * pairs) / 2.0)); }

bool light_theme() {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  return 0.2126f * bg.x + 0.7152f * bg.y + 0.0722f * bg.z > 0.5f;
}
ImVec4 error_color() { return light_theme() ? ImVec4(0.75f, 0.05f, 0.05f, 1) : ImVec4(1.0f, 0.45f, 0.4f, 1); }
// The training context's line: over a Viridis heatmap (dark purple to yellow) and on either
// theme's background.
constexpr ImU32 kContextOnHeatmap = IM_COL32(240, 70, 40, 255);

double wavelength_of(double inv_freq) { return inv_freq > 0.0 ? 2.0 * std::numbers::pi / inv_freq : std::numeric_limits<double>::infinity(); }

// "stories260K" from ".../stories260K/model.safetensors", a cache name as it is.
std::string short_name(const std::string& source) {
  std::string s = source;
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  const auto slash = s.rfind('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

// ---- What the plots need, from one measured model -----------------------------------------

struct LayerCurves {
  long long entry = -1;  // index into FrequencyUsage's per-layer arrays
  std::vector<double> wavelength;  // the layer's unscaled λ_j (2π / original θ_j)
  std::vector<double> scaled_wavelength;  // as the model rotates at its full context
  std::vector<double> q, k, qk;  // shares of the layer's total, in %
  std::vector<float> head_qk;  // heads × pairs: ‖q_h,j‖·‖k_g(h),j‖
  long long heads = 0, pairs = 0;
  double head_qk_max = 0.0;
  bool geometric = false;  // λ_j evenly spaced in log: the heads heatmap gets the λ axis
};

struct Prepared {
  unsigned long long serial = 0;  // WeightsUsage::serial of the reading prepared
  long long pairs = 0;  // columns: the most pairs a layer has
  std::vector<long long> layers;  // layer index per heatmap row
  std::vector<float> share;  // rows × pairs, w_j / Σ w (NaN: no q·k there)
  double share_max = 0.0;
  std::vector<double> wavelength;  // the main RoPE's unscaled λ_j
  bool geometric = false;  // every rotary layer has these λ_j and they are evenly spaced in log
  // Per row, the pair edge where λ passes the training context (fallback axis: pair units).
  std::vector<double> context_edge;
  // The measured statement.
  long long measured_layers = 0;
  double mean_fastest = 0, mean_middle = 0, mean_slowest = 0, mean_beyond = 0, mean_prope = 0;
  long long prope_first = 0;  // first pair p-RoPE stops rotating (main RoPE)
  unsigned long long version = 0;
};

bool is_geometric(const std::vector<double>& w) {
  if (w.size() < 2) return w.size() == 1 && std::isfinite(w[0]) && w[0] > 0;
  for (double v : w)
    if (!std::isfinite(v) || v <= 0) return false;
  const double r = w[1] / w[0];
  if (!(r > 1.0)) return false;
  for (std::size_t j = 1; j < w.size(); ++j)
    if (std::abs(std::log(w[j] / w[j - 1]) / std::log(r) - 1.0) > 1e-6) return false;
  return true;
}

// Outer cell edges of geometric wavelengths (a single pair gets a factor-2 cell).
std::pair<double, double> log_edges(const std::vector<double>& w) {
  const double r = w.size() >= 2 ? w[1] / w[0] : 2.0;
  return {w.front() / std::sqrt(r), w.back() * std::sqrt(r)};
}

double share_of(const pe::LayerUsage& l, long long first, long long last) {
  if (!(l.total > 0)) return 0.0;
  double s = 0;
  for (long long j = std::max<long long>(first, 0); j < std::min<long long>(last, l.qk.size()); ++j) s += l.qk[j];
  return s / l.total;
}

unsigned long long g_version = 0;

const Prepared& prepare(const WeightsUsage& w) {
  static Prepared p;
  if (p.serial == w.serial && p.version != 0) return p;
  p = Prepared{};
  p.serial = w.serial;
  p.version = ++g_version;
  const pe::FrequencyUsage& u = w.usage;
  for (const auto& l : w.summary) p.pairs = std::max<long long>(p.pairs, l.qk.size());
  for (Eigen::Index j = 0; j < u.original_inv_freq.size(); ++j) p.wavelength.push_back(wavelength_of(u.original_inv_freq[j]));
  p.geometric = static_cast<long long>(p.wavelength.size()) == p.pairs && is_geometric(p.wavelength);
  const std::size_t n = w.summary.size();
  p.share.assign(n * static_cast<std::size_t>(std::max<long long>(p.pairs, 1)), std::numeric_limits<float>::quiet_NaN());
  const long long kept = p.pairs > 0 ? prope_kept(p.pairs) : 0;
  p.prope_first = kept;
  for (std::size_t r = 0; r < n; ++r) {
    const pe::LayerUsage& l = w.summary[r];
    p.layers.push_back(l.layer);
    const long long pairs = l.qk.size();
    // Where this layer's unscaled wavelengths pass the training context, in pair units.
    double edge = double(pairs) - 0.5;
    if (r < u.layer_original_inv_freq.size()) {
      const auto& f = u.layer_original_inv_freq[r];
      for (Eigen::Index j = 0; j < f.size(); ++j)
        if (wavelength_of(f[j]) > double(u.training_context)) {
          edge = double(j) - 0.5;
          break;
        }
      // A layer rotating with other frequencies than the main RoPE has no place on its λ axis.
      if (p.geometric && l.rotary && l.attention) {
        if (f.size() != static_cast<Eigen::Index>(p.wavelength.size())) p.geometric = false;
        else
          for (Eigen::Index j = 0; j < f.size(); ++j)
            if (std::abs(wavelength_of(f[j]) / p.wavelength[static_cast<std::size_t>(j)] - 1.0) > 1e-9) p.geometric = false;
      }
    }
    p.context_edge.push_back(edge);
    if (!l.attention || !l.rotary || !(l.total > 0)) continue;
    for (long long j = 0; j < pairs; ++j) {
      const double s = l.qk[j] / l.total;
      p.share[r * static_cast<std::size_t>(p.pairs) + static_cast<std::size_t>(j)] = static_cast<float>(s);
      p.share_max = std::max(p.share_max, s);
    }
    ++p.measured_layers;
    p.mean_fastest += l.share_fastest;
    p.mean_middle += l.share_middle;
    p.mean_slowest += l.share_slowest;
    double beyond = 0;
    for (long long j : l.pairs_beyond_context) beyond += l.qk[j];
    p.mean_beyond += beyond / l.total;
    p.mean_prope += share_of(l, prope_kept(pairs), pairs);
  }
  if (p.measured_layers > 0) {
    const double m = double(p.measured_layers);
    p.mean_fastest /= m, p.mean_middle /= m, p.mean_slowest /= m, p.mean_beyond /= m, p.mean_prope /= m;
  }
  return p;
}

// The entry (index into the per-layer arrays) showing model layer `layer`, else the first
// layer with q·k weight.
long long entry_of(const WeightsUsage& w, long long layer) {
  long long first = -1;
  for (std::size_t i = 0; i < w.summary.size(); ++i) {
    const auto& l = w.summary[i];
    if (l.layer == layer && l.attention && l.rotary) return static_cast<long long>(i);
    if (first < 0 && l.attention && l.rotary && l.total > 0) first = static_cast<long long>(i);
  }
  return first;
}

const LayerCurves& layer_curves(const WeightsUsage& w, long long entry) {
  static LayerCurves c;
  static unsigned long long for_version = 0;
  const unsigned long long v = prepare(w).version;
  if (for_version == v && c.entry == entry) return c;
  for_version = v;
  c = LayerCurves{};
  c.entry = entry;
  if (entry < 0) return c;
  const pe::FrequencyUsage& u = w.usage;
  const pe::LayerUsage& l = w.summary[static_cast<std::size_t>(entry)];
  const Eigen::ArrayXXd& q = u.q_pair_norms[static_cast<std::size_t>(entry)];
  const Eigen::ArrayXXd& k = u.k_pair_norms[static_cast<std::size_t>(entry)];
  c.heads = q.rows(), c.pairs = q.cols();
  const auto& f0 = u.layer_original_inv_freq[static_cast<std::size_t>(entry)];
  const auto& f = u.layer_inv_freq[static_cast<std::size_t>(entry)];
  for (Eigen::Index j = 0; j < f0.size(); ++j) c.wavelength.push_back(wavelength_of(f0[j]));
  for (Eigen::Index j = 0; j < f.size(); ++j) c.scaled_wavelength.push_back(wavelength_of(f[j]));
  c.geometric = is_geometric(c.wavelength) && static_cast<long long>(c.wavelength.size()) == c.pairs;
  const double q_total = q.sum(), k_total = k.sum();
  for (long long j = 0; j < c.pairs; ++j) {
    c.q.push_back(q_total > 0 ? 100.0 * q.col(j).sum() / q_total : 0.0);
    c.k.push_back(k_total > 0 ? 100.0 * k.col(j).sum() / k_total : 0.0);
    c.qk.push_back(l.total > 0 ? 100.0 * l.qk[j] / l.total : 0.0);
  }
  const long long group = k.rows() > 0 ? std::max<long long>(c.heads / k.rows(), 1) : 1;
  c.head_qk.resize(static_cast<std::size_t>(c.heads * c.pairs));
  for (long long h = 0; h < c.heads; ++h)
    for (long long j = 0; j < c.pairs; ++j) {
      const long long g = std::min<long long>(h / group, k.rows() - 1);
      const double v = g >= 0 ? q(h, j) * k(g, j) : 0.0;
      c.head_qk[static_cast<std::size_t>(h * c.pairs + j)] = static_cast<float>(v);
      c.head_qk_max = std::max(c.head_qk_max, v);
    }
  return c;
}

// ---- The measured statement --------------------------------------------------------------

// `brief`: the verdict and its numbers only, for short windows (a projector at 2×).
std::string measured_note(const WeightsUsage& w, const Prepared& p, bool brief) {
  const pe::FrequencyUsage& u = w.usage;
  if (p.measured_layers == 0) return "No layer of this model has rotary q/k weights to measure.";
  const long long q = pe::quarter_pairs(p.pairs);
  const double slow_from = p.pairs > 0 && p.wavelength.size() >= static_cast<std::size_t>(p.pairs) ? p.wavelength[std::size_t(p.pairs - q)] : 0.0;
  if (brief) {
    const double diff = p.mean_slowest - p.mean_fastest;
    return formatted("Measured: the slowest quarter of the pairs carries %.1f%% of Σ‖q_j‖·‖k_j‖, the fastest %.1f%% (even: 25%%): %s. "
                     "p-RoPE (p = %.2g) would stop rotating %.1f%% of it.",
                     100.0 * p.mean_slowest, 100.0 * p.mean_fastest,
                     diff > 0.02    ? "like Gemma 7B (Barbero et al., ICLR 2025), the largest norms sit in the slow pairs"
                     : diff < -0.02 ? "unlike Gemma 7B (Barbero et al., ICLR 2025), the largest norms sit in the fast pairs"
                                    : "norms spread about evenly (Barbero et al. found Gemma 7B's largest in the slow pairs)",
                     kPRope, 100.0 * p.mean_prope);
  }
  std::string s = formatted("Measured: over its %lld rotating layers, the slowest quarter of the pairs (λ ≥ %.4g) carries %.1f%% of "
                            "Σ‖q_j‖·‖k_j‖ on average, the fastest quarter %.1f%% (an even spread: 25%%). ",
                            p.measured_layers, slow_from, 100.0 * p.mean_slowest, 100.0 * p.mean_fastest);
  const std::string name = short_name(w.source);
  const double diff = p.mean_slowest - p.mean_fastest;
  if (diff > 0.02)
    s += "Like Gemma 7B in Barbero et al. (ICLR 2025), " + name +
         " keeps its largest q/k norms in the slow pairs, channels that barely turn: they carry content more than position. ";
  else if (diff < -0.02)
    s += "Unlike Gemma 7B in Barbero et al. (ICLR 2025), " + name + " keeps its largest q/k norms in the fast, position-sensitive pairs. ";
  else
    s += name + " spreads its q/k norms about evenly over fast and slow pairs (Barbero et al. found Gemma 7B's largest in the slow ones). ";
  const long long dropped = p.pairs - p.prope_first;
  if (dropped > 0) {
    std::vector<long long> v;
    for (long long j = p.prope_first; j < p.pairs; ++j) v.push_back(j);
    s += formatted("p-RoPE with p = %.2g would stop rotating pair%s %s: %.1f%% of the q·k weight. ", kPRope, dropped == 1 ? "" : "s",
                   pair_ranges(v).c_str(), 100.0 * p.mean_prope);
  }
  std::vector<long long> beyond;
  for (std::size_t j = 0; j < p.wavelength.size(); ++j)
    if (p.wavelength[j] > double(u.training_context)) beyond.push_back(static_cast<long long>(j));
  if (!beyond.empty())
    s += formatted("Pair%s %s never complete%s a turn in the %lld training positions and carr%s %.1f%%.", beyond.size() == 1 ? "" : "s",
                   pair_ranges(beyond).c_str(), beyond.size() == 1 ? "s" : "", u.training_context, beyond.size() == 1 ? "ies" : "y",
                   100.0 * p.mean_beyond);
  else
    s += formatted("Every pair turns at least once in the %lld training positions.", u.training_context);
  return s;
}

// ---- States without a picture ------------------------------------------------------------

void how_to_load(ViewContext& ctx, const char* lead) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(lead);
  ImGui::Spacing();
  // A page has no paths, no cache and no command line: its files come by drop or picker.
  const bool paths = host::capabilities().file_paths;
  const std::vector<const char*> ways =
      paths ? std::vector<const char*>{"Drop a model folder (config.json + *.safetensors), a .safetensors file or a .gguf onto the window.",
                                       "Type its path, or ORG/NAME of a model in your Hugging Face cache, below and press Open.",
                                       "On the command line: pe-viz --weights PATH|ORG/NAME (and pe-viz export --view frequency-usage "
                                       "--weights PATH -o usage.png).",
                                       "In a session file: \"weights\": \"PATH\" (File → Open session…)."}
            : std::vector<const char*>{"Drop a model's config.json and its .safetensors files together (shards with their index), or a .gguf, onto the page.",
                                       "Or pick them with File → Open model files… (weights files over 64 MiB are read in place, by range: "
                                       "never copied into this browser tab).",
                                       "A model on the Hugging Face Hub: type ORG/NAME below (or in the Model field) and press Open: "
                                       "only its config.json, headers and q/k rows are fetched."};
  for (const char* way : ways) {
    ImGui::Bullet();
    text_wrapped_unformatted(way);
  }
  ImGui::Spacing();
  ImGui::TextDisabled("Only the q and k projections are read, straight from the memory-mapped files: safetensors in F32, F16, BF16 "
                      "or FP8 (F8_E4M3 / F8_E5M2 with their block scales, as DeepSeek-V3 and Kimi K2 ship them; single or sharded), "
                      "GGUF in F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, IQ4_NL, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K or IQ4_XS. An 8B "
                      "model's 1.25 GiB of q/k "
                      "reads in about a second from the page cache, on a worker thread; `pe-viz weights` prints the same numbers.");
  ImGui::PopTextWrapPos();
  if (!ctx.show_widgets() || (!paths && !host::capabilities().hub_models)) return;
  static std::string typed;
  ImGui::Spacing();
  // The narrow layout: the field the whole line (its hint whole), Open under it.
  ImGui::SetNextItemWidth(ctx.narrow ? ImGui::GetContentRegionAvail().x : std::min(ctx.size.x * 0.6f, ImGui::GetFontSize() * 36.0f));
  const bool enter = ImGui::InputTextWithHint("##weights-path", paths ? "model folder, .safetensors, .gguf or ORG/NAME" : "ORG/NAME (on the Hub)",
                                              &typed, ImGuiInputTextFlags_EnterReturnsTrue);
  if (!ctx.narrow) ImGui::SameLine();
  if ((ImGui::Button("Open") || enter) && !typed.empty()) {
    forget_weights(typed);
    ctx.state.weights = typed;
    ctx.state.weights_layer = 0;
  }
}

// Before any weights: the pairs of the configuration on screen, which a model's norms will be
// laid against (the training context marked), so the view is never an empty frame.
void config_preview(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return;
  const pe::ScaledFrequencies& r = ctx.derived.rope;
  const long long pairs = r.inv_freq.size();
  if (pairs == 0) return;
  std::vector<double> xs = index_axis(pairs), wl, wl0;
  for (long long j = 0; j < pairs; ++j) {
    wl.push_back(wavelength_of(r.inv_freq[j]));
    wl0.push_back(wavelength_of(j < r.original_inv_freq.size() ? r.original_inv_freq[j] : r.inv_freq[j]));
  }
  const long long context = ctx.state.rope.original_max_position_embeddings();
  const std::string name = !ctx.state.preset.empty() ? "the preset " + ctx.state.preset
                           : !ctx.state.model_source.empty() ? short_name(ctx.state.model_source)
                                                               : std::string("the configuration on screen");
  const std::string title = formatted("Until weights are read: the %lld rotary pairs of %s and its training context", pairs, name.c_str());
  ImGui::Spacing();
  const float h = ImGui::GetContentRegionAvail().y;
  if (h < plot::min_plot_height({.title = "t"})) return;  // the text above is what matters; no scrolling for a preview
  if (!plot::begin_plot("##fu-config", {ctx.size.x, h}, {.title = title.c_str()})) return;
  plot::setup_axes({.label = "rotary pair j (fastest left)", .min = -0.5, .max = pairs - 0.5, .auto_fit = false},
                   {.label = "wavelength λ_j (positions)", .scale = plot::Scale::Log});
  bool scaled = false;
  for (long long j = 0; j < pairs; ++j) scaled = scaled || wl[std::size_t(j)] != wl0[std::size_t(j)];
  if (scaled) plot::plot_line("unscaled λ_j", xs, wl0, {.color = plot::series_color(0), .thickness = 1.5f, .dashed = true});
  plot::plot_line(scaled ? "λ_j as rotated (scaled)" : "λ_j = 2π·θ^(2j/d)", xs, wl, {.color = plot::series_color(3), .markers = pairs <= 64});
  plot::plot_hline(formatted("training context %lld", context).c_str(), double(context),
                   {.color = kContextOnHeatmap, .thickness = 2.0f, .dashed = true});
  if (plot::is_plot_hovered()) {
    const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, pairs - 1);
    plot::hover_text("pair %lld: λ = %.5g positions%s", j, wl[std::size_t(j)],
                     wl0[std::size_t(j)] > double(context) ? " (never a full turn in the training context)" : "");
  }
  plot::end_plot();
}

void reading(ViewContext& ctx, const WeightsStatus& st) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text("Reading the q/k weights of %s …", ctx.state.weights.c_str());
  ImGui::PopTextWrapPos();
  const std::string label = st.bytes_total > 0 ? formatted("layer %lld of %lld: %s of %s", st.layer + 1, std::max(st.layers, st.layer + 1),
                                                           byte_count(st.bytes_read).c_str(), byte_count(st.bytes_total).c_str())
                                               : std::string("opening …");
  ImGui::ProgressBar(float(st.fraction), ImVec2(std::min(ctx.size.x, ImGui::GetFontSize() * 30.0f), 0.0f), label.c_str());
  if (ctx.show_widgets()) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) cancel_weights_reading();
  }
  ImGui::TextDisabled("Only q and k are read, a batch at a time; the other views keep working meanwhile.");
  request_frame_within(0.1);  // the bar moves without input
}

void failed(ViewContext& ctx, const WeightsUsage& w) {
  ImGui::PushTextWrapPos(0.0f);
  if (w.cancelled) {
    ImGui::Text("Reading %s was cancelled.", w.source.c_str());
  } else {
    ImGui::TextColored(error_color(), "Cannot read %s:", w.source.c_str());
    ImGui::TextColored(error_color(), "%s", w.error.c_str());
  }
  ImGui::PopTextWrapPos();
  if (ctx.show_widgets()) {
    if (ImGui::Button(w.cancelled ? "Read again" : "Try again")) forget_weights(w.source);
    ImGui::SameLine();
    if (ImGui::Button("Close")) ctx.state.weights.clear();
  }
  ImGui::Spacing();
  how_to_load(ctx, "Weights this view reads:");
}

// A model that does not rotate has no rotary frequencies to measure: say what it has
// instead and where its trained position tensors are drawn.
void not_rotary(ViewContext& ctx, const WeightsUsage& w) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text("%s: model_type %s does not rotate q and k — its positions are %s. There is no frequency usage to measure.",
              w.source.c_str(), w.encoding.model_type.c_str(), describe_position_encoding(w.encoding).c_str());
  const pe::TrainedPositions& t = w.positions;
  const bool learned = t.position_embeddings || t.encoder_position_embeddings || t.vision_position_embeddings;
  const bool bias = t.encoder_bias || t.decoder_bias;
  if (learned || bias)
    ImGui::TextDisabled("Its trained position tensors were read (%s): see the %s view.", byte_count(t.bytes_read).c_str(),
                        learned ? "learned" : "t5-bias");
  ImGui::PopTextWrapPos();
  if (ctx.show_widgets()) {
    if (learned && ImGui::Button("Open the learned view")) ctx.state.view = "learned";
    if (!learned && bias && ImGui::Button("Open the t5-bias view")) ctx.state.view = "t5-bias";
    if (learned || bias) ImGui::SameLine();
    if (ImGui::Button("Close")) ctx.state.weights.clear();
  }
}

// ---- The plots ---------------------------------------------------------------------------

// The longer text when it fits in `width` pixels with the current font, else the shorter.
std::string fitting(const std::string& longer, const std::string& shorter, float width) {
  return ImGui::CalcTextSize(longer.c_str()).x <= width * 0.85f ? longer : shorter;
}

void layers_heatmap(ViewContext& ctx, const WeightsUsage& w, const Prepared& p, long long entry, ImVec2 size) {
  const pe::FrequencyUsage& u = w.usage;
  const int rows = static_cast<int>(p.layers.size());
  const double vmax = p.share_max > 0 ? p.share_max : 1.0;
  const float bar_w = plot::colorbar_width("share", 0.0, vmax);
  const float plot_w = size.x - bar_w - ImGui::GetStyle().ItemSpacing.x;
  const std::string title =
      fitting(formatted("Each pair's share of its layer's q·k weight w_j = Σ_h ‖q_h,j‖·‖k_g(h),j‖ (selected layer outlined%s)",
                        ctx.show_widgets() ? "; click a layer" : ""),
              formatted("q·k share per layer%s", ctx.show_widgets() ? " (click one)" : ""), plot_w);
  const std::string context_long = formatted("; dashed: the training context, %lld", u.training_context);
  const std::string context_short = formatted("; dashed: context %lld", u.training_context);
  if (plot::begin_plot("##fu-layers", {plot_w, size.y}, {.title = title.c_str(), .legend = false})) {
    const plot::AxisSpec y{.label = "layer", .min = -0.5, .max = rows - 0.5, .auto_fit = false, .invert = true};
    if (p.geometric) {
      const auto [x0, x1] = log_edges(p.wavelength);
      const std::string label = fitting("wavelength λ_j = 2π/θ_j (positions)" + context_long,
                                        fitting("λ_j (positions)" + context_short, "λ_j (positions)", plot_w), plot_w);
      plot::setup_axes({.label = label.c_str(), .scale = plot::Scale::Log, .min = x0, .max = x1, .auto_fit = false}, y);
      plot::plot_value_heatmap_log_x("share", {.values = p.share, .rows = rows, .columns = int(p.pairs), .x0 = x0, .x1 = x1,
                                               .y0 = -0.5, .y1 = rows - 0.5, .colormap = plot::Colormap::Viridis, .vmin = 0.0,
                                               .vmax = vmax, .version = p.version, .y_down = true});
      if (double(u.training_context) > x0 && double(u.training_context) < x1)
        plot::plot_vline("##training context", double(u.training_context), {.color = kContextOnHeatmap, .thickness = 2.0f, .dashed = true});
    } else {
      const std::string label = fitting("rotary pair j (fastest left; layers rotate with their own θ)" + context_long,
                                        fitting("pair j" + context_short, "pair j", plot_w), plot_w);
      plot::setup_axes({.label = label.c_str(), .min = -0.5, .max = p.pairs - 0.5, .auto_fit = false}, y);
      plot::plot_value_heatmap("share", {.values = p.share, .rows = rows, .columns = int(p.pairs), .x0 = -0.5, .x1 = p.pairs - 0.5,
                                         .y0 = -0.5, .y1 = rows - 0.5, .colormap = plot::Colormap::Viridis, .vmin = 0.0, .vmax = vmax,
                                         .version = p.version, .y_down = true});
      // A step line through each layer's own edge where λ passes the training context.
      std::vector<double> xs, ys;
      for (int r = 0; r < rows; ++r) {
        xs.push_back(p.context_edge[std::size_t(r)]), ys.push_back(r - 0.5);
        xs.push_back(p.context_edge[std::size_t(r)]), ys.push_back(r + 0.5);
      }
      plot::plot_line("##training context", xs, ys, {.color = kContextOnHeatmap, .thickness = 2.0f, .dashed = true});
    }
    // The selected layer, outlined by two lines along its row.
    if (entry >= 0) {
      const double lo = p.geometric ? log_edges(p.wavelength).first : -0.5, hi = p.geometric ? log_edges(p.wavelength).second : p.pairs - 0.5;
      const std::vector<double> xs = {lo, hi};
      for (double dy : {-0.5, 0.5}) {
        const std::vector<double> ys = {double(entry) + dy, double(entry) + dy};
        plot::plot_line(dy < 0 ? "selected layer" : "##selected-bottom", xs, ys,
                        {.color = ImGui::GetColorU32(ImGuiCol_Text), .thickness = 2.0f, .in_legend = dy < 0});
      }
    }
    if (plot::is_plot_hovered() && rows > 0 && p.pairs > 0) {
      const long long r = std::clamp<long long>(std::llround(plot::mouse_y()), 0, rows - 1);
      long long j = 0;
      if (p.geometric) {
        const auto [x0, x1] = log_edges(p.wavelength);
        j = std::clamp<long long>(static_cast<long long>(std::floor(std::log(plot::mouse_x() / x0) / std::log(x1 / x0) * double(p.pairs))),
                                  0, p.pairs - 1);
      } else {
        j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, p.pairs - 1);
      }
      const pe::LayerUsage& l = w.summary[std::size_t(r)];
      if (!l.attention) plot::hover_text("layer %lld: no attention (no q/k weights)", l.layer);
      else if (!l.rotary) plot::hover_text("layer %lld: NoPE (no rotary pairs)", l.layer);
      else if (j < static_cast<long long>(l.qk.size()))
        plot::hover_text("layer %lld, pair %lld: λ = %.4g positions; w_j = %.5g = %.2f%% of the layer's Σ w_j", l.layer, j,
                         r < (long long)u.layer_original_inv_freq.size() && j < u.layer_original_inv_freq[std::size_t(r)].size()
                             ? wavelength_of(u.layer_original_inv_freq[std::size_t(r)][j])
                             : 0.0,
                         l.qk[j], l.total > 0 ? 100.0 * l.qk[j] / l.total : 0.0);
      if (ctx.show_widgets() && plot_clicked()) ctx.state.weights_layer = l.layer;
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("share", 0.0, vmax, plot::Colormap::Viridis, {bar_w, size.y});
}

void layer_curves_plot(const WeightsUsage& w, const LayerCurves& c, long long layer, ImVec2 size) {
  const pe::FrequencyUsage& u = w.usage;
  const std::string title = fitting(formatted("Layer %lld: each pair's share of Σ‖q‖, Σ‖k‖ and Σ w (%%)", layer),
                                    formatted("Layer %lld: shares (%%)", layer), size.x);
  if (!plot::begin_plot("##fu-curves", size, {.title = title.c_str()})) return;
  // Room above the curves for the legend (top right).
  double top = 100.0 / double(std::max<long long>(c.pairs, 1));
  for (const auto* v : {&c.q, &c.k, &c.qk})
    for (double y : *v) top = std::max(top, y);
  // A strip under 0 for the markers of the config's frequencies.
  const double strip = top * 0.08;
  const plot::AxisSpec y_axis{.label = "share (%)", .min = -strip, .max = top * 1.9, .auto_fit = false};
  std::vector<double> xs;
  bool finite = true;
  for (double v : c.wavelength) finite = finite && std::isfinite(v) && v > 0;
  if (finite && !c.wavelength.empty()) {
    xs = c.wavelength;
    const auto [x0, x1] = c.wavelength.size() >= 2 ? log_edges(c.wavelength) : std::pair{c.wavelength[0] / 2, c.wavelength[0] * 2};
    plot::setup_axes({.label = "wavelength λ_j (positions)", .scale = plot::Scale::Log, .min = x0, .max = x1, .auto_fit = false}, y_axis);
  } else {
    xs = index_axis(c.pairs);
    plot::setup_axes({.label = "rotary pair j", .min = -0.5, .max = c.pairs - 0.5, .auto_fit = false}, y_axis);
  }
  if (c.pairs > 0) plot::plot_hline("even spread", 100.0 / double(c.pairs), {.color = ImGui::GetColorU32(ImGuiCol_TextDisabled), .thickness = 1.0f, .dashed = true});
  plot::plot_line("‖q_j‖ (Σ over query heads)", xs, c.q, {.color = plot::series_color(0), .markers = c.pairs <= 64});
  plot::plot_line("‖k_j‖ (Σ over key heads)", xs, c.k, {.color = plot::series_color(1), .markers = c.pairs <= 64});
  plot::plot_line("q·k w_j", xs, c.qk, {.color = plot::series_color(4), .thickness = 3.0f, .markers = c.pairs <= 64});
  if (finite) {
    // The RoPE frequencies the config implies, on the same axis: each pair's λ_j as it
    // rotates (scaled at the full context where the config scales).
    const std::vector<double> zeros(c.scaled_wavelength.size(), -strip / 2);
    std::vector<double> sx;
    for (double v : c.scaled_wavelength) sx.push_back(std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN());
    bool scaled = false;
    for (std::size_t j = 0; j < sx.size() && j < c.wavelength.size(); ++j) scaled = scaled || std::abs(sx[j] / c.wavelength[j] - 1.0) > 1e-9;
    plot::plot_points(scaled ? "config's λ_j as rotated (scaled)" : "config's RoPE λ_j = 2π·θ^(2j/d)", sx, zeros,
                      {.color = plot::series_color(3)});
    if (double(u.training_context) > 0) {
      plot::plot_vline("##training context", double(u.training_context), {.color = kContextOnHeatmap, .thickness = 2.0f, .dashed = true});
      const std::string label = formatted("training context, %lld", u.training_context);
      plot::plot_line(label.c_str(), {}, {}, {.color = kContextOnHeatmap, .thickness = 2.0f, .dashed = true});
    }
  }
  if (plot::is_plot_hovered() && c.pairs > 0) {
    long long j = 0;
    if (finite && c.wavelength.size() >= 2) {
      const auto [x0, x1] = log_edges(c.wavelength);
      j = std::clamp<long long>(static_cast<long long>(std::floor(std::log(plot::mouse_x() / x0) / std::log(x1 / x0) * double(c.pairs))), 0,
                                c.pairs - 1);
    } else if (!finite) {
      j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, c.pairs - 1);
    }
    plot::hover_text("pair %lld: λ = %.5g positions (as rotated %.5g)", j, c.wavelength[std::size_t(j)],
                     j < (long long)c.scaled_wavelength.size() ? c.scaled_wavelength[std::size_t(j)] : 0.0);
    plot::hover_text("‖q‖ %.2f%%, ‖k‖ %.2f%%, q·k %.2f%%", c.q[std::size_t(j)], c.k[std::size_t(j)], c.qk[std::size_t(j)]);
  }
  plot::end_plot();
}

void heads_heatmap(const WeightsUsage& w, const LayerCurves& c, long long layer, ImVec2 size) {
  const double vmax = c.head_qk_max > 0 ? c.head_qk_max : 1.0;
  const float bar_w = plot::colorbar_width("‖q‖·‖k‖", 0.0, vmax);
  const std::string title = fitting(formatted("Layer %lld: heads × pairs, ‖q_h,j‖·‖k_g(h),j‖", layer),
                                    formatted("Layer %lld: ‖q‖·‖k‖ per head", layer), size.x - bar_w);
  const int rows = int(c.heads);
  if (plot::begin_plot("##fu-heads", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title.c_str(), .legend = false})) {
    const plot::AxisSpec y{.label = "head", .min = -0.5, .max = rows - 0.5, .auto_fit = false, .invert = true};
    if (c.geometric) {
      const auto [x0, x1] = log_edges(c.wavelength);
      plot::setup_axes({.label = "wavelength λ_j (positions)", .scale = plot::Scale::Log, .min = x0, .max = x1, .auto_fit = false}, y);
      plot::plot_value_heatmap_log_x("heads", {.values = c.head_qk, .rows = rows, .columns = int(c.pairs), .x0 = x0, .x1 = x1,
                                               .y0 = -0.5, .y1 = rows - 0.5, .colormap = plot::Colormap::Viridis, .vmin = 0.0,
                                               .vmax = vmax, .version = g_version * 100000ull + std::uint64_t(layer), .y_down = true});
      const double context = double(w.usage.training_context);
      if (context > x0 && context < x1)
        plot::plot_vline("##training context", context, {.color = kContextOnHeatmap, .thickness = 2.0f, .dashed = true});
    } else {
      plot::setup_axes({.label = "rotary pair j", .min = -0.5, .max = c.pairs - 0.5, .auto_fit = false}, y);
      plot::plot_value_heatmap("heads", {.values = c.head_qk, .rows = rows, .columns = int(c.pairs), .x0 = -0.5, .x1 = c.pairs - 0.5,
                                         .y0 = -0.5, .y1 = rows - 0.5, .colormap = plot::Colormap::Viridis, .vmin = 0.0, .vmax = vmax,
                                         .version = g_version * 100000ull + std::uint64_t(layer), .y_down = true});
    }
    if (plot::is_plot_hovered() && rows > 0 && c.pairs > 0) {
      const long long h = std::clamp<long long>(std::llround(plot::mouse_y()), 0, rows - 1);
      long long j = 0;
      if (c.geometric) {
        const auto [x0, x1] = log_edges(c.wavelength);
        j = std::clamp<long long>(static_cast<long long>(std::floor(std::log(plot::mouse_x() / x0) / std::log(x1 / x0) * double(c.pairs))),
                                  0, c.pairs - 1);
      } else {
        j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, c.pairs - 1);
      }
      const auto& q = w.usage.q_pair_norms[std::size_t(c.entry)];
      const auto& k = w.usage.k_pair_norms[std::size_t(c.entry)];
      const long long group = std::max<long long>(c.heads / std::max<long long>(k.rows(), 1), 1);
      const long long g = std::min<long long>(h / group, k.rows() - 1);
      plot::hover_text("head %lld (key head %lld), pair %lld: ‖q‖ = %.5g, ‖k‖ = %.5g, product %.5g", h, g, j, q(h, j), k(g, j),
                       double(c.head_qk[std::size_t(h * c.pairs + j)]));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("‖q‖·‖k‖", 0.0, vmax, plot::Colormap::Viridis, {bar_w, size.y});
}

}  // namespace

void draw_frequency_usage_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  if (s.weights.empty()) {
    how_to_load(ctx, "This view shows which rotary frequencies a trained model's q/k weights use: no weights are loaded yet.");
    config_preview(ctx);
    return;
  }
  const WeightsStatus st = weights_status(s.weights, ctx.exporting);
  if (!st.result) return reading(ctx, st);
  const WeightsUsage& w = *st.result;
  if (!w.ok()) return failed(ctx, w);
  if (!w.rotary) return not_rotary(ctx, w);
  const pe::FrequencyUsage& u = w.usage;
  const Prepared& p = prepare(w);
  const long long entry = entry_of(w, s.weights_layer);
  const long long layer = entry >= 0 ? w.summary[std::size_t(entry)].layer : 0;

  if (ctx.show_widgets()) {
    if (ImGui::SmallButton("Read again")) forget_weights(w.source);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Read the weights again (after the files changed).");
    ImGui::SameLine();
    if (ImGui::SmallButton("Close")) s.weights.clear();
    ImGui::SameLine();
  }
  ImGui::PushTextWrapPos(0.0f);
  const std::string took = w.seconds < 0.01 ? formatted("%.2f ms", 1000.0 * w.seconds)
                           : w.seconds < 1.0 ? formatted("%.0f ms", 1000.0 * w.seconds)
                                             : formatted("%.1f s", w.seconds);
  ImGui::Text("%s: %s, pairs stored %s; %lld layers × %lld query / %lld key heads × %lld pairs; %s of q/k read in %s", u.source.c_str(),
              u.dtype.c_str(), u.convention.c_str(), u.layers, u.heads, u.kv_heads, p.pairs, byte_count(u.bytes_read).c_str(), took.c_str());
  ImGui::PopTextWrapPos();
  if (ctx.show_widgets() && ImGui::IsItemHovered())
    ImGui::SetTooltip("%s\n%s: %s", u.family.c_str(), u.convention.c_str(), u.convention_reason.c_str());
  for (const auto& n : u.notes) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s%s%s", n.key.c_str(), n.key.empty() ? "" : ": ", n.message.c_str());
    ImGui::PopTextWrapPos();
  }
  // Two rows (the layers above; the selected layer's curves and heads below) where they fit
  // at a readable height; in a short window (a projector at 2×) the note says only the
  // verdict, and then the plots stand side by side as far as the width allows.
  const float em = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.x;
  const float min_h = plot::min_plot_height({.title = "t"}), two_rows = 2.0f * min_h + 3.0f * em;
  const float avail = ImGui::GetContentRegionAvail().y;
  std::string note = measured_note(w, p, false);
  if (avail - teaching_note_height(note.c_str()) < two_rows) note = measured_note(w, p, true);
  const float room = avail - teaching_note_height(note.c_str());
  const LayerCurves* c = entry >= 0 ? &layer_curves(w, entry) : nullptr;
  const int side_by_side = room >= two_rows ? 0 : ctx.size.x >= 66.0f * em ? 3 : ctx.size.x >= 40.0f * em ? 2 : 0;
  if (!c) {
    layers_heatmap(ctx, w, p, entry, {ctx.size.x, std::max(room, min_h)});
    ImGui::TextDisabled("No layer with rotary q/k weights to show.");
  } else if (side_by_side == 0) {
    const std::vector<float> heights = two_plot_heights(std::max(room, two_rows), 0.45f);
    layers_heatmap(ctx, w, p, entry, {ctx.size.x, heights[0]});
    const float left = std::floor(ctx.size.x * 0.52f);
    layer_curves_plot(w, *c, layer, {left, heights[1]});
    ImGui::SameLine();
    heads_heatmap(w, *c, layer, {ctx.size.x - left - gap, heights[1]});
  } else {
    const float h = std::max(room, min_h);
    const float w1 = std::floor(ctx.size.x * (side_by_side == 3 ? 0.38f : 0.55f));
    const float w2 = side_by_side == 3 ? std::floor(ctx.size.x * 0.31f) : ctx.size.x - w1 - gap;
    layers_heatmap(ctx, w, p, entry, {w1, h});
    ImGui::SameLine();
    layer_curves_plot(w, *c, layer, {w2, h});
    if (side_by_side == 3) {
      ImGui::SameLine();
      heads_heatmap(w, *c, layer, {ctx.size.x - w1 - w2 - 2.0f * gap, h});
    }
  }
  teaching_note(note.c_str());
}

namespace {

std::string frequency_usage_csv(const AppState& s, const Derived& d) {
  std::ostringstream out;
  if (s.weights.empty()) {
    // No model read: the frequencies the configuration on screen implies, which a model's
    // norms would be laid against (kind "config", no norms).
    out << "# no weights loaded (--weights PATH|ORG/NAME): the configuration's own RoPE pairs, without norms\n"
        << weights_csv_header() << "\n";
    const long long context = s.rope.original_max_position_embeddings();
    for (Eigen::Index j = 0; j < d.rope.inv_freq.size(); ++j) {
      const double f0 = j < d.rope.original_inv_freq.size() ? d.rope.original_inv_freq[j] : d.rope.inv_freq[j];
      const double wl = wavelength_of(f0);
      out << ",config,,," << j << ',' << csv_number(d.rope.inv_freq[j], 17) << ',' << csv_number(f0, 17) << ','
          << (std::isfinite(wl) ? csv_number(wl, 17) : std::string("inf")) << ',' << (wl > double(context) ? "true" : "false") << ",\n";
    }
    return out.str();
  }
  const WeightsStatus st = weights_status(s.weights, true);
  // A page cannot wait for bytes still on their way (they arrive between its frames).
  if (!st.result) throw std::runtime_error("the weights of " + s.weights + " are still being read: try again once they are");
  const WeightsUsage& w = *st.result;
  if (!w.ok()) throw std::runtime_error(w.cancelled ? "reading " + w.source + " was cancelled" : w.error);
  if (!w.rotary) {
    out << "# " << csv_text(w.source) << ": model_type " << csv_text(w.encoding.model_type)
        << " does not rotate q and k: no rotary pair norms (its position tensors: pe-viz weights --json)\n"
        << weights_csv_header() << "\n";
    return out.str();
  }
  out << "# " << csv_text(w.usage.source) << ": " << w.usage.dtype << ", pairs stored " << w.usage.convention
      << "; norm = sqrt of the squares of the two rows of W_q (W_k) that produce pair j of the head\n";
  out << weights_csv(w);
  return out.str();
}

std::vector<std::string> frequency_usage_formula(const AppState& s, const Derived&) {
  std::vector<std::string> lines = {
      "‖q_h,j‖ = √(‖W_q[a]‖² + ‖W_q[b]‖²), a, b the rows of pair j in head h: half-split (HF) a = j, b = j + rot/2; interleaved "
      "(llama.cpp GGUF) a = 2j, b = 2j + 1;  w_j = Σ_h ‖q_h,j‖·‖k_g(h),j‖"};
  if (s.weights.empty()) {
    lines.push_back("no weights loaded: drop a model folder, a .safetensors or a .gguf on the window, or --weights PATH|ORG/NAME");
    return lines;
  }
  const WeightsStatus st = weights_status(s.weights, false);
  if (!st.result) {
    lines.push_back(formatted("reading %s: %.0f%%", s.weights.c_str(), 100.0 * st.fraction));
    return lines;
  }
  const WeightsUsage& w = *st.result;
  if (!w.ok()) {
    lines.push_back(w.cancelled ? "reading was cancelled" : w.error);
    return lines;
  }
  if (!w.rotary) {
    lines.push_back(short_name(w.source) + ": " + w.encoding.model_type + " does not rotate (" + pe::to_string(w.encoding.family) + ")");
    return lines;
  }
  const Prepared& p = prepare(w);
  lines.push_back(formatted("%s (%s, stored %s): share of w over %lld layers: fastest quarter %.1f%%, middle %.1f%%, slowest %.1f%%; "
                            "p = %.2g p-RoPE stops rotating %.1f%%",
                            short_name(w.source).c_str(), w.usage.dtype.c_str(), w.usage.convention.c_str(), p.measured_layers,
                            100.0 * p.mean_fastest, 100.0 * p.mean_middle, 100.0 * p.mean_slowest, kPRope, 100.0 * p.mean_prope));
  return lines;
}

// A lesson may walk through the layers.
constexpr const char* kAnimatable[] = {"weights_layer"};

// ← / →: the previous / next layer.
void frequency_usage_step(AppState& s, int delta) {
  long long last = 1000000;
  if (!s.weights.empty())
    if (const WeightsStatus st = weights_status(s.weights, false); st.result && st.result->ok() && st.result->rotary)
      last = std::max<long long>(st.result->usage.layers - 1, 0);
  s.weights_layer = std::clamp<long long>(s.weights_layer + delta, 0, last);
}

}  // namespace

const ViewInfo& frequency_usage_view() {
  static const ViewInfo info{
      .name = "frequency-usage",
      .title = "Frequency usage",
      .summary = "Which rotary frequencies a trained model's q/k weights use: each pair's share of ‖q‖·‖k‖ per layer and head",
      .group = "Model",
      .draw = draw_frequency_usage_view,
      .csv = frequency_usage_csv,
      .formula = frequency_usage_formula,
      .step = frequency_usage_step,
      .step_help = "frequency-usage: previous / next layer",
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
