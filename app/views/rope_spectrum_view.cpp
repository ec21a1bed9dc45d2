// The frequency spectrum θ_i on a log axis (seed 004 §4) and, below it, each pair's
// wavelength against the context length: which pairs complete a turn and which never do.
#include <cstdio>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/analysis/theta_bounds.hpp"
#include "views/view.hpp"
#include <sstream>
#include <string>
#include "views/view_csv.hpp"

namespace app {

namespace {

// The pairs that turn (frequency > 0): proportional RoPE and the p-RoPE control give the
// dropped ones frequency 0, which a log axis cannot show; they are drawn as a band instead.
struct TurningPairs {
  std::vector<double> index, freq, wave;
  long long dropped = 0;
};

TurningPairs turning_pairs(const Eigen::ArrayXd& inv_freq) {
  TurningPairs t;
  for (Eigen::Index i = 0; i < inv_freq.size(); ++i) {
    if (inv_freq[i] > 0.0) {
      t.index.push_back(double(i));
      t.freq.push_back(inv_freq[i]);
      t.wave.push_back(2.0 * std::numbers::pi / inv_freq[i]);
    } else {
      ++t.dropped;
    }
  }
  return t;
}

// Liu et al. 2023's critical dimension for the configuration's plain ladder and training
// length: pairs below half of it turn fully during training.
long long critical_pairs(const AppState& s, const Derived& d) {
  const long long dim = d.rope.rotary_dim;
  if (dim < 2 || s.rope.theta <= 1.0) return 0;
  return pe::critical_dimension(s.rope.theta, dim, s.rope.original_max_position_embeddings()) / 2;
}

}  // namespace

void draw_rope_spectrum_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  if (ctx.show_widgets()) p_rope_slider(s, 220.0f);
  const auto& inv_freq = ctx.derived.rope.inv_freq;
  const long long pairs = inv_freq.size();
  const TurningPairs on = turning_pairs(inv_freq);
  const std::vector<double> idx = index_axis(pairs);
  const std::vector<double> original =
      ctx.derived.rope.original_inv_freq.size() == pairs ? as_vector(ctx.derived.rope.original_inv_freq) : as_vector(inv_freq);
  const bool changed = s.rope.scaling.type != pe::RopeType::Default || on.dropped > 0;
  const char* const note = "Raising θ stretches the slow end: Code Llama (θ = 10⁶) and Llama 3 (θ = 5·10⁵) do this so their slowest pairs do not wrap "
      "inside long contexts. Seed 001 says the opposite (low θ for long contexts); the wavelengths above show why that is backwards.";
  const double d = double(ctx.derived.rope.rotary_dim);
  const long long critical = critical_pairs(s, ctx.derived);
  const Eigen::ArrayXd turns = pe::full_turns(inv_freq, s.length);
  long long incomplete = 0;
  for (long long i = 0; i < pairs; ++i) incomplete += inv_freq[i] > 0.0 && turns[i] < 1.0 ? 1 : 0;
  char summary[512];
  const double longest = on.wave.empty() ? 0.0 : *std::max_element(on.wave.begin(), on.wave.end());
  int n = std::snprintf(summary, sizeof summary,
                        "Longest wavelength %.4g (plain ladder 2π·θ^((d−2)/d): %.4g); %lld of %lld turning pairs never turn fully "
                        "in L = %lld. Critical dimension (Liu et al.): pairs 0–%lld turn fully within L_train = %lld.",
                        longest, 2.0 * std::numbers::pi * std::pow(s.rope.theta, (d - 2.0) / d), incomplete, pairs - on.dropped,
                        s.length, critical - 1, s.rope.original_max_position_embeddings());
  if (on.dropped > 0 && n > 0 && n < int(sizeof summary))
    std::snprintf(summary + n, sizeof summary - std::size_t(n), " p-RoPE: the %lld slowest pairs dropped.", on.dropped);
  // At projector scales on a small screen the seed's note gives way to the plots.
  const float two_plots = 2.0f * plot::min_plot_height({.title = "spectrum"}) + 2.0f * ImGui::GetStyle().ItemSpacing.y;
  const bool roomy = ImGui::GetContentRegionAvail().y - teaching_note_height(note) - teaching_note_height(summary) >= two_plots;
  const float note_h = (roomy ? teaching_note_height(note) : 0.0f) + teaching_note_height(summary);
  const ImVec2 top = split_height({ctx.size.x, ImGui::GetContentRegionAvail().y - note_h}, 0.5f);
  const ImU32 dropped_band = IM_COL32(150, 150, 150, 60), critical_color = IM_COL32(120, 170, 90, 255);

