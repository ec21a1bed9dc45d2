// What each RoPE context-extension method does to a model's frequencies: wavelengths
// before/after with the context lengths and the methods' thresholds, and the per-pair
// ratio θ'_i/θ_i of every method at once.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"
#include "views/scaling_methods.hpp"
#include "views/view.hpp"

namespace app {

void draw_scaling_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  const AppState& s = ctx.state;
  const auto& cur = ctx.derived.rope;
  const long long pairs = cur.inv_freq.size();
  const long long original = s.rope.original_max_position_embeddings();
  const double target = double(original) * comparison_factor(s.rope);
  const std::vector<double> idx = index_axis(pairs);

  ImGui::TextWrapped("%s: %s, factor %.4g, L_orig = %lld, current length L = %lld · effective θ = %.6g · attention factor %.5f · logit scale %.5f",
              s.rope.title.empty() ? (s.rope.name.empty() ? "custom" : s.rope.name.c_str()) : s.rope.title.c_str(),
              pe::to_string(s.rope.scaling.type), cur.factor, original, s.length, cur.effective_theta, cur.attention_factor,
              cur.logit_scale);
  const char* const note = "Linear divides every frequency by the factor (fine detail lost); NTK raises the base (fast pairs kept, slow pairs "
                "interpolated); YaRN and Llama 3 keep high-frequency pairs exactly and interpolate only pairs whose wavelength "
                "exceeds the training context. LongRoPE uses searched per-pair factors.";
  const float note_h = teaching_note_height(note);
  const ImVec2 top = split_height({ctx.size.x, ImGui::GetContentRegionAvail().y - note_h}, 0.5f);

