// Vaswani et al. 2017, §3.5: the sinusoidal PE matrix as a heatmap and a few dimensions as curves.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "pe/encodings/sinusoidal.hpp"
#include "views/colormap_choice.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {

void draw_sinusoidal_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  const AppState& s = ctx.state;
  const long long d = s.rope.head_dim;
  const float bar_w = plot::colorbar_width("PE value", -1.0, 1.0);
  const char* const note = "Dimension 0 turns fastest (1 rad per position, wavelength 2π); each later pair is slower by θ^(2/d). "
                           "Some tutorials print the opposite (\"lower dimensions change slowly\") — the plot shows which is true.";
  // Heatmap over curves, sharing the data height after each plot's title and axes, so a
  // projector's short window squeezes both rows alike instead of scrolling.
  const std::vector<float> heights = two_plot_heights(ctx.size.y - teaching_note_height(note), 0.55f);
  const ImVec2 top{ctx.size.x, heights[0]};

  if (plot::begin_plot("##sinusoidal-heatmap", {top.x - bar_w - ImGui::GetStyle().ItemSpacing.x, top.y},
                       {.title = "Sinusoidal position encoding PE(p, j)", .legend = false})) {
    plot::setup_axes({.label = "position p", .min = -0.5, .max = double(s.length) - 0.5},
                     {.label = "dimension j", .min = -0.5, .max = double(d) - 0.5, .format = "%.0f"});
    plot::plot_encoding_heatmap("PE", {.function = plot::EncodingFunction::Sinusoidal,
                                       .frequencies = ctx.derived.sinusoidal_freq_f,
                                       .rows = int(d),
                                       .x0 = 0, .x1 = double(s.length - 1),
                                       .colormap = to_plot(s.colormap),
                                       .pixel_mean = s.pixel_mean});
    if (plot::is_plot_hovered()) {
      const long long j = std::clamp<long long>(std::llround(plot::mouse_y()), 0, d - 1);
      const double freq = ctx.derived.sinusoidal_freq[j / 2];
      plot::hover_text("column %lld = %s of pair %lld, frequency θ^(−2i/d) = %.6g rad/position,"
                       " wavelength %.4g positions", j, j % 2 == 0 ? "sin" : "cos", j / 2, freq,
                       2.0 * std::numbers::pi / freq);
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("PE value", -1.0, 1.0, to_plot(s.colormap), {bar_w, top.y});

  // Dims 0, 1, 10, 20, 50, as tutorials often plot them; keep the ones that exist, plus the chosen pair.
  std::vector<long long> dims;
  for (long long j : {0LL, 1LL, 10LL, 20LL, 50LL})
    if (j < d) dims.push_back(j);
  const long long chosen = std::min(2 * s.pair, d - 1);
  if (std::find(dims.begin(), dims.end(), chosen) == dims.end()) dims.push_back(chosen);

  const std::string curve_title = curve_window_title("PE(p, j) over position for chosen dimensions j", s.length);
  if (plot::begin_plot("##sinusoidal-curves", {ctx.size.x, heights[1]},
                       {.title = curve_title.c_str()})) {
    plot::setup_axes({.label = "position p", .min = 0, .max = double(std::clamp<long long>(s.length - 1, 1, kCurveWindow - 1))},
                     {.label = "value", .min = -1.1, .max = 1.1, .lock = true});
    int k = 0;
    for (long long j : dims) {
      const std::string label = "dim " + std::to_string(j) + (j % 2 == 0 ? " (sin)" : " (cos)");
      // Column j = sin (even j) or cos (odd j) of p·θ^(−2⌊j/2⌋/d).
      plot_sinusoid_curve(label.c_str(), ctx.derived.sinusoidal_freq[j / 2], j % 2 == 1, s.length,
                          {.color = plot::series_color(k++)});
    }
    plot::end_plot();
  }
  teaching_note(note);
}

namespace {

std::string sinusoidal_csv(const AppState& s, const Derived&) {
  std::ostringstream out;
  const long long dim = s.rope.head_dim;
  const auto positions = sampled_positions(s.length, out);  // writes its note first
  out << "position";
  for (long long j = 0; j < dim; ++j) out << ",dim" << j;
  out << "\n";
  for (long long p : positions) {
    out << p;
    for (long long j = 0; j < dim; ++j) out << ',' << csv_number(pe::sinusoidal_value(p, j, dim, s.rope.theta));
    out << "\n";
  }
  return out.str();
}

std::vector<std::string> sinusoidal_formula(const AppState& s, const Derived& d) {
  const long long i = selected_pair(s, d);
  const long long p = s.position;
  const double w = std::pow(s.rope.theta, -double(2 * i) / double(s.rope.head_dim));
  return {"PE(p, 2i) = sin(p / θ^(2i/d)),   PE(p, 2i+1) = cos(p / θ^(2i/d))",
          formatted("p = %lld, i = %lld:  p / %g^(%lld/%lld) = %.6g  →  sin = %.5f,  cos = %.5f", p, i, s.rope.theta, 2 * i,
                    s.rope.head_dim, double(p) * w, std::sin(double(p) * w), std::cos(double(p) * w))};
}

constexpr const char* kAnimatable[] = {"theta", "dim", "length", "position", "pair"};

}  // namespace

const ViewInfo& sinusoidal_view() {
  static const ViewInfo info{
      .name = "sinusoidal",
      .title = "Sinusoidal",
      .summary = "Sinusoidal PE heatmap (position × dimension) and per-dimension curves",
      .group = "Absolute",
      .draw = draw_sinusoidal_view,
      .csv = sinusoidal_csv,
      .formula = sinusoidal_formula,
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
