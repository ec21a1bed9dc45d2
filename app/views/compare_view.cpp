// Compare A/B: any view drawn for two configurations side by side (A = the main
// parameters, B = a second configuration), plus their difference: cos-table A − B as a
// heatmap and relative-score curves with the difference curve.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/base/parallel.hpp"
#include "pe/encodings/simd.hpp"
#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"
#include "views/view.hpp"
#include <numbers>
#include <sstream>
#include "views/scaling_methods.hpp"
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {

// A labelled widget `w` points wide: its width with the label (what same_line_if_fits
// measures: the row of B's controls wraps in every layout, it is wider than a 1280-px
// browser window or half a 1080p projector at 2×, and the sides take what is left below).
float labelled(float w, const char* label) {
  return w * plot::pixel_scale() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

void b_controls(AppState& s) {
  pe::RopeConfig& b = s.compare_b;
  ImGui::SetNextItemWidth(220.0f * plot::pixel_scale());
  static const std::vector<pe::PresetInfo> presets = pe::list_presets();
  if (ImGui::BeginCombo("B preset", s.compare_b_preset.empty() ? "(custom)" : s.compare_b_preset.c_str())) {
    for (const auto& p : presets)
      if (ImGui::Selectable(p.title.c_str(), p.key == s.compare_b_preset)) {
        try {
          b = pe::load_preset(p.key);
          s.compare_b_preset = p.key;
        } catch (const std::exception&) {
        }
      }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("compare_b_preset: the model for configuration B.");
  same_line_if_fits(labelled(160.0f, "θ B"));
  ImGui::SetNextItemWidth(160.0f * plot::pixel_scale());
  const double tmin = 2.0, tmax = 1e7;
  if (ImGui::SliderScalar("θ B", ImGuiDataType_Double, &b.theta, &tmin, &tmax, "%.6g", ImGuiSliderFlags_Logarithmic))
    s.compare_b_preset.clear();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("compare_b.theta: B's RoPE base.");
  same_line_if_fits(labelled(120.0f, "d B"));
  ImGui::SetNextItemWidth(120.0f * plot::pixel_scale());
  int dim = int(b.head_dim);
  if (ImGui::SliderInt("d B", &dim, 2, 1024, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    b.head_dim = std::max(2, dim - dim % 2);
    s.compare_b_preset.clear();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("compare_b.dim: B's head dimension (even).");
  same_line_if_fits(labelled(130.0f, "scaling B"));
  ImGui::SetNextItemWidth(130.0f * plot::pixel_scale());
  if (ImGui::BeginCombo("scaling B", pe::to_string(b.scaling.type))) {
    for (pe::RopeType t : pe::all_rope_types())
      if (ImGui::Selectable(pe::to_string(t), t == b.scaling.type)) {
        b.scaling.type = t;
        if (t != pe::RopeType::Default && b.scaling.factor <= 1.0) b.scaling.factor = 4.0;
        s.compare_b_preset.clear();
      }
    ImGui::EndCombo();
  }
  same_line_if_fits(labelled(110.0f, "factor B"));
  ImGui::SetNextItemWidth(110.0f * plot::pixel_scale());
  const double fmin = 1.0, fmax = 64.0;
  if (ImGui::SliderScalar("factor B", ImGuiDataType_Double, &b.scaling.factor, &fmin, &fmax, "%.3g", ImGuiSliderFlags_Logarithmic))
    s.compare_b_preset.clear();
  same_line_if_fits(button_width("Swap A↔B"));
  if (ImGui::Button("Swap A↔B")) {
    std::swap(s.rope, s.compare_b);
    std::swap(s.preset, s.compare_b_preset);
    s.vector.clear();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Exchange the two configurations.");
  same_line_if_fits(button_width("Copy A→B"));
  if (ImGui::Button("Copy A→B")) {
    s.compare_b = s.rope;
    s.compare_b_preset = s.preset;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Make B a copy of A, then change one thing.");
}

// What a configuration is called, in the parameter panel's words: the model while the
// preset is unedited, else "custom, based on" it (B starts as the teaching preset with
// θ = 5·10⁵: its title alone would claim θ = 10000). `short_name`: the preset's key-like
// name instead of its title.
std::string config_label(const pe::RopeConfig& r, const std::string& preset, bool short_name = false) {
  const std::string model = (short_name || r.title.empty()) && !r.name.empty() ? r.name : r.title;
  if (!preset.empty()) return model.empty() ? preset : model;
  return model.empty() ? "custom" : "custom, based on " + model;
}

// "A: θ = …, d = … — model", the numbers first, shortened until it fits `width` (at
// projector scale half the window is narrow); the tooltip has the whole of it.
std::string side_label(const char* side, const pe::RopeConfig& r, const std::string& preset, float width, std::string& full) {
  const std::string numbers = std::string(side) + ": θ = " + pe::format_double(r.theta) + ", d = " + std::to_string(r.head_dim);
  full = numbers + " — " + config_label(r, preset);
  for (const std::string& candidate :
       {full, numbers + " — " + config_label(r, preset, true), numbers + " — " + (preset.empty() ? "custom" : preset)})
    if (ImGui::CalcTextSize(candidate.c_str()).x <= width) return candidate;
  return numbers;
}

// One side's mean relative-score curve s(Δ)/d over `deltas`, kept until that side's
// frequencies (its Derived version) or the seed change: dragging A's θ leaves B's curve
// alone, and the seeded vectors (which depend on the pair count and the seed, not on θ)
// are drawn once. Same numbers as relative_score_curve(choice, …), which is this product.
struct SideCurve {
  std::string key, coefficient_key;
  pe::RelativeScoreCoefficients coefficients;
  std::vector<double> y;
};

// One side's cos(p_c·ω_i) at the difference heatmap's columns p_c = ⌊c·L / columns⌋, row i
// (pair) by column, kept until that side's frequencies (its Derived version) or the columns
// change: dragging A's θ leaves B's table alone. Through core's vector sincos (within 4e-16
// of std::cos): at d = 1024 that is 512 × 512 cosines a side, which std::cos took ~5 ms over.
struct SideCosines {
  std::string key;
  std::vector<double> cos;
};

bool update_side_cosines(SideCosines& t, const Eigen::ArrayXd& inv_freq, unsigned long long version, long long length,
                         int columns) {
  const std::string key = std::to_string(version) + "|" + std::to_string(length) + "|" + std::to_string(columns);
  if (key == t.key) return false;
  t.key = key;
  t.cos.resize(std::size_t(inv_freq.size()) * std::size_t(columns));
  std::vector<double> positions(static_cast<std::size_t>(columns));
  for (int c = 0; c < columns; ++c) positions[std::size_t(c)] = std::floor(double(c) * double(length) / columns);
  // Rows on two threads (pe/base/parallel.hpp): each writes its own row.
  pe::in_two_parts(inv_freq.size(), 32, 1, [&](long long first, long long last) {
    std::vector<double> angles(positions.size()), sines(positions.size());
    for (Eigen::Index i = first; i < last; ++i) {
      for (int c = 0; c < columns; ++c) angles[std::size_t(c)] = positions[std::size_t(c)] * inv_freq[i];
      pe::sincos_batch(angles.data(), sines.data(), t.cos.data() + std::size_t(i) * std::size_t(columns), columns);
    }
  });
  return true;
}

bool update_side_curve(SideCurve& c, const Eigen::ArrayXd& inv_freq, unsigned long long version, const Eigen::ArrayXd& deltas,
                       std::uint64_t seed) {
  constexpr long long kSamples = 32;
  const std::string key = std::to_string(version) + "|" + std::to_string(seed) + "|" + std::to_string(deltas.size()) + "|" +
                          pe::format_double(deltas.size() ? deltas[deltas.size() - 1] : 0.0);
  if (key == c.key) return false;
  c.key = key;
  const std::string ck = std::to_string(inv_freq.size()) + "|" + std::to_string(seed);
  if (ck != c.coefficient_key) {
    c.coefficients = pe::choice_coefficients(pe::VectorChoice::MeanOfIdentical, inv_freq.size(), seed, kSamples);
    c.coefficient_key = ck;
  }
  const Eigen::ArrayXd curve = pe::relative_score_curve(c.coefficients, inv_freq, deltas) / double(2 * inv_freq.size());
  c.y.assign(curve.data(), curve.data() + curve.size());
  return true;
}

}  // namespace

void draw_compare_view(ViewContext& ctx) {
  AppState& a = ctx.state;
  if (!ctx.exporting) {
    ImGui::SetNextItemWidth(170.0f * plot::pixel_scale());
    if (ImGui::BeginCombo("view", a.compare_view.c_str())) {
      for (const ViewInfo* v : embeddable_views())
        if (ImGui::Selectable(v->name, a.compare_view == v->name)) a.compare_view = v->name;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("compare_view: the view drawn for A and for B.");
    same_line_if_fits(labelled(220.0f, "B preset"));
    b_controls(a);
  }
  const ViewInfo* inner = find_view(a.compare_view);
  if (!inner || inner->hosts_views) inner = find_view(AppState{}.compare_view);

  // B shares everything with A but the RoPE configuration.
  AppState b = a;
  b.rope = a.compare_b;
  b.preset = a.compare_b_preset;
  b.vector.clear();
  b.pair = std::min<long long>(b.pair, std::max<long long>(b.rope.rotary_dim() / 2 - 1, 0));
  static Derived derived_b;
  update_derived(b, derived_b);

  const float avail_h = ImGui::GetContentRegionAvail().y;
  // On a phone A stands over B (and the two difference plots over each other), each the
  // whole width: side by side, each inner view would get half a phone's width.
  const PlotColumns layout = plot_columns(ctx, 0.5f);
  // The sides take 62 % of the height, less where the difference plots below would drop
  // under their minimum (2× on a 1080p projector, with B's controls on two lines).
  const float bottom_min = plot::min_plot_height({.title = "Difference"}) + ImGui::GetStyle().ItemSpacing.y;
  const float top_h = layout.stacked ? avail_h * 0.62f : std::max(std::min(avail_h * 0.62f, avail_h - bottom_min), avail_h * 0.45f);
  const float half_w = layout.left_w;  // left_fraction 0.5: both columns this wide
  for (int side = 0; side < 2; ++side) {
    if (side) layout.next();
    ImGui::PushID(side);
    ImGui::BeginChild("##side", {half_w, top_h}, false);
    std::string full;
    const std::string label = side == 0 ? side_label("A", a.rope, a.preset, ImGui::GetContentRegionAvail().x, full)
                                        : side_label("B", b.rope, b.preset, ImGui::GetContentRegionAvail().x, full);
    ImGui::TextUnformatted(label.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", full.c_str());
    ViewContext inner_ctx{side == 0 ? a : b, side == 0 ? ctx.derived : derived_b, ImGui::GetContentRegionAvail(), ctx.time_seconds,
                          ctx.exporting, /*hide_widgets=*/true, ctx.narrow};
    {
      const plot::MinDataLinesScope embedded(plot::kEmbeddedMinDataLines);
      const TeachingNotesHidden no_notes;  // the inner view's note, twice, would crowd the plots
      if (!inner_ctx.derived.error.empty()) show_state_error(inner_ctx.derived);
      else inner->draw(inner_ctx);
    }
    ImGui::EndChild();
    ImGui::PopID();
  }

  // Difference panel.
  if (!ctx.derived.error.empty() || !derived_b.error.empty()) return;
  const auto& fa = ctx.derived.rope.inv_freq;
  const auto& fb = derived_b.rope.inv_freq;
  const float bottom_h = layout.stacked ? top_h * 0.8f : ImGui::GetContentRegionAvail().y;
  const long long length = a.length;
  if (fa.size() == fb.size()) {
    static std::vector<float> diff;
    static unsigned long long version = 0;
    static SideCosines cos_a, cos_b;
    const int columns = int(std::min<long long>(length, 512));
    const bool a_changed = update_side_cosines(cos_a, fa, ctx.derived.version, length, columns);
    const bool b_changed = update_side_cosines(cos_b, fb, derived_b.version, length, columns);
    if (a_changed || b_changed) {
      ++version;
      diff.resize(cos_a.cos.size());
      for (std::size_t e = 0; e < diff.size(); ++e) diff[e] = float(cos_a.cos[e] - cos_b.cos[e]);
    }
    if (plot::begin_plot("##diff-heatmap", {half_w, bottom_h}, {.title = "Difference cos(p·θ_i): A − B", .legend = false})) {
      plot::setup_axes({.label = "position p", .min = 0, .max = double(length)},
                       {.label = "pair i", .min = -0.5, .max = double(fa.size()) - 0.5, .format = "%.0f"});
      plot::plot_value_heatmap("A − B", {.values = diff, .rows = int(fa.size()), .columns = columns, .x0 = 0, .x1 = double(length),
                                         .y0 = -0.5, .y1 = double(fa.size()) - 0.5, .colormap = plot::Colormap::RdBu, .vmin = -2.0,
                                         .vmax = 2.0, .version = version});
      if (plot::is_plot_hovered()) {
        const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, fa.size() - 1);
        const double p = std::max(0.0, std::round(plot::mouse_x()));
        plot::hover_text("pair %lld, p = %.0f: cos A = %.6f, cos B = %.6f, A − B = %.6f", i, p, std::cos(p * fa[i]), std::cos(p * fb[i]),
                         std::cos(p * fa[i]) - std::cos(p * fb[i]));
      }
      plot::end_plot();
    }
  } else {
    ImGui::BeginChild("##diff-note", {half_w, bottom_h}, true);
    text_wrapped("A has %lld rotating pairs, B has %lld: the table difference needs equal dimensions. The curves on the right "
                       "compare them anyway.", (long long)fa.size(), (long long)fb.size());
    ImGui::EndChild();
  }
  layout.next();
  static std::vector<double> xs, yd;
  static SideCurve curve_a, curve_b;
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(512, 0.0, double(std::max<long long>(length - 1, 1)));
  const bool a_changed = update_side_curve(curve_a, fa, ctx.derived.version, deltas, a.seed);
  const bool b_changed = update_side_curve(curve_b, fb, derived_b.version, deltas, a.seed);
  const std::vector<double>& ya = curve_a.y;
  const std::vector<double>& yb = curve_b.y;
  if (a_changed || b_changed || xs.size() != ya.size()) {
    xs.assign(deltas.data(), deltas.data() + deltas.size());
    yd.resize(ya.size());
    for (std::size_t k2 = 0; k2 < ya.size(); ++k2) yd[k2] = ya[k2] - yb[k2];
  }
  if (plot::begin_plot("##diff-curves", {half_w, bottom_h}, {.title = "Relative score s(Δ)/d: A, B and A − B"})) {
    plot::setup_axes({.label = "relative distance Δ", .min = 0, .max = double(std::max<long long>(length - 1, 1))}, {.label = "score / d"});
    plot::plot_line("A", xs, ya);
    plot::plot_line("B", xs, yb);
    plot::plot_line("A − B", xs, yd, {.thickness = 1.5f, .dashed = true});
    plot::end_plot();
  }
}

namespace {

std::string compare_csv(const AppState& s, const Derived& d) {
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  const pe::ScaledFrequencies b = pe::scaled_frequencies(s.compare_b, s.length);
  out << "# A: " << config_label(s.rope, s.preset) << " (theta = " << csv_number(s.rope.theta) << ", d = " << s.rope.head_dim
      << "); B: " << config_label(s.compare_b, s.compare_b_preset) << " (theta = " << csv_number(s.compare_b.theta)
      << ", d = " << s.compare_b.head_dim << ")\n";
  out << "pair,inv_freq_a,inv_freq_b,wavelength_a,wavelength_b\n";
  for (Eigen::Index i = 0; i < std::max(inv.size(), b.inv_freq.size()); ++i) {
    out << i << ',';
    if (i < inv.size()) out << csv_number(inv[i]);
    out << ',';
    if (i < b.inv_freq.size()) out << csv_number(b.inv_freq[i]);
    out << ',';
    if (i < inv.size()) out << csv_number(2 * std::numbers::pi / inv[i]);
    out << ',';
    if (i < b.inv_freq.size()) out << csv_number(2 * std::numbers::pi / b.inv_freq[i]);
    out << "\n";
  }
  return out.str();
}

constexpr const char* kAnimatable[] = {"theta", "dim", "length", "factor"};

}  // namespace

const ViewInfo& compare_view() {
  static const ViewInfo info{
      .name = "compare",
      .title = "Compare A/B",
      .summary = "Any view for two configurations side by side, and their difference",
      .group = "Long context",
      .draw = draw_compare_view,
      .csv = compare_csv,
      .formula = scaling_formula,
      .animatable = kAnimatable,
      .hosts_views = true,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
