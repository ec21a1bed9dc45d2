// "RoPE extrapolates", measured: past the training length the slow pairs reach rotation angles
// never seen in training. Shows which (pair, position) angles are unseen, per method, and
// the relative-score curves past L_train.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <numbers>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"
#include "pe/relative/xpos.hpp"
#include "pe/scaling/extrapolation.hpp"
#include "views/async_value.hpp"
#include "views/scaling_methods.hpp"
#include "pe/analysis/theta_bounds.hpp"
#include "views/view.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {

// Measure of the unseen angles in [0, x]: each turn k holds the unseen arc (2πk + arc, 2π(k+1)).
double unseen_measure(double x, double arc) {
  const double two_pi = 2.0 * std::numbers::pi;
  const double turns = std::floor(x / two_pi);
  return turns * (two_pi - arc) + std::max(0.0, x - turns * two_pi - arc);
}

// rows = pairs, columns = position spans: fraction of the span's positions whose angle lies
// outside the arc seen in training. Narrow spans test each position with core's definition
// (so the strip agrees with the report); wider ones take the exact share of the angle range
// p·θ' (p in the span) that is unseen — O(1) per cell, so d = 8192 at L = 10^6 stays
// interactive (sampling 32 positions per cell took seconds there, and was less exact).
std::vector<float> unseen_strip(const Eigen::ArrayXd& train, long long train_length, const Eigen::ArrayXd& infer,
                                long long length, int columns) {
  const long long pairs = train.size();
  std::vector<float> out(std::size_t(pairs * columns), 0.0f);
  const double two_pi = 2.0 * std::numbers::pi;
  // Positions tested one by one per cell: at most ~4·10^6 tests for the whole strip.
  const double exact_limit = std::clamp(4e6 / double(std::max<long long>(pairs * columns, 1)), 1.0, 32.0);
  for (long long i = 0; i < pairs; ++i) {
    const double arc = double(train_length - 1) * train[i];
    if (arc >= two_pi) continue;  // a full turn was seen: nothing is new
    for (int c = 0; c < columns; ++c) {
      const long long p0 = (long long)std::floor(double(c) * double(length) / columns);
      const long long p1 = std::max(p0 + 1, (long long)std::floor(double(c + 1) * double(length) / columns));
      float& cell = out[std::size_t(i * columns + c)];
      if (double(p1 - p0) <= exact_limit) {
        int unseen = 0;
        for (long long p = p0; p < p1; ++p) unseen += pe::angle_unseen(train[i], train_length, infer[i], p) ? 1 : 0;
        cell = float(unseen) / float(p1 - p0);
      } else {
        const double a = double(p0) * infer[i], b = double(p1) * infer[i];
        cell = b > a ? float((unseen_measure(b, arc) - unseen_measure(a, arc)) / (b - a)) : 0.0f;
      }
    }
  }
  return out;
}

// core's extrapolation_report, with its closed form (exact up to rounding at turn
// boundaries, off by at most a position) taking over after kViewExactTurns turns of a
// pair instead of core's 10^6: the view reports seven methods, and exact counting took
// 6 s at d = 8192, L = 10^6 and 3 minutes at L = 10^9. Throws as core does.
constexpr long long kViewExactTurns = 2000;

pe::ExtrapolationReport view_report(const Eigen::ArrayXd& train, long long train_length, const Eigen::ArrayXd& infer,
                                    long long length) {
  const double two_pi = 2.0 * std::numbers::pi;
  const Eigen::Index n = train.size();
  pe::ExtrapolationReport r;
  r.train_arc_rad.resize(n);
  r.max_angle_rad.resize(n);
  r.unseen_fraction.resize(n);
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    r.train_arc_rad[i] = std::min(two_pi, double(train_length - 1) * train[i]);
    r.max_angle_rad[i] = double(length - 1) * infer[i];
    const long long c = pe::detail::unseen_position_count(train[i], train_length, infer[i], length, kViewExactTurns);
    r.unseen_fraction[i] = double(c) / double(length);
    sum += r.unseen_fraction[i];
    if (c > 0 && r.pairs_with_unseen++ == 0) r.first_unseen_pair = i;
  }
  r.mean_unseen_fraction = n > 0 ? sum / double(n) : 0.0;
  return r;
}

