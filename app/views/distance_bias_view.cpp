// The comparison every course on length extrapolation draws: how each family turns a
// distance into a score or bias — ALiBi, T5, KERPLE (log, power), Sandwich, FIRE's transform,
// xPos's decay, RoPE's relative score and NoPE — on one axis, with the training length marked
// and the distance running past it. One call to core's compare_distance_curves
// (pe/relative/distance_comparison.hpp); this file only draws it.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/relative/distance_comparison.hpp"
#include "state/relative_params.hpp"
#include "views/async_value.hpp"
#include "views/relative_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

struct Comparison {
  pe::DistanceComparison result;
  std::vector<double> distance;
  std::vector<std::vector<double>> value, normalised;
  std::string error;
};

std::shared_ptr<const Comparison> compute(const pe::DistanceComparisonParams& params, const Comparison* previous) {
  auto c = std::make_shared<Comparison>();
  try {
    // While θ is dragged only RoPE's curve changes: core reuses the others from the last one.
    c->result = previous && previous->error.empty() ? pe::compare_distance_curves(params, previous->result)
                                                    : pe::compare_distance_curves(params);
    c->distance = as_vector(c->result.distance);
    for (const auto& curve : c->result.curves) {
      c->value.push_back(as_vector(curve.value));
      c->normalised.push_back(as_vector(curve.normalised));
    }
  } catch (const std::exception& e) {
    c->error = e.what();
  }
  return c;
}

std::string params_key(const pe::DistanceComparisonParams& p) {
  std::ostringstream k;
  k << std::hexfloat << p.training_length << '|' << p.length << '|' << p.samples << '|' << p.heads << '|' << p.head << '|'
    << p.t5.num_buckets << '|' << p.t5.max_distance << '|' << p.t5.causal << '|' << p.kerple_log.r1 << '|' << p.kerple_log.r2 << '|'
    << p.sandwich_dim << '|' << p.fire.fire_c << '|' << p.fire.fire_threshold << '|' << p.dim << '|' << p.theta << '|' << p.scale_base;
  return k.str();
}

const Comparison& comparison_for(const ViewContext& ctx, long long samples) {
  static std::map<const Derived*, AsyncValue<std::string, std::shared_ptr<const Comparison>>> slots;
  const pe::DistanceComparisonParams params = distance_params(ctx.state, distance_axis_length(ctx.state), samples);
  // RoPE's and xPos's curves cost samples × d/2 cosines and powers, again for every θ while
  // it is dragged: a worker past ~2·10^4 of them (d = 64 at 600 samples).
  const bool wait = ctx.exporting || params.samples * params.dim / 2 <= 20'000;
  auto& slot = slot_for(slots, &ctx.derived);
  const std::shared_ptr<const Comparison> previous = slot.latest() ? *slot.latest() : nullptr;
  return *slot.get(params_key(params), wait,
                   [params, previous](const std::string&) { return compute(params, previous.get()); });
}

// The index of the sampled distance nearest x.
std::size_t nearest(const std::vector<double>& xs, double x) {
  const auto it = std::lower_bound(xs.begin(), xs.end(), x);
  if (it == xs.begin()) return 0;
  if (it == xs.end()) return xs.size() - 1;
  return std::size_t(it - xs.begin()) - (x - *std::prev(it) < *it - x ? 1 : 0);
}

plot::LineStyle curve_style(const pe::DistanceCurve& c, int k) {
  // Transforms and multipliers (not added to a logit) dashed; the illustrative T5 table thin.
  const bool dashed = c.kind != pe::DistanceCurveKind::Bias;
  // The oscillating curves thin, so that at a projector's line width they stay lines, not bands.
  const bool oscillates = c.key == "rope" || c.key == "sandwich";
  return {.color = plot::series_color(k), .thickness = c.key == "nope" ? 3.0f : oscillates ? 1.0f : 2.0f, .dashed = dashed};
}

std::string legend_label(const pe::DistanceCurve& c) { return c.label + (c.illustrative ? " *" : ""); }

void mark_training(const Comparison& c, double x_max) {
  const double t = double(c.result.training_length);
  plot::plot_xband("##past", t, x_max * 4.0, IM_COL32(128, 128, 128, 40));
  plot::plot_vline("L_train", t, {.color = kTrainingColor, .thickness = 2.0f});
}

