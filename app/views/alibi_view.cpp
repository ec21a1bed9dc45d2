// ALiBi (Press et al. 2022): no position vectors at all; each head adds −m_h·(i − j) to
// its attention logits. Slopes are a geometric sequence over heads.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "pe/encodings/alibi.hpp"
#include "views/colormap_choice.hpp"
#include "views/model_family.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/view_csv.hpp"

namespace app {
namespace {

// The loaded model's own slopes when it is an ALiBi model with this many heads (BLOOM's and
// Falcon's build_alibi_tensor, MPT's build_mpt_alibi_tensor: core computed them as each model
// does), else the paper's rule for `heads`.
bool model_slopes_shown(const AppState& s) {
  const pe::PositionEncodingInfo& e = s.model_encoding;
  return e.family == pe::PositionEncodingFamily::Alibi && static_cast<long long>(e.alibi_slopes.size()) == s.heads;
}

Eigen::ArrayXd shown_slopes(const AppState& s) {
  if (!model_slopes_shown(s)) return pe::alibi_slopes(s.heads);
  const std::vector<double>& m = s.model_encoding.alibi_slopes;
  return Eigen::Map<const Eigen::ArrayXd>(m.data(), Eigen::Index(m.size()));
}

}  // namespace

void draw_alibi_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  if (ctx.show_widgets()) {
    ImGui::SetNextItemWidth(160.0f * plot::pixel_scale());
    long long lo = 1, hi = 128;
    ImGui::SliderScalar("heads", ImGuiDataType_S64, &s.heads, &lo, &hi, "%lld", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("heads: number of attention heads; slopes are 2^(−8h/n) for a power of two n.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(160.0f * plot::pixel_scale());
    s.head = std::clamp<long long>(s.head, 1, s.heads);
    ImGui::SliderScalar("head", ImGuiDataType_S64, &s.head, &lo, &s.heads, "%lld", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("head: which head's bias matrix to show (1-based, as in the paper).");
  }
  Eigen::ArrayXd slopes;
  try {
    slopes = shown_slopes(s);
  } catch (const std::exception& e) {
    ImGui::TextColored({1, 0.45f, 0.4f, 1}, "%s", e.what());
    return;
  }
  const long long head = std::clamp<long long>(s.head, 1, s.heads);
  const double slope = slopes[head - 1];
  // The matrix is length²: show at most 512 positions (zoom the other views for more).
  const long long n = std::min<long long>(s.length, 512);
  static pe::TableF bias;
  static std::vector<float> shown;
  static std::string key;
  static unsigned long long version = 0;
  const std::string new_key = std::to_string(slope) + "|" + std::to_string(n);
  if (new_key != key) {
    key = new_key;
    bias = pe::alibi_bias(slope, n);
    shown.assign(bias.data(), bias.data() + bias.size());
    // Masked (future) entries are −inf in the bias; NaN makes the heatmap show background.
    for (float& v : shown)
      if (std::isinf(v)) v = std::numeric_limits<float>::quiet_NaN();
    ++version;
  }
  if (model_slopes_shown(s)) {
    const pe::PositionEncodingInfo& e = s.model_encoding;
    ImGui::TextWrapped("%s (%s): %lld heads, slopes as %s computes them%s", model_label(s).c_str(),
                       e.model_type.c_str(), s.heads, e.alibi_rule.c_str(),
                       e.alibi_rule == "build_mpt_alibi_tensor" ? " (alibi_bias_max 8; heads not a power of two reordered)" : " (float32)");
  }
  const char* const note = "Far keys are penalised linearly; steep heads look locally, gentle heads far. Nothing is added to q or k, "
                "so there is no table to run out of — but the penalty also means distant tokens are hard to attend to.";
  const float note_h = teaching_note_height(note);
  const float h = ImGui::GetContentRegionAvail().y - note_h;
  const float left_w = ctx.size.x * 0.38f;
  std::vector<double> hx = index_axis(s.heads);  // heads are 1-based, as in the paper
  for (double& h : hx) h += 1.0;
  const std::vector<double> hy = as_vector(slopes);
  if (plot::begin_plot("##alibi-slopes", {left_w, h}, {.title = "Slope m_h per head"})) {
    plot::setup_axes({.label = "head h", .min = 0.5, .max = double(s.heads) + 0.5},
                     {.label = "slope m_h", .scale = plot::Scale::Log});
    plot::plot_line("m_h", hx, hy, {.markers = true});
    plot::plot_points("selected head", std::span<const double>(&hx[head - 1], 1), std::span<const double>(&hy[head - 1], 1),
                      {.color = IM_COL32(240, 110, 40, 255)});
    if (plot::is_plot_hovered()) {
      const long long k = std::clamp<long long>(std::llround(plot::mouse_x()), 1, s.heads);
      plot::hover_text("head %lld: m = %.8g = 2^%.4g", k, slopes[k - 1], std::log2(slopes[k - 1]));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  const double vmin = -slope * double(n - 1);
  const float bar_w = plot::colorbar_width("bias", vmin, 0.0);
  const std::string title = "Bias −m·(i − j), head " + std::to_string(head) + ", m = " + std::to_string(slope);
  if (plot::begin_plot("##alibi-bias", {ctx.size.x - left_w - bar_w - 2 * ImGui::GetStyle().ItemSpacing.x, h},
                       {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "key position j", .min = -0.5, .max = double(n) - 0.5},
                     {.label = "query position i", .min = -0.5, .max = double(n) - 0.5, .invert = true});
    plot::plot_value_heatmap("bias", {.values = shown, .rows = int(n), .columns = int(n),
                                      .x0 = -0.5, .x1 = double(n) - 0.5, .y0 = -0.5, .y1 = double(n) - 0.5,
                                      .colormap = plot::Colormap::Viridis, .vmin = vmin, .vmax = 0.0,
                                      .version = version, .y_down = true});
    if (plot::is_plot_hovered()) {
      const long long i = std::llround(plot::mouse_y()), j = std::llround(plot::mouse_x());
      if (i >= 0 && i < n && j >= 0 && j < n)
        plot::hover_text(j <= i ? "i = %lld, j = %lld: bias = %.6g" : "i = %lld, j = %lld: masked (future)", i, j,
                         j <= i ? double(bias(i, j)) : 0.0);
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("bias", vmin, 0.0, plot::Colormap::Viridis, {bar_w, h});
  teaching_note(note);
}

namespace {

std::string alibi_csv(const AppState& s, const Derived&) {
  std::ostringstream out;
  const Eigen::ArrayXd slopes = shown_slopes(s);
  out << "head,slope\n";
  for (Eigen::Index h = 0; h < slopes.size(); ++h) out << h + 1 << ',' << csv_number(slopes[h]) << "\n";
  return out.str();
}

std::vector<std::string> alibi_formula(const AppState& s, const Derived&) {
  const Eigen::ArrayXd slopes = shown_slopes(s);
  const double m = slopes[std::clamp<long long>(s.head - 1, 0, s.heads - 1)];
  const std::string rule = model_slopes_shown(s) ? s.model_encoding.alibi_rule + " (" + s.model_encoding.model_type + ")"
                                                 : std::string("2^(−8h/H) (H a power of two; otherwise interleaved)");
  return {"bias(i, j) = −m_h · (i − j) for j ≤ i;   m_h = " + rule,
          formatted("H = %lld, head %lld:  m = %.6g;  bias at distance 10 = %.4g", s.heads, s.head, m, -10 * m)};
}

constexpr const char* kAnimatable[] = {"heads", "head", "length"};

}  // namespace

const ViewInfo& alibi_view() {
  static const ViewInfo info{
      .name = "alibi",
      .title = "ALiBi",
      .summary = "ALiBi per-head slopes and the causal bias matrix",
      .group = "Attention",
      .draw = draw_alibi_view,
      .csv = alibi_csv,
      .formula = alibi_formula,
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