// What the view draws beside the text, computed from the method frequencies.
struct ExtrapolationData {
  struct Row {
    std::string label;
    bool plain = false;
    Eigen::ArrayXd inv_freq;
    pe::ExtrapolationReport r;
  };
  std::vector<Row> rows;
  std::vector<float> strip_plain, strip_method;
  unsigned long long version = 0;  // unique across results: textures are keyed by plot ID
  std::vector<std::vector<double>> curves;
  std::vector<double> deltas_v;
  // xPos (issue 32): plain RoPE's score with xPos's decay ζ_i^(Δ/scale_base) on its pairs.
  std::vector<double> xpos_curve;
};

std::shared_ptr<ExtrapolationData> compute_extrapolation(const std::vector<MethodFrequencies>& methods,
                                                         std::optional<pe::RopeType> chosen_type, long long train_length,
                                                         long long length, int columns, std::uint64_t seed, double scale_base) {
  static std::atomic<unsigned long long> next_version{0};
  auto d = std::make_shared<ExtrapolationData>();
  d->version = ++next_version;
  const MethodFrequencies& plain = methods.front();
  const MethodFrequencies* chosen = nullptr;
  for (const auto& m : methods)
    if (chosen_type && m.type == *chosen_type && m.error.empty()) {
      chosen = &m;
      break;
    }
  const long long pairs = plain.freqs.inv_freq.size();
  for (const auto& m : methods) {
    if (!m.error.empty() || m.freqs.inv_freq.size() != pairs) continue;
    try {
      d->rows.push_back({m.label, &m == &plain, m.freqs.inv_freq, view_report(plain.freqs.inv_freq, train_length, m.freqs.inv_freq, length)});
    } catch (const std::exception&) {
      // A method whose angles exceed what a double resolves is left out of the comparison.
    }
  }
  d->strip_plain = unseen_strip(plain.freqs.inv_freq, train_length, plain.freqs.inv_freq, length, columns);
  d->strip_method = chosen ? unseen_strip(plain.freqs.inv_freq, train_length, chosen->freqs.inv_freq, length, columns)
                           : std::vector<float>(d->strip_plain.size(), 0.0f);
  // Relative score past L_train: mean over random identical vectors, per method — the same
  // random vectors for every method, so only the frequencies differ.
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(600, 0.0, double(std::max<long long>(length - 1, 1)));
  d->deltas_v = as_vector(deltas);
  const pe::RelativeScoreCoefficients mean = pe::choice_coefficients(pe::VectorChoice::MeanOfIdentical, pairs, seed, 32);
  for (const auto& row : d->rows) d->curves.push_back(as_vector(pe::relative_score_curve(mean, row.inv_freq, deltas) / double(2 * pairs)));
  try {
    // analysis' Δ is key − query, xPos's query − key: the mean of identical vectors is even in Δ.
    d->xpos_curve = as_vector(pe::xpos_relative_score_curve(mean, plain.freqs.inv_freq, deltas, scale_base) / double(2 * pairs));
  } catch (const std::exception&) {
    // An invalid scale_base is named by validate_state; the curve is left out meanwhile.
  }
  return d;
}

}  // namespace