void draw_normalised(const Comparison& c, bool widened, ImVec2 size) {
  const double x_max = c.distance.empty() ? 1.0 : c.distance.back();
  if (plot::begin_plot("##distance-normalised", size, {.title = "Every family on one axis, ±1 before L_train"})) {
    // The reason for the axis's extent only where it fits (a phone keeps the short label).
    const char* const long_label = "distance Δ = query − key (to 4·L_train: the length L is within L_train)";
    const bool fits = ImGui::CalcTextSize(long_label).x < size.x * 0.9f;
    plot::setup_axes({.label = widened && fits ? long_label : "distance Δ = query − key",
                      .min = 0.0, .max = x_max},
                     {.label = "normalised"});
    mark_training(c, x_max);
    for (std::size_t k = 0; k < c.result.curves.size(); ++k)
      plot::plot_line(legend_label(c.result.curves[k]).c_str(), c.distance, c.normalised[k], curve_style(c.result.curves[k], int(k)));
    if (plot::is_plot_hovered() && !c.distance.empty()) {
      const std::size_t i = nearest(c.distance, plot::mouse_x());
      const bool past = c.distance[i] >= double(c.result.training_length);
      plot::hover_text("Δ = %.0f%s; normalised = (value − value at 0) ÷ the largest |change| before L_train", c.distance[i],
                       past ? " (past L_train)" : "");
      for (std::size_t k = 0; k < c.result.curves.size(); ++k) {
        const auto& curve = c.result.curves[k];
        plot::hover_text("%s: %.6g (normalised %.4g)", curve.key.c_str(), c.value[k][i], c.normalised[k][i]);
      }
    }
    plot::end_plot();
  }
}

void draw_kind(const Comparison& c, bool bias, ImVec2 size) {
  const double x_max = c.distance.empty() ? 1.0 : c.distance.back();
  const char* title = bias ? "Biases added to the logit (own units)" : "Multiplier, score and transform (own units)";
  if (plot::begin_plot(bias ? "##distance-bias" : "##distance-other", size, {.title = title})) {
    plot::setup_axes({.label = "distance Δ", .min = 0.0, .max = x_max}, {.label = bias ? "bias" : "value"});
    mark_training(c, x_max);
    for (std::size_t k = 0; k < c.result.curves.size(); ++k) {
      const auto& curve = c.result.curves[k];
      if ((curve.kind == pe::DistanceCurveKind::Bias) != bias) continue;
      plot::plot_line(curve.key.c_str(), c.distance, c.value[k], curve_style(curve, int(k)));
    }
    if (plot::is_plot_hovered() && !c.distance.empty()) {
      const std::size_t i = nearest(c.distance, plot::mouse_x());
      plot::hover_text("Δ = %.0f", c.distance[i]);
      for (std::size_t k = 0; k < c.result.curves.size(); ++k) {
        const auto& curve = c.result.curves[k];
        if ((curve.kind == pe::DistanceCurveKind::Bias) != bias) continue;
        plot::hover_text("%s (%s): %.9g", curve.label.c_str(), pe::to_string(curve.kind), c.value[k][i]);
        if (c.distance[i] >= double(c.result.training_length)) plot::hover_text("  past L_train: %s", curve.past_training.c_str());
      }
    }
    plot::end_plot();
  }
}

}  // namespace

void draw_distance_bias_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  if (show_relative_error(s)) return;
  // One sampled distance per two pixels of the plot (and L_train − 1, L_train exactly): the
  // curves are smooth where they are smooth, and RoPE's noise needs no more.
  const long long samples = std::clamp<long long>(std::llround(ctx.size.x / 2.0f), 64, 2048);
  const Comparison& c = comparison_for(ctx, samples);
  if (!c.error.empty()) {
    ImGui::TextColored({1, 0.45f, 0.4f, 1}, "%s", c.error.c_str());
    return;
  }
  const long long length = c.result.length;
  const char* const note =
      "Past L_train (green) ALiBi and KERPLE power keep falling, T5 stays in its last bucket, KERPLE log and Sandwich flatten, "
      "xPos decays to 0, RoPE oscillates, NoPE adds nothing. Dashed: not a logit bias. *: illustrative (T5's table, FIRE's MLP input).";
  const float note_h = teaching_note_height(note);
  constexpr float kWeights[] = {0.58f, 0.42f};
  constexpr bool kTitled[] = {true, true};
  const std::vector<float> h = stacked_plot_heights(ImGui::GetContentRegionAvail().y - note_h, kWeights, kTitled);
  // When the length slider is within L_train, the axis runs to 4 × L_train: the x label says so.
  draw_normalised(c, length != s.length, {ctx.size.x, h[0]});
  const float spacing = ImGui::GetStyle().ItemSpacing.x, half = (ctx.size.x - spacing) * 0.5f;
  draw_kind(c, true, {half, h[1]});
  ImGui::SameLine();
  draw_kind(c, false, {ctx.size.x - spacing - half, h[1]});
  teaching_note(note);
}

