// RoPE as clock hands (RoFormer, Su et al. 2021): each dimension pair is a hand rotated by
// p·θ_i. The hand's length never changes (rotation preserves norms); only its direction
// encodes the position.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/encodings/rope.hpp"
#include "platform/frame_pacing.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/rope_table_common.hpp"
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {

namespace {
constexpr const char* kHandsNote =
    "x' = x·cos(pθ_i) − y·sin(pθ_i), y' = x·sin(pθ_i) + y·cos(pθ_i). Pair 0 turns 57.3° per position at any θ; "
    "the \"30° per position\" of popular illustrations is only a picture. The hand's length never changes.";
}  // namespace
namespace {

// Up to `count` pairs spread over the spectrum, always including the selected one.
std::vector<long long> pairs_to_show(long long pairs, long long selected, int count) {
  std::vector<long long> out;
  if (pairs <= count) {
    for (long long i = 0; i < pairs; ++i) out.push_back(i);
    return out;
  }
  for (int k = 0; k < count; ++k) out.push_back(std::llround(double(k) * double(pairs - 1) / double(count - 1)));
  if (std::find(out.begin(), out.end(), selected) == out.end()) {
    auto nearest = std::min_element(out.begin() + 1, out.end() - 1, [&](long long a, long long b) {
      return std::llabs(a - selected) < std::llabs(b - selected);
    });
    *nearest = selected;
    std::sort(out.begin(), out.end());
  }
  return out;
}

double degrees_mod_360(double rad) {
  double deg = std::fmod(rad * 180.0 / std::numbers::pi, 360.0);
  return deg < 0 ? deg + 360.0 : deg;
}

}  // namespace

void draw_clock_hands_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  const auto& inv_freq = ctx.derived.rope.inv_freq;
  const long long pairs = inv_freq.size();
  const long long rotary_dim = ctx.derived.rope.rotary_dim;

  // Animation of p: advances by play_speed positions per second, wrapping at length.
  static double last_time = -1.0, fractional = 0.0;
  if (ctx.show_widgets()) {
    if (ImGui::Button(s.playing ? "Pause" : "Play")) s.playing = !s.playing;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Animate the position p: every hand turns at its own speed θ_i.");
    // The row wraps where it would run past a narrow (portrait, projector-scale) window.
    const float slider_w = 160.0f * plot::pixel_scale();
    same_line_if_fits(slider_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("positions / s").x);
    ImGui::SetNextItemWidth(slider_w);
    float speed = float(s.play_speed);
    if (ImGui::SliderFloat("positions / s", &speed, 0.1f, 50.0f, "%.1f", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      s.play_speed = speed;
    same_line_if_fits(button_width("p = 0"));
    if (ImGui::Button("p = 0")) s.position = 0;
    same_line_if_fits(button_width("p − 1"));
    if (ImGui::Button("p − 1") && s.position > 0) --s.position;
    same_line_if_fits(button_width("p + 1"));
    if (ImGui::Button("p + 1") && s.position + 1 < s.length) ++s.position;
    const std::string p_text = "p = " + std::to_string(s.position);
    same_line_if_fits(ImGui::CalcTextSize(p_text.c_str()).x);
    ImGui::TextUnformatted(p_text.c_str());
    same_line_if_fits(button_width("d = 4 example"));
    if (ImGui::Button("d = 4 example")) {
      // d = 4, p = 1, θ = 10000, q = [0.8, 0.3, −0.5, 0.2], interleaved pairs.
      s.rope = pe::load_preset(pe::kTeachingPreset);
      s.rope.head_dim = 4;
      s.rope.convention = pe::PairConvention::Interleaved;
      s.preset.clear();
      s.model_source = std::string("preset:") + pe::kTeachingPreset;  // the teaching head, edited
      s.position = 1;
      s.pair = 0;
      s.vector = {0.8, 0.3, -0.5, 0.2};
      s.playing = false;
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The worked example with d = 4: p = 1, θ = 10000, q = [0.8, 0.3, −0.5, 0.2], interleaved pairs.");
  }
  if (s.playing) request_frame();  // the hands move on their own: keep the GUI drawing
  if (s.playing && last_time >= 0.0) {
    fractional += (ctx.time_seconds - last_time) * s.play_speed;
    const long long step = static_cast<long long>(fractional);
    fractional -= double(step);
    s.position = (s.position + step) % std::max<long long>(s.length, 1);
  }
  last_time = ctx.time_seconds;

  const std::vector<double> v = effective_vector(s);
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
  const Eigen::VectorXd rotated = pe::apply_rope(x, double(s.position), inv_freq, s.rope.convention);

  // Two rows of four hands when there is room; one row in a small grid cell.
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const bool roomy = ImGui::GetContentRegionAvail().y > 28.0f * line_h;
  const std::vector<long long> shown = pairs_to_show(pairs, s.pair, roomy ? 8 : 4);
  // Four dials a row in a wide window; in a tall one (portrait) fewer, larger dials a row.
  // What goes under the dials: the table (header + a row per dial, cell padding and
  // borders included) and the note.
  const float row_h = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y + 1.0f;
  const float table_h = row_h * float(shown.size() + 1) + ImGui::GetStyle().ItemSpacing.y + teaching_note_height(kHandsNote);
  const float avail_h = ImGui::GetContentRegionAvail().y - table_h;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  int columns = 4;
  float cell = 0.0f;
  for (const int c : {4, 2}) {
    const int r = int((shown.size() + std::size_t(c) - 1) / std::size_t(c));
    const float side = std::min((ctx.size.x - spacing * float(c - 1)) / float(c), avail_h / float(r) - 4.0f);
    if (side > cell * 1.15f) {  // a clearly larger dial, else keep the wider row
      cell = side;
      columns = c;
    }
  }
  cell = std::max(80.0f, cell);

  for (std::size_t n = 0; n < shown.size(); ++n) {
    const long long i = shown[n];
    const auto [d0, d1] = pe::pair_dims(s.rope.convention, rotary_dim, i);
    const double x0 = x[d0], y0 = x[d1], x1 = rotated[d0], y1 = rotated[d1];
    const double radius = std::hypot(x0, y0);
    const double angle = double(s.position) * inv_freq[i];
    char degrees[32];
    std::snprintf(degrees, sizeof degrees, " · %.1f°", degrees_mod_360(angle));
    const std::string title = "pair " + std::to_string(i) + degrees +
                              (cell > 14.0f * ImGui::GetFontSize() ? " (dims " + std::to_string(d0) + "," + std::to_string(d1) + ")" : "");
    if (n % columns != 0) ImGui::SameLine();
    if (plot::begin_plot(("##hand" + std::to_string(i)).c_str(), {cell, cell},
                         {.title = title.c_str(), .legend = false, .crosshair = false, .equal_aspect = true})) {
      const double r = std::max(radius, 1e-9) * 1.25;
      plot::setup_axes({.label = "", .min = -r, .max = r, .lock = true, .format = "%.2g"},
                       {.label = "", .min = -r, .max = r, .lock = true, .format = "%.2g"});
      plot::plot_circle("circle", radius, {.color = IM_COL32(128, 128, 128, 110), .thickness = 1.0f, .in_legend = false});
      plot::plot_arrow(0, 0, x0, y0, IM_COL32(150, 150, 150, 150), 2.0f);
      plot::plot_arrow(0, 0, x1, y1, i == s.pair ? IM_COL32(240, 110, 40, 255) : IM_COL32(70, 140, 230, 255), 3.5f);
      // Labels inside the small dial: the long form when it fits, else the bare number. The
      // room is the data area's width (the axis ticks take part of the cell).
      const float room = (plot::to_pixels(r, 0).x - plot::to_pixels(-r * 0.95, 0).x) * 0.98f;
      char label[96];
      std::snprintf(label, sizeof label, "|pair| = %.3f", std::hypot(x1, y1));
      if (ImGui::CalcTextSize(label).x > room) std::snprintf(label, sizeof label, "%.3f", std::hypot(x1, y1));
      if (ImGui::CalcTextSize(label).x <= room) plot::plot_text(-r * 0.95, r * 0.88, label);
      // The angle line sits at the dial's bottom edge: only in dials tall enough for it.
      std::snprintf(label, sizeof label, "%.1f°  (%.3g turns)", degrees_mod_360(angle), angle / (2 * std::numbers::pi));
      if (ImGui::CalcTextSize(label).x > room) std::snprintf(label, sizeof label, "%.1f°", degrees_mod_360(angle));
      // Its line (top at -0.88 r) must end above the plot's bottom edge (a dial squeezed flat
      // on a tablet: it would not).
      const bool tall = plot::to_pixels(0, plot::visible_y_min()).y - plot::to_pixels(0, -r * 0.88).y >=
                        0.8f * ImGui::GetTextLineHeight();  // the glyphs, not the line's spacing under them
      if (ImGui::CalcTextSize(label).x <= room && cell > 10.0f * ImGui::GetFontSize() && tall) plot::plot_text(-r * 0.95, -r * 0.88, label);
      plot::end_plot();
    }
  }

  // Step-by-step numbers (the d = 4 worked example is pairs 0 and 1 at p = 1).
  // All nine columns when they fit; at projector scales the six a student needs; in a
  // narrow (portrait) window five, fewer decimals (the dials show |pair|).
  const float em = ImGui::GetFontSize();
  const int level = ctx.size.x > 60.0f * em ? 2 : ctx.size.x > 40.0f * em ? 1 : 0;
  const int table_columns = level == 2 ? 9 : level == 1 ? 6 : 5;
  if (begin_fitting_table(ctx, "##hand-numbers", table_columns, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    for (const char* h : {"pair i", "θ_i (rad/pos)", "angle p·θ_i (rad)", "angle (°)", "cos", "sin", "(x, y) at p = 0", "(x', y') at p", "|pair|"}) {
      const std::string header = h;
      if (level < 2 && (header.starts_with("θ_i") || header.starts_with("angle p") || header.starts_with("(x, y)"))) continue;
      if (level < 1 && header == "|pair|") continue;
      ImGui::TableSetupColumn(h);
    }
    ImGui::TableHeadersRow();
    for (long long i : shown) {
      const auto [d0, d1] = pe::pair_dims(s.rope.convention, rotary_dim, i);
      const double angle = double(s.position) * inv_freq[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn(); ImGui::Text("%lld", i);
      if (level == 2) { ImGui::TableNextColumn(); ImGui::Text("%.6g", inv_freq[i]); }
      if (level == 2) { ImGui::TableNextColumn(); ImGui::Text("%.6g", angle); }
      ImGui::TableNextColumn(); ImGui::Text("%.3f", angle * 180.0 / std::numbers::pi);
      ImGui::TableNextColumn(); ImGui::Text(level ? "%.5f" : "%.4f", std::cos(angle));
      ImGui::TableNextColumn(); ImGui::Text(level ? "%.5f" : "%.4f", std::sin(angle));
      if (level == 2) { ImGui::TableNextColumn(); ImGui::Text("(%.3f, %.3f)", x[d0], x[d1]); }
      ImGui::TableNextColumn(); ImGui::Text(level ? "(%.5f, %.5f)" : "(%.3f, %.3f)", rotated[d0], rotated[d1]);
      if (level >= 1) { ImGui::TableNextColumn(); ImGui::Text("%.5f", std::hypot(rotated[d0], rotated[d1])); }
    }
    ImGui::EndTable();
  }
  if (rotary_dim == 4 && s.position == 1 && s.rope.theta == 10000.0 && v.size() == 4 && v[0] == 0.8 && v[1] == 0.3 &&
      v[2] == -0.5 && v[3] == 0.2) {
    text_wrapped("Exact: q' = [%.5f, %.5f, %.5f, %.5f]. The often printed [0.179, 0.836, −0.502, 0.195] comes from rounding "
                "cos 1 and sin 1 to 3 decimals before multiplying.",
                rotated[0], rotated[1], rotated[2], rotated[3]);
  }
  teaching_note(kHandsNote);
}

namespace {

std::string clock_hands_csv(const AppState& s, const Derived& d) {
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  const std::vector<double> v = effective_vector(s);
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
  const Eigen::VectorXd r = pe::apply_rope(x, double(s.position), inv, s.rope.convention);
  out << "# position " << s.position << ", convention " << pe::to_string(s.rope.convention) << "\n";
  out << "pair,dim_a,dim_b,inv_freq,angle_rad,angle_deg,x,y,x_rotated,y_rotated,norm\n";
  for (Eigen::Index i = 0; i < inv.size(); ++i) {
    const auto [a, b] = pe::pair_dims(s.rope.convention, d.rope.rotary_dim, i);
    const double angle = double(s.position) * inv[i];
    out << i << ',' << a << ',' << b << ',' << csv_number(inv[i]) << ',' << csv_number(angle) << ','
        << csv_number(angle * 180 / std::numbers::pi) << ',' << csv_number(x[a]) << ',' << csv_number(x[b]) << ','
        << csv_number(r[a]) << ',' << csv_number(r[b]) << ',' << csv_number(std::hypot(r[a], r[b])) << "\n";
  }
  return out.str();
}

std::vector<std::string> clock_hands_formula(const AppState& s, const Derived& d) {
  return rope_angle_formula(s, d, /*sine=*/false);
}

constexpr const char* kAnimatable[] = {"position", "theta", "dim", "pair", "play_speed"};

}  // namespace

const ViewInfo& clock_hands_view() {
  static const ViewInfo info{
      .name = "clock-hands",
      .title = "Clock hands",
      .summary = "Each dimension pair as a rotating 2D hand at position p, with the numbers",
      .group = "RoPE",
      .draw = draw_clock_hands_view,
      .csv = clock_hands_csv,
      .formula = clock_hands_formula,
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