void draw_extrapolation_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  const long long train_length = s.rope.original_max_position_embeddings();
  const long long length = extrapolation_length(s);
  const auto& methods = all_method_frequencies(s.rope, length);
  const MethodFrequencies& plain = methods.front();
  if (!plain.error.empty()) {
    ImGui::TextColored({1, 0.45f, 0.4f, 1}, "%s", plain.error.c_str());
    return;
  }
  const long long pairs = plain.freqs.inv_freq.size();

  if (ctx.show_widgets()) {
    ImGui::SetNextItemWidth(220.0f * plot::pixel_scale());
    if (ImGui::BeginCombo("compare with", pe::to_string(s.extrapolation_method))) {
      for (const auto& m : methods)
        if (m.type != pe::RopeType::Default && ImGui::Selectable(m.label.c_str(), m.type == s.extrapolation_method))
          s.extrapolation_method = m.type;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("extrapolation_method: the scaling method shown beside plain RoPE.");
    for (int k : {2, 4, 8, 32}) {
      const std::string label = "L = " + std::to_string(k) + "× L_train";
      same_line_if_fits(button_width(label.c_str()));  // wraps in every layout: at 2× they pass the edge
      if (ImGui::Button(label.c_str())) {
        s.length = std::min<long long>(train_length * k, 1'000'000);
        s.position = std::min(s.position, s.length - 1);
        s.anchor = std::min(s.anchor, s.length - 1);
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Set the inference length (the length slider) to %d× the training length.", k);
    }
  }
  if (length == s.length) {
    text_wrapped("L_train = %lld (training), L = %lld (inference, the length slider) = %.3g× L_train", train_length,
                       length, double(length) / double(train_length));
  } else {
    // The slider is within training, where every angle was seen: show what lies beyond.
    text_wrapped("L_train = %lld (training); the length slider (L = %lld) is within it, where every angle was seen, so "
                       "this view shows L = %lld = %.3g× L_train. The buttons or the slider set L.",
                       train_length, s.length, length, double(length) / double(train_length));
  }
  const MethodFrequencies* chosen = nullptr;
  for (const auto& m : methods)
    if (m.type == s.extrapolation_method && m.error.empty()) { chosen = &m; break; }

  // Everything below depends only on the frequencies, the method shown, L_train and the
  // seed: computed once per change of those, not per frame — on a worker while θ is dragged
  // at large d (seven reports, two strips and seven curves: ~9 ms at d = 1024), the last
  // result on screen meanwhile; exports wait. One cache per Derived (main state, compare's B).
  const int columns = int(std::min<long long>(length, 512));
  const std::string key = std::to_string(ctx.derived.version) + "|" + std::to_string(int(s.extrapolation_method)) + "|" +
                          std::to_string(train_length) + "|" + std::to_string(s.seed) + "|" + std::to_string(s.scale_base);
  static std::map<const Derived*, AsyncValue<std::string, std::shared_ptr<const ExtrapolationData>>> slots;
  const bool wait = ctx.exporting || pairs * columns <= 64 * 512;
  const ExtrapolationData& data = *slot_for(slots, &ctx.derived).get(
      key, wait, [methods, chosen_type = chosen ? std::optional(chosen->type) : std::nullopt, train_length, length, columns,
                  seed = s.seed, scale_base = s.scale_base](const std::string&) {
        return std::shared_ptr<const ExtrapolationData>(
            compute_extrapolation(methods, chosen_type, train_length, length, columns, seed, scale_base));
      });
  const auto& rows = data.rows;
  const auto& strip_plain = data.strip_plain;
  const auto& strip_method = data.strip_method;
  const unsigned long long strip_version = data.version;
  if (!rows.empty()) {
    const auto& r = rows.front().r;
    const std::string first = r.pairs_with_unseen > 0 ? " (first: pair " + std::to_string(r.first_unseen_pair) + ")" : "";
    text_wrapped("Plain RoPE at L = %lld: %lld of %lld pairs meet unseen angles%s; %.2f%% of all (pair, position) "
                       "angles are unseen.",
                       length, r.pairs_with_unseen, pairs, first.c_str(), 100.0 * r.mean_unseen_fraction);
  }

  // Liu et al. 2023: the pairs below half the critical dimension turned fully in training.
  const long long critical =
      ctx.derived.rope.rotary_dim >= 2 ? pe::critical_dimension(s.rope.theta, ctx.derived.rope.rotary_dim, train_length) / 2 : 0;
  const char* const note = "Pairs whose wavelength exceeds L_train never completed a turn in training; past L_train they rotate into angles the "
                "model never saw. Tutorials often say RoPE \"extrapolates excellently\": the yellow region says where it cannot (Press et al. 2022, Chen et al. 2023).";

  const float note_h = teaching_note_height(note);
  const float avail = ImGui::GetContentRegionAvail().y - note_h;
  // Strips, the per-pair fraction and the score curve: 30 / 33 / 37 % of the data height.
  constexpr float kWeights[] = {0.30f, 0.33f, 0.37f};
  constexpr bool kTitled[] = {true, true, true};
  const std::vector<float> heights = stacked_plot_heights(avail, kWeights, kTitled);
  // The two strips side by side; one above the other in a narrow view (a phone), each the
  // full width (the view scrolls a little further).
  const bool stacked = is_narrow_view(ctx, ctx.size.x);
  const float strip_h = stacked ? heights[0] * 0.75f : heights[0];
  const float half_w = stacked ? ctx.size.x : (ctx.size.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  auto draw_strip = [&](const char* id, const char* title, const std::vector<float>& values, unsigned long long version) {
    if (plot::begin_plot(id, {half_w, strip_h}, {.title = title, .legend = false})) {
      plot::setup_axes({.label = "position p", .min = 0, .max = double(length)},
                       {.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5, .format = "%.0f"});
      plot::plot_value_heatmap(title, {.values = values, .rows = int(pairs), .columns = columns, .x0 = 0, .x1 = double(length),
                                       .y0 = -0.5, .y1 = double(pairs) - 0.5, .colormap = plot::Colormap::Cividis,
                                       .vmin = 0.0, .vmax = 1.0, .version = version});
      plot::plot_vline("L_train", double(train_length), {.color = IM_COL32(120, 220, 120, 255), .thickness = 2.0f});
      if (critical > 0 && critical < pairs)
        plot::plot_hline("critical dim (Liu)", double(critical) - 0.5, {.color = IM_COL32(230, 230, 230, 220), .thickness = 1.5f, .dashed = true});
      if (plot::is_plot_hovered()) {
        const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, pairs - 1);
        const int c = std::clamp(int(plot::mouse_x() / double(length) * columns), 0, columns - 1);
        plot::hover_text("pair %lld, positions near %.0f: %.0f%% unseen angles", i, plot::mouse_x(),
                         100.0 * values[std::size_t(i * columns + c)]);
      }
      plot::end_plot();
    }
  };
  draw_strip("##unseen-plain", "Unseen angles, plain RoPE (yellow = never seen in training)", strip_plain, strip_version * 2);
  if (!stacked) ImGui::SameLine();
  const std::string method_title = std::string("Unseen angles with ") + (chosen ? chosen->label : "(method unavailable)");
  draw_strip("##unseen-method", method_title.c_str(), strip_method, strip_version * 2 + 1);

  const float mid_h = heights[1];
  if (plot::begin_plot("##unseen-fraction", {ctx.size.x, mid_h}, {.title = "Fraction of positions < L at an unseen angle, per pair"})) {
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5}, {.label = "unseen fraction", .min = -0.02, .max = 1.02});
    const std::vector<double> idx = index_axis(pairs);
    if (critical > 0 && critical < pairs)
      plot::plot_vline("critical dim (Liu)", double(critical) - 0.5, {.color = IM_COL32(120, 170, 90, 255), .thickness = 1.5f, .dashed = true});
    for (const auto& row : rows) {
      const std::vector<double> f = as_vector(row.r.unseen_fraction);
      char label[128];
      std::snprintf(label, sizeof label, "%s (mean %.2f%%)", row.label.c_str(), 100.0 * row.r.mean_unseen_fraction);
      plot::plot_line(label, idx, f, {.thickness = row.plain ? 3.0f : 1.8f});
    }
    plot::end_plot();
  }

  const auto& curves = data.curves;
  const auto& deltas_v = data.deltas_v;
  if (plot::begin_plot("##extrapolation-score", {ctx.size.x, ImGui::GetContentRegionAvail().y - note_h},
                       {.title = "Relative score s(Δ)/d (mean of identical random vectors) past L_train"})) {
    plot::setup_axes({.label = "relative distance Δ", .min = 0, .max = double(std::max<long long>(length - 1, 1))}, {.label = "score / d"});
    for (std::size_t k = 0; k < curves.size() && k < rows.size(); ++k)
      plot::plot_line(rows[k].label.c_str(), deltas_v, curves[k], {.thickness = k == 0 ? 2.5f : 1.5f});
    if (!data.xpos_curve.empty()) {
      const std::string label = "xPos decay on plain RoPE (scale_base " + pe::format_double(s.scale_base) + ")";
      plot::plot_line(label.c_str(), deltas_v, data.xpos_curve, {.thickness = 2.0f, .dashed = true});
    }
    plot::plot_vline("L_train", double(train_length), {.color = IM_COL32(120, 220, 120, 255), .thickness = 2.0f});
    plot::end_plot();
  }
  teaching_note(note);
}

namespace {
constexpr const char* kAnimatable[] = {"length", "factor", "theta", "dim", "original_max_position_embeddings", "scale_base"};
constexpr const char* kPanel[] = {"scale_base"};
}  // namespace

const ViewInfo& extrapolation_view() {
  static const ViewInfo info{
      .name = "extrapolation",
      .title = "Extrapolation",
      .summary = "Which rotation angles are unseen past the training length, per method",
      .group = "Long context",
      .draw = draw_extrapolation_view,
      .csv = extrapolation_csv,
      .formula = extrapolation_formula,
      .animatable = kAnimatable,
      .model_rope = true,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