  if (plot::begin_plot("##scaling-wavelengths", top, {.title = "Wavelength λ_i = 2π/θ_i before and after scaling"})) {
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5},
                     {.label = "λ_i (positions)", .scale = plot::Scale::Log});
    const auto& sc = s.rope.scaling;
    if (sc.type == pe::RopeType::Yarn && cur.yarn_high > cur.yarn_low)
      plot::plot_xband("YaRN ramp (β_fast … β_slow)", cur.yarn_low, cur.yarn_high, IM_COL32(240, 200, 60, 50));
    plot::plot_line("original λ_i", idx, as_vector(pe::wavelengths(cur.original_inv_freq)), {.thickness = 1.5f, .dashed = true});
    // Pairs at frequency 0 (proportional, the p-RoPE control) have no wavelength to draw.
    std::vector<double> turning_idx, turning_wave;
    for (long long i = 0; i < pairs; ++i)
      if (cur.inv_freq[i] > 0.0) turning_idx.push_back(double(i)), turning_wave.push_back(2 * std::numbers::pi / cur.inv_freq[i]);
    plot::plot_line(("scaled λ'_i (" + std::string(pe::to_string(sc.type)) + ")").c_str(), turning_idx, turning_wave,
                    {.markers = pairs <= 64});
    plot::plot_hline("L_orig (training)", double(original), {.color = IM_COL32(120, 200, 120, 255), .thickness = 1.5f});
    plot::plot_hline("target L_orig·factor", target, {.color = IM_COL32(230, 120, 40, 255), .thickness = 1.5f, .dashed = true});
    if (sc.type == pe::RopeType::Llama3) {
      plot::plot_hline("L_orig / high_freq_factor", double(original) / sc.high_freq_factor,
                       {.color = IM_COL32(180, 120, 230, 255), .thickness = 1.0f, .dashed = true});
      plot::plot_hline("L_orig / low_freq_factor", double(original) / sc.low_freq_factor,
                       {.color = IM_COL32(180, 120, 230, 255), .thickness = 1.0f});
    }
    if (sc.type == pe::RopeType::Yarn && cur.yarn_high > cur.yarn_low) {
      plot::plot_vline("β_fast bound", cur.yarn_low, {.color = IM_COL32(240, 200, 60, 255), .thickness = 1.0f, .in_legend = false});
      plot::plot_vline("β_slow bound", cur.yarn_high, {.color = IM_COL32(240, 200, 60, 255), .thickness = 1.0f, .in_legend = false});
    }
    if (plot::is_plot_hovered() && pairs > 0) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, pairs - 1);
      plot::hover_text("pair %lld: λ = %.6g → %.6g positions (θ' / θ = %.6g)", i, 2 * std::numbers::pi / cur.original_inv_freq[i],
                       2 * std::numbers::pi / cur.inv_freq[i], cur.inv_freq[i] / cur.original_inv_freq[i]);
    }
    plot::end_plot();
  }

  const auto& methods = all_method_frequencies(s.rope, s.length);
  // Ministral 3 / Mistral 4 and Llama 4 also scale the queries by position: drawn beside.
  const pe::QueryScaling& q = s.rope.query_scaling;
  const float ratio_w = q.active() ? (ctx.size.x - ImGui::GetStyle().ItemSpacing.x) * 0.6f : ctx.size.x;
  const std::string ratio_title = "θ'_i / θ_i for every method (factor " + pe::format_double(comparison_factor(s.rope)) +
                                  ", dynamic at L = " + std::to_string(s.length) + ")";
  const float bottom_h = ImGui::GetContentRegionAvail().y - note_h;
  if (plot::begin_plot("##scaling-ratios", {ratio_w, bottom_h}, {.title = ratio_title.c_str()})) {
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5},
                     {.label = "θ'_i / θ_i", .scale = plot::Scale::Log});
    int k = 0;
    for (const auto& m : methods) {
      ++k;
      if (!m.error.empty() || m.freqs.inv_freq.size() != pairs) continue;
      std::vector<double> ratio(static_cast<std::size_t>(pairs));
      for (long long i = 0; i < pairs; ++i)  // a pair at frequency 0 has no ratio on a log axis: a gap
        ratio[std::size_t(i)] = m.freqs.inv_freq[i] > 0.0 ? m.freqs.inv_freq[i] / m.freqs.original_inv_freq[i] : NAN;
      char label[128];
      std::snprintf(label, sizeof label, "%s (attn ×%.4g)", m.label.c_str(), m.freqs.attention_factor);
      plot::plot_line(label, idx, ratio, {.thickness = m.type == s.rope.scaling.type ? 3.0f : 1.8f});
    }
    if (plot::is_plot_hovered() && pairs > 0) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, pairs - 1);
      for (const auto& m : methods)
        if (m.error.empty() && m.freqs.inv_freq.size() == pairs)
          plot::hover_text("%s: θ'/θ = %.6g", m.label.c_str(), m.freqs.inv_freq[i] / m.freqs.original_inv_freq[i]);
    }
    plot::end_plot();
  }
  if (q.active()) {
    ImGui::SameLine();
    const std::string title = std::string("Query scale 1 + β·ln(1 + ⌊p") + (q.position_offset ? " + 1" : "") + ")/" +
                              std::to_string(q.period) + "⌋)" + (q.nope_layers_only ? ", NoPE layers" : "");
    if (plot::begin_plot("##query-scale", {ImGui::GetContentRegionAvail().x, bottom_h}, {.title = title.c_str(), .legend = false})) {
      plot::setup_axes({.label = "query position p", .min = 0, .max = double(std::max<long long>(s.length, 2 * q.period))},
                       {.label = "× every logit of the query"});
      plot::plot_function("query scale", [&q](double p) { return pe::query_scale(q, static_cast<long long>(std::max(p, 0.0))); },
                          {.thickness = 2.0f});
      plot::plot_vline("period", double(q.period), {.color = IM_COL32(120, 200, 120, 255), .thickness = 1.0f, .dashed = true});
      if (plot::is_plot_hovered()) {
        const long long p = static_cast<long long>(std::max(plot::mouse_x(), 0.0));
        plot::hover_text("p = %lld: logits × %.6f", p, pe::query_scale(q, p));
      }
      plot::end_plot();
    }
  }
  teaching_note(note);
}

namespace {
constexpr const char* kAnimatable[] = {"factor", "length", "theta", "dim", "original_max_position_embeddings"};
}  // namespace

const ViewInfo& scaling_view() {
  static const ViewInfo info{
      .name = "scaling",
      .title = "Scaling",
      .summary = "RoPE context extension: wavelengths before/after and θ'/θ of every method",
      .group = "Long context",
      .draw = draw_scaling_view,
      .csv = scaling_methods_csv,
      .formula = scaling_formula,
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