namespace {

std::string distance_bias_csv(const AppState& s, const Derived&) {
  if (const std::string e = relative_error(s); !e.empty()) throw std::runtime_error(e);
  const pe::DistanceComparison c = pe::compare_distance_curves(distance_params(s, distance_axis_length(s), kMaxCsvRows));
  std::ostringstream out;
  out << "# L_train " << c.training_length << ", distances 0 ... " << c.length - 1 << (c.distance.size() < c.length ? " (sampled)" : "")
      << "; normalised = (value - value(0)) / max |value - value(0)| below L_train\n";
  for (const auto& curve : c.curves)
    out << "# " << curve.key << " (" << pe::to_string(curve.kind) << (curve.illustrative ? ", illustrative" : "") << "): " << curve.label
        << "; past L_train: " << curve.past_training << "\n";
  out << "distance";
  for (const auto& curve : c.curves) out << ',' << curve.key << ',' << curve.key << "_normalised";
  out << "\n";
  for (Eigen::Index i = 0; i < c.distance.size(); ++i) {
    out << csv_number(c.distance[i], 17);
    // + 0.0: ALiBi's −slope·0 and T5's −0 bias print as 0, not -0.
    for (const auto& curve : c.curves) out << ',' << csv_number(curve.value[i] + 0.0) << ',' << csv_number(curve.normalised[i] + 0.0);
    out << "\n";
  }
  return out.str();
}

std::vector<std::string> distance_bias_formula(const AppState& s, const Derived&) {
  const std::string general = "ALiBi −mΔ · T5 b[bucket(−Δ)] · KERPLE −r1·log(1 + r2Δ), −r1·Δ^r2 · Sandwich Σcos(Δω_i) − d̄/2 · "
                              "FIRE ψ(Δ)/ψ(max(L, i)) · xPos mean ζ_i^(Δ/scale_base) · RoPE mean cos(Δθ_i) · NoPE 0";
  if (const std::string e = relative_error(s); !e.empty()) return {general, e};
  const long long length = distance_axis_length(s);
  const pe::DistanceComparisonParams params = distance_params(s, length, 2);
  // The strip is drawn every frame; the comparison (with T5's table of heads × buckets) once per change.
  static std::string key, line;
  if (const std::string k = params_key(params); k != key) {
    const pe::DistanceComparison c = pe::compare_distance_curves(params);
    std::string values;
    for (const auto& curve : c.curves) {
      if (curve.key == "nope") continue;
      values += (values.empty() ? "" : ", ") + curve.key + " " + formatted("%.6g", curve.at_end);
    }
    line = formatted("L_train = %lld; at Δ = %lld: ", c.training_length, length - 1) + values;
    key = k;
  }
  return {general, line};
}

constexpr const char* kAnimatable[] = {"training_length", "length", "r1", "r2", "num_buckets", "max_distance", "sandwich_dim",
                                       "fire_c", "fire_threshold", "scale_base", "theta", "dim", "heads", "head"};
constexpr const char* kPanel[] = {"training_length", "num_buckets", "max_distance", "causal", "r1", "r2",
                                  "sandwich_dim", "fire_c", "fire_threshold", "scale_base"};

}  // namespace

const ViewInfo& distance_bias_view() {
  static const ViewInfo info{
      .name = "distance-bias",
      .title = "Distance bias",
      .summary = "Score or bias against distance for ALiBi, T5, KERPLE, Sandwich, FIRE, xPos, RoPE and NoPE, past the training length",
      .group = "Long context",
      .draw = draw_distance_bias_view,
      .csv = distance_bias_csv,
      .formula = distance_bias_formula,
      .animatable = kAnimatable,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
