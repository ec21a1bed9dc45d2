#include "views/rope_table_common.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <sstream>

#include "views/colormap_choice.hpp"
#include "views/view_csv.hpp"

namespace app {

void draw_rope_table(ViewContext& ctx, bool cosine) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  const AppState& s = ctx.state;
  const auto& inv_freq = ctx.derived.rope.inv_freq;
  const long long pairs = inv_freq.size();
  const char* fn = cosine ? "cos" : "sin";
  const float bar_w = plot::colorbar_width(cosine ? "cos" : "sin", -1.0, 1.0);
  const char* const note = cosine
                    ? "Row i is cos(p·θ_i), θ_i = θ^(−2i/d). Pair 0 (θ₀ = 1 rad/position) is the fastest; the last pairs barely move "
                      "inside the context — they are the ones that break when a model runs past its training length."
                    : "sin(p·θ_i) is the other half of each rotation: together (cos, sin) is the angle p·θ_i of pair i. "
                      "Position 0 is the identity: cos = 1, sin = 0 in every row.";

  // Heatmap over curves, sharing the data height after each plot's title and axes (a short
  // projector window squeezes both rows alike instead of scrolling).
  const std::vector<float> heights = two_plot_heights(ctx.size.y - teaching_note_height(note), 0.55f);
  const ImVec2 top{ctx.size.x, heights[0]};

  const std::string title = std::string("RoPE ") + fn + "(p·θ_i) table — " + std::to_string(pairs) + " pairs";
  if (plot::begin_plot(cosine ? "##rope-cos-heatmap" : "##rope-sin-heatmap", {top.x - bar_w - ImGui::GetStyle().ItemSpacing.x, top.y},
                       {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "position p", .min = -0.5, .max = double(s.length) - 0.5},
                     {.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5, .format = "%.0f"});
    plot::plot_encoding_heatmap(fn, {.function = cosine ? plot::EncodingFunction::RopeCos : plot::EncodingFunction::RopeSin,
                                     .frequencies = ctx.derived.rope_inv_freq_f,
                                     .rows = int(pairs),
                                     .x0 = 0, .x1 = double(s.length - 1),
                                     .colormap = to_plot(s.colormap),
                                     .pixel_mean = s.pixel_mean});
    if (plot::is_plot_hovered() && pairs > 0) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, pairs - 1);
      plot::hover_text("pair %lld: θ_%lld = %.6g rad/position, wavelength %.5g positions", i, i, inv_freq[i],
                       2.0 * std::numbers::pi / inv_freq[i]);
      const auto dims = pe::pair_dims(s.rope.convention, ctx.derived.rope.rotary_dim, i);
      plot::hover_text("rotates dims (%lld, %lld) in the %s layout", dims.first, dims.second,
                       pe::to_string(s.rope.convention));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar(fn, -1.0, 1.0, to_plot(s.colormap), {bar_w, top.y});

  // Pairs 0, 5, 15, 31, as tutorials often draw them; keep those that exist and the selected pair.
  std::vector<long long> chosen;
  for (long long i : {0LL, 5LL, 15LL, 31LL})
    if (i < pairs) chosen.push_back(i);
  if (s.pair < pairs && std::find(chosen.begin(), chosen.end(), s.pair) == chosen.end()) chosen.push_back(s.pair);

  const std::string curves_title = curve_window_title((std::string(fn) + "(p·θ_i) for chosen pairs i").c_str(), s.length);
  if (plot::begin_plot(cosine ? "##rope-cos-curves" : "##rope-sin-curves",
                       {ctx.size.x, heights[1]}, {.title = curves_title.c_str()})) {
    plot::setup_axes({.label = "position p", .min = 0, .max = double(std::clamp<long long>(s.length - 1, 1, kCurveWindow - 1))},
                     {.label = fn, .min = -1.1, .max = 1.1, .lock = true});
    int k = 0;
    for (long long i : chosen) {
      const double f = inv_freq[i];
      const std::string label = "pair " + std::to_string(i) + " (λ = " + std::to_string(int(std::lround(2 * std::numbers::pi / f))) + ")";
      plot_sinusoid_curve(label.c_str(), f, cosine, s.length, {.color = plot::series_color(k++)});
    }
    plot::plot_vline("p", double(s.position), {.color = IM_COL32(200, 200, 200, 160), .thickness = 1.0f, .dashed = true, .in_legend = false});
    plot::end_plot();
  }
  teaching_note(note);
}

std::string rope_table_csv(const AppState& s, const Derived& d, bool cosine) {
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  const auto positions = sampled_positions(s.length, out);  // writes its note first
  out << "position";
  for (Eigen::Index i = 0; i < inv.size(); ++i) out << ",pair" << i;
  out << "\n";
  for (long long p : positions) {
    out << p;
    for (Eigen::Index i = 0; i < inv.size(); ++i)
      out << ',' << csv_number(cosine ? std::cos(double(p) * inv[i]) : std::sin(double(p) * inv[i]));
    out << "\n";
  }
  return out.str();
}

std::vector<std::string> rope_angle_formula(const AppState& s, const Derived& d, bool sine) {
  const long long p = s.position;
  const long long i = selected_pair(s, d);
  const double f = d.rope.inv_freq.size() > 0 ? d.rope.inv_freq[i] : 0.0;
  const double angle = double(p) * f;
  constexpr double kDegrees = 180.0 / std::numbers::pi;
  return {"θ_i = θ^(−2i/d)   (scaled: see Scaling),   angle = p·θ_i,   (x', y') = (x cos − y sin,  x sin + y cos)",
          formatted("p = %lld, i = %lld:  θ_%lld = %.6g,  angle = %.6g rad = %.3f°  →  %s = %.5f", p, i, i, f, angle,
                    std::fmod(angle * kDegrees, 360.0), sine ? "sin" : "cos", sine ? std::sin(angle) : std::cos(angle))};
}

}  // namespace app