  if (plot::begin_plot("##rope-spectrum", top, {.title = "Frequency spectrum θ_i = θ^(−2i/d)"})) {
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5},
                     {.label = "θ_i (rad / position)", .scale = plot::Scale::Log});
    if (on.dropped > 0 && !on.index.empty())
      plot::plot_xband("dropped (frequency 0)", on.index.back() + 0.5, double(pairs) - 0.5, dropped_band);
    if (changed) plot::plot_line(on.dropped > 0 ? "without p-RoPE / scaling" : "unscaled θ_i", idx, original, {.thickness = 1.5f, .dashed = true});
    plot::plot_line(changed ? "θ'_i used" : "θ_i", on.index, on.freq, {.markers = pairs <= 64});
    if (critical > 0 && critical < pairs) plot::plot_vline("critical dim (Liu)", double(critical) - 0.5, {.color = critical_color, .thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered() && pairs > 0) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, pairs - 1);
      if (inv_freq[i] > 0.0)
        plot::hover_text("pair %lld: θ_i = %.6g rad/position = %.4g°/position", i, inv_freq[i], inv_freq[i] * 180.0 / std::numbers::pi);
      else
        plot::hover_text("pair %lld: dropped (frequency 0; θ_i would be %.6g)", i, original[std::size_t(i)]);
    }
    plot::end_plot();
  }
  if (plot::begin_plot("##rope-wavelengths", {ctx.size.x, ImGui::GetContentRegionAvail().y - note_h},
                       {.title = "Wavelength λ_i = 2π/θ_i against the context length"})) {
    // The context length stays in view even when every wavelength is far below or above it.
    const double lo = on.wave.empty() ? 1.0 : std::min(*std::min_element(on.wave.begin(), on.wave.end()), double(s.length));
    const double hi = std::max(longest, double(s.length));
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5},
                     {.label = "λ_i (positions)", .scale = plot::Scale::Log, .min = lo / 1.5, .max = hi * 1.5});
    if (on.dropped > 0 && !on.index.empty())
      plot::plot_xband("dropped (λ = ∞)", on.index.back() + 0.5, double(pairs) - 0.5, dropped_band);
    plot::plot_line("λ_i", on.index, on.wave, {.markers = pairs <= 64});
    plot::plot_hline("length L", double(s.length), {.color = IM_COL32(230, 120, 40, 255), .thickness = 1.5f, .dashed = true});
    if (critical > 0 && critical < pairs) plot::plot_vline("critical dim (Liu)", double(critical) - 0.5, {.color = critical_color, .thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered() && pairs > 0) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, pairs - 1);
      if (inv_freq[i] > 0.0)
        plot::hover_text("pair %lld: λ = %.6g positions, %.4g full turns in L = %lld", i, 2.0 * std::numbers::pi / inv_freq[i],
                         turns[i], s.length);
      else
        plot::hover_text("pair %lld: dropped by p-RoPE (no rotation)", i);
    }
    plot::end_plot();
  }
  ImGui::TextWrapped("%s", summary);
  if (roomy) teaching_note(note);
}

namespace {

std::string rope_spectrum_csv(const AppState& s, const Derived& d) {
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  const Eigen::ArrayXd lambda = pe::wavelengths(inv), turns = pe::full_turns(inv, s.length);
  const long long critical = critical_pairs(s, d);
  // wavelength is inf for a pair p-RoPE dropped (frequency 0); turns_fully_in_training marks
  // the pairs below Liu et al.'s critical dimension.
  out << "pair,inv_freq,original_inv_freq,wavelength,full_turns_in_length,kept_by_p_rope,turns_fully_in_training\n";
  for (Eigen::Index i = 0; i < inv.size(); ++i)
    out << i << ',' << csv_number(inv[i]) << ','
        << csv_number(d.rope.original_inv_freq.size() == inv.size() ? d.rope.original_inv_freq[i] : inv[i]) << ','
        << csv_number(lambda[i]) << ',' << csv_number(turns[i]) << ',' << (inv[i] > 0.0 ? 1 : 0) << ','
        << (i < critical ? 1 : 0) << "\n";
  return out.str();
}

std::vector<std::string> rope_spectrum_formula(const AppState& s, const Derived& d) {
  const Eigen::Index last = d.rope.inv_freq.size() - 1;
  std::vector<std::string> lines = {
      "θ_i = θ^(−2i/d),   wavelength λ_i = 2π / θ_i  (positions per full turn);   critical dim d_extra = 2⌈(d/2)·log_θ(L_train/2π)⌉ (Liu et al. 2023)",
      formatted("θ = %g, d = %lld:  λ_0 = %.4g,  λ_%lld = %.6g  (L = %lld);  d_extra = %lld for L_train = %lld", s.rope.theta,
                d.rope.rotary_dim, 2 * std::numbers::pi / d.rope.inv_freq[0], static_cast<long long>(last),
                d.rope.inv_freq[last] > 0.0 ? 2 * std::numbers::pi / d.rope.inv_freq[last] : INFINITY, s.length,
                2 * critical_pairs(s, d), s.rope.original_max_position_embeddings())};
  if (s.p_rope < 1.0)
    lines.push_back(formatted("p-RoPE: keep the int(p·d/2) = %lld fastest of %lld pairs, θ_i = 0 for the rest  (p = %g)",
                              pe::pairs_kept(d.rope.inv_freq.size(), s.p_rope), static_cast<long long>(d.rope.inv_freq.size()), s.p_rope));
  return lines;
}

constexpr const char* kAnimatable[] = {"theta", "dim", "length", "factor", "p_rope"};

}  // namespace

const ViewInfo& rope_spectrum_view() {
  static const ViewInfo info{
      .name = "rope-spectrum",
      .title = "Spectrum",
      .summary = "RoPE frequency spectrum θ_i (log) and wavelengths vs the context length",
      .group = "RoPE",
      .draw = draw_rope_spectrum_view,
      .csv = rope_spectrum_csv,
      .formula = rope_spectrum_formula,
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
