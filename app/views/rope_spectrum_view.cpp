// The frequency spectrum θ_i on a log axis (seed 004 §4) and, below it, each pair's
// wavelength against the context length: which pairs complete a turn and which never do.
#include <cstdio>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "views/view.hpp"
#include <sstream>
#include <string>
#include "views/view_csv.hpp"

namespace app {

void draw_rope_spectrum_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  const AppState& s = ctx.state;
  const auto& inv_freq = ctx.derived.rope.inv_freq;
  const long long pairs = inv_freq.size();
  const std::vector<double> idx = index_axis(pairs), freq = as_vector(inv_freq), wave = as_vector(pe::wavelengths(inv_freq));
  const std::vector<double> original =
      ctx.derived.rope.original_inv_freq.size() == pairs ? as_vector(ctx.derived.rope.original_inv_freq) : freq;
  const bool scaled = s.rope.scaling.type != pe::RopeType::Default;
  const char* const note = "Raising θ stretches the slow end: Code Llama (θ = 10⁶) and Llama 3 (θ = 5·10⁵) do this so their slowest pairs do not wrap "
      "inside long contexts. Seed 001 says the opposite (low θ for long contexts); the wavelengths above show why that is backwards.";
  const double d = double(ctx.derived.rope.rotary_dim);
  const Eigen::ArrayXd turns = pe::full_turns(inv_freq, s.length);
  long long incomplete = 0;
  for (long long i = 0; i < pairs; ++i) incomplete += turns[i] < 1.0 ? 1 : 0;
  char summary[256];
  std::snprintf(summary, sizeof summary,
                "Longest wavelength 2π·θ^((d−2)/d) = %.6g positions; %lld of %lld pairs never complete a turn in L = %lld.",
                2.0 * std::numbers::pi * std::pow(s.rope.theta, (d - 2.0) / d), incomplete, pairs, s.length);
  const float note_h = teaching_note_height(note) + teaching_note_height(summary);
  const ImVec2 top = split_height({ctx.size.x, ctx.size.y - note_h}, 0.5f);

  if (plot::begin_plot("##rope-spectrum", top, {.title = "Frequency spectrum θ_i = θ^(−2i/d)"})) {
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5},
                     {.label = "θ_i (rad / position)", .scale = plot::Scale::Log});
    if (scaled) plot::plot_line("unscaled θ_i", idx, original, {.thickness = 1.5f, .dashed = true});
    plot::plot_line(scaled ? "scaled θ'_i" : "θ_i", idx, freq, {.markers = pairs <= 64});
    if (plot::is_plot_hovered() && pairs > 0) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, pairs - 1);
      plot::hover_text("pair %lld: θ_i = %.6g rad/position = %.4g°/position", i, freq[i], freq[i] * 180.0 / std::numbers::pi);
    }
    plot::end_plot();
  }
  if (plot::begin_plot("##rope-wavelengths", {ctx.size.x, ctx.size.y - note_h - top.y - ImGui::GetStyle().ItemSpacing.y},
                       {.title = "Wavelength λ_i = 2π/θ_i against the context length"})) {
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5},
                     {.label = "λ_i (positions)", .scale = plot::Scale::Log});
    plot::plot_line("λ_i", idx, wave, {.markers = pairs <= 64});
    plot::plot_hline("length L", double(s.length), {.color = IM_COL32(230, 120, 40, 255), .thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered() && pairs > 0) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, pairs - 1);
      plot::hover_text("pair %lld: λ = %.6g positions, %.4g full turns in L = %lld", i, wave[i],
                       double(s.length) / wave[i], s.length);
    }
    plot::end_plot();
  }
  ImGui::TextWrapped("%s", summary);
  teaching_note(note);
}

namespace {

std::string rope_spectrum_csv(const AppState& s, const Derived& d) {
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  const Eigen::ArrayXd lambda = pe::wavelengths(inv), turns = pe::full_turns(inv, s.length);
  out << "pair,inv_freq,original_inv_freq,wavelength,full_turns_in_length\n";
  for (Eigen::Index i = 0; i < inv.size(); ++i)
    out << i << ',' << csv_number(inv[i]) << ','
        << csv_number(d.rope.original_inv_freq.size() == inv.size() ? d.rope.original_inv_freq[i] : inv[i]) << ','
        << csv_number(lambda[i]) << ',' << csv_number(turns[i]) << "\n";
  return out.str();
}

std::vector<std::string> rope_spectrum_formula(const AppState& s, const Derived& d) {
  const Eigen::Index last = d.rope.inv_freq.size() - 1;
  return {"θ_i = θ^(−2i/d),   wavelength λ_i = 2π / θ_i  (positions per full turn)",
          formatted("θ = %g, d = %lld:  λ_0 = %.4g,  λ_%lld = %.6g  (L = %lld)", s.rope.theta, s.rope.head_dim,
                    2 * std::numbers::pi / d.rope.inv_freq[0], static_cast<long long>(last),
                    2 * std::numbers::pi / d.rope.inv_freq[last], s.length)};
}

constexpr const char* kAnimatable[] = {"theta", "dim", "length", "factor"};

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
  };
  return info;
}

}  // namespace app
