// RoFormer's relative property (Su et al. 2021): with RoPE the score <R(m)q, R(m+Δ)k>
// depends only on Δ and decays on average. Curves are evaluated in closed form at one
// sample per pixel, cached until the inputs, the visible range or the width change.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/analysis/teaching_numbers.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/view_csv.hpp"

namespace app {
namespace {

struct CurveCache {
  unsigned long long version = ~0ULL;
  double x0 = 0, x1 = 0;
  int samples = 0;
  bool log = false;
  std::uint64_t seed = 0;
  long long n = 0;
  std::vector<double> xs, identical, random_pair, mean_pairs, mean_identical, bound, own_vector;
  std::vector<double> vector;  // the clock-hands vector the own_vector curve was computed for
  pe::PairConvention convention = pe::PairConvention::Interleaved;
};


// The frequencies with every pair turning, when some turn at 0 (the p-RoPE control, or the
// "proportional" rope type): empty otherwise.
Eigen::ArrayXd all_pairs_turning(const AppState& s, const Derived& d) {
  if (!(d.rope.inv_freq == 0.0).any()) return {};
  if (s.p_rope < 1.0 && !(d.inv_freq_before_p_rope == 0.0).any()) return d.inv_freq_before_p_rope;
  return d.rope.original_inv_freq;
}

}  // namespace

void draw_relative_score_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  const auto& inv_freq = ctx.derived.rope.inv_freq;
  const double d = double(2 * inv_freq.size());

  if (ctx.show_widgets()) {
    int axis = s.delta_axis == "linear" ? 1 : s.delta_axis == "log" ? 2 : 0;
    ImGui::SetNextItemWidth(fitted_width(ctx, 200.0f * plot::pixel_scale(), "auto (log above L = 8192)"));
    if (ImGui::Combo("Δ axis", &axis, "auto (log above L = 8192)\0linear\0log\0"))
      s.delta_axis = axis == 1 ? "linear" : axis == 2 ? "log" : "auto";
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("delta_axis: a log Δ axis shows the decay over decades of distance; over 10⁵ positions a linear\n"
                        "axis shows mostly the noise of the fast pairs.");
    auto labelled = [](float w, const char* label) { return w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x; };
    same_line_if_fits(labelled(140.0f * plot::pixel_scale(), "samples"));
    ImGui::SetNextItemWidth(140.0f * plot::pixel_scale());
    int samples = int(s.samples);
    if (ImGui::SliderInt("samples", &samples, 1, 1024, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      s.samples = samples;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("samples: how many seeded random vector pairs the mean curves average over.");
    same_line_if_fits(labelled(140.0f * plot::pixel_scale(), "anchor m"));
    ImGui::SetNextItemWidth(140.0f * plot::pixel_scale());
    long long anchor_max = std::max<long long>(s.length - 1, 0), zero = 0;
    ImGui::SliderScalar("anchor m", ImGuiDataType_S64, &s.anchor, &zero, &anchor_max, "%lld", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("anchor: the query position m. The dots are computed by rotating q to m and k to m+Δ directly;\n"
                        "they stay on the curve for every m — the score depends only on Δ.");
    same_line_if_fits(labelled(160.0f * plot::pixel_scale(), "p-RoPE: pairs kept"));
    p_rope_slider(s, 160.0f);
    same_line_if_fits(labelled(ImGui::GetFrameHeight(), "mirrored rotation"));
    ImGui::Checkbox("mirrored rotation", &s.mirrored_rotation);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("mirrored_rotation: code that computes y1 = x1·cos + x2·sin (a transposed rotation matrix, seen in\n"
                        "tutorials) rotates by −pθ. For a pair q ≠ k its score is s(−Δ): the curve mirrors. Still relative —\n"
                        "a convention, not a bug.");
  }

  static CurveCache cache;
  const bool log_axis = delta_axis_is_log(s);
  const char* const note = "Every curve is the closed form Σ_i a_i·cos(Δθ_i) + b_i·sin(Δθ_i); the dots are direct rotations at anchor m — move m and "
                "they stay put. The mean over random identical vectors is Σ_i 2·cos(Δθ_i)/d: it decays, but never to zero for all Δ.";
  const long long dropped = (inv_freq == 0.0).count();
  const std::string p_note =
      dropped == 0 ? std::string()
                   : formatted("p-RoPE: %lld of %lld pairs turn at frequency 0 and add a constant 2·%lld/d = %.3g to every mean "
                               "curve: they carry no position (Barbero et al.'s \"semantic\" channels); only the kept fast pairs "
                               "decay. The dashed grey curve is the same model with every pair turning.",
                               dropped, static_cast<long long>(inv_freq.size()), dropped, 2.0 * double(dropped) / d);
  const float note_h = teaching_note_height(note) + (p_note.empty() ? 0.0f : teaching_note_height(p_note.c_str()));
  const double max_delta = double(std::max<long long>(s.length - 1, 1));
  if (plot::begin_plot("##relative-score", {ctx.size.x, ImGui::GetContentRegionAvail().y - note_h},
                       {.title = "Relative score s(Δ) = ⟨R(m)q, R(m+Δ)k⟩ / d"})) {
    plot::setup_axes({.label = "relative distance Δ", .scale = log_axis ? plot::Scale::Log : plot::Scale::Linear,
                      .min = log_axis ? 1.0 : 0.0, .max = max_delta},
                     {.label = "score / d"});
    const double x0 = std::max(plot::visible_x_min(), log_axis ? 1.0 : -1e300);
    const double x1 = plot::visible_x_max();
    // One sample per two pixels: the curves stay smooth where they are smooth, and noisy
    // stretches cost llvmpipe half the triangles.
    const int n = std::clamp(int(plot::to_pixels(x1, 0).x - plot::to_pixels(x0, 0).x) / 2, 16, 4096);
    const std::vector<double> v = effective_vector(s);
    if (cache.version != ctx.derived.version || cache.x0 != x0 || cache.x1 != x1 || cache.samples != n ||
        cache.log != log_axis || cache.seed != s.seed || cache.n != s.samples || cache.vector != v ||
        cache.convention != s.rope.convention) {
      cache = {ctx.derived.version, x0, x1, n, log_axis, s.seed, s.samples};
      cache.vector = v;
      cache.convention = s.rope.convention;
      Eigen::ArrayXd deltas(n);
      for (int k = 0; k < n; ++k) {
        const double t = double(k) / double(n - 1);
        deltas[k] = log_axis ? x0 * std::pow(x1 / x0, t) : x0 + (x1 - x0) * t;
      }
      cache.xs = as_vector(deltas);
      // All curves share one cos/sin evaluation per (Δ, pair). Normalised by d so curves of
      // different dimensions are comparable (identical: s(0)/d ≈ 1).
      const Eigen::VectorXd u = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size())).head(Eigen::Index(d));
      const long long pairs = inv_freq.size();
      // The vectors do not depend on θ: while θ is dragged only the cos/sin are recomputed.
      static std::vector<pe::RelativeScoreCoefficients> sets;
      static std::string sets_key;
      std::string key = std::to_string(pairs) + "|" + std::to_string(s.seed) + "|" + std::to_string(s.samples) + "|" +
                        pe::to_string(s.rope.convention);
      for (double x : v) key += "|" + std::to_string(x);
      if (key != sets_key) {
        sets_key = key;
        sets = {pe::choice_coefficients(pe::VectorChoice::Identical, pairs, s.seed),
                pe::choice_coefficients(pe::VectorChoice::RandomPair, pairs, s.seed),
                pe::choice_coefficients(pe::VectorChoice::MeanOfRandomPairs, pairs, s.seed, s.samples),
                pe::choice_coefficients(pe::VectorChoice::MeanOfIdentical, pairs, s.seed, s.samples),
                pe::relative_score_coefficients(u, u, pairs, s.rope.convention)};
      }
      const Eigen::ArrayXXd curves = pe::relative_score_curves(sets, inv_freq, deltas, /*decay_bound=*/true);
      auto column = [&](int c, double scale) { return as_vector(curves.col(c) / scale); };
      cache.identical = column(0, d);
      cache.random_pair = column(1, d);
      cache.mean_pairs = column(2, d);
      cache.mean_identical = column(3, d);
      cache.own_vector = column(4, d);
      // The bound is relative (RoFormer §3.4.3): scale it to 1 at Δ = 0 to overlay it.
      const double at_zero = pe::long_term_decay_bound(inv_freq, Eigen::ArrayXd::Zero(1))[0];
      cache.bound = column(5, std::max(at_zero, 1e-300));
    }
    plot::plot_line("identical q = k", cache.xs, cache.identical, {.thickness = 1.5f});
    plot::plot_line("one random pair q, k", cache.xs, cache.random_pair, {.thickness = 1.0f});
    plot::plot_line("mean of identical pairs", cache.xs, cache.mean_identical, {.thickness = 2.0f});
    plot::plot_line("mean of random pairs", cache.xs, cache.mean_pairs, {.thickness = 1.0f});
    plot::plot_line("RoFormer decay bound (1 at Δ = 0)", cache.xs, cache.bound, {.thickness = 1.0f, .dashed = true});
    if (const Eigen::ArrayXd all = all_pairs_turning(s, ctx.derived); all.size() > 0) {
      const Eigen::ArrayXd xs = Eigen::Map<const Eigen::ArrayXd>(cache.xs.data(), Eigen::Index(cache.xs.size()));
      plot::plot_line("expected, every pair turning (no p-RoPE)", cache.xs, as_vector(pe::mean_identical_score(all, xs)),
                      {.color = IM_COL32(150, 150, 150, 255), .thickness = 1.5f, .dashed = true});
    }

    // Direct check at a few Δ: rotate the identical vector to m and m+Δ and take the dot product.
    std::vector<double> px, py;
    const Eigen::VectorXd u = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size())).head(Eigen::Index(d));
    const Eigen::VectorXd a = pe::apply_rope(u, double(s.anchor), inv_freq, s.rope.convention);  // q at m
    for (int k = 1; k <= 12; ++k) {
      const double delta = log_axis ? std::pow(max_delta, double(k) / 12.0) : std::round(max_delta * k / 12.0);
      const Eigen::VectorXd b = pe::apply_rope(u, double(s.anchor) + delta, inv_freq, s.rope.convention);
      px.push_back(delta);
      py.push_back(a.dot(b) / d);
    }
    plot::plot_line("clock-hands vector, closed form", cache.xs, cache.own_vector, {.thickness = 1.0f});
    plot::plot_points("direct ⟨R(m)q, R(m+Δ)q⟩ at anchor m", px, py, {.color = IM_COL32(240, 110, 40, 255)});
    if (s.mirrored_rotation) {
      // q = the clock-hands vector, k = the same entries reversed (q ≠ k, so the sign shows).
      const Eigen::VectorXd k = u.reverse();
      const auto pair_coeffs = pe::relative_score_coefficients(u, k, inv_freq.size(), s.rope.convention);
      const Eigen::ArrayXd xs = Eigen::Map<const Eigen::ArrayXd>(cache.xs.data(), Eigen::Index(cache.xs.size()));
      const std::vector<double> plus = as_vector(pe::relative_score_curve(pair_coeffs, inv_freq, xs) / d);
      std::vector<double> mx, my;
      plot::plot_line("q ≠ k, standard rotation (+pθ)", cache.xs, plus, {.color = IM_COL32(190, 120, 230, 255), .thickness = 1.5f});
      const Eigen::VectorXd q_m = pe::apply_rope(u, double(s.anchor), inv_freq, s.rope.convention, pe::RotationSign::Negative);
      for (std::size_t j = 0; j < cache.xs.size(); j += std::max<std::size_t>(cache.xs.size() / 16, 1)) {
        const double delta = cache.xs[j];
        const Eigen::VectorXd b = pe::apply_rope(k, double(s.anchor) + delta, inv_freq, s.rope.convention, pe::RotationSign::Negative);
        mx.push_back(delta);
        my.push_back(q_m.dot(b) / d);
      }
      // s(−Δ) = Σ a_i cos(Δθ_i) − b_i sin(Δθ_i): the same curve with b negated.
      pe::RelativeScoreCoefficients mirrored = pair_coeffs;
      mirrored.b = -mirrored.b;
      const std::vector<double> minus = as_vector(pe::relative_score_curve(mirrored, inv_freq, xs) / d);
      plot::plot_line("same pair, mirrored rotation −pθ = s(−Δ)", cache.xs, minus,
                      {.color = IM_COL32(190, 120, 230, 255), .thickness = 1.5f, .dashed = true});
      plot::plot_points("direct rotations by −pθ", mx, my, {.color = IM_COL32(230, 80, 200, 255)});
    }
    if (plot::is_plot_hovered()) {
      const double delta = plot::mouse_x();
      const auto coeffs = pe::relative_score_coefficients(u, u, inv_freq.size(), s.rope.convention);
      plot::hover_text("Δ = %.6g: clock-hands vector s/d = %.6f", delta, pe::relative_score(coeffs, inv_freq, delta) / d);
    }
    plot::end_plot();
  }
  if (!p_note.empty()) teaching_note(p_note.c_str());
  teaching_note(note);
}

namespace {

std::string relative_score_csv(const AppState& s, const Derived& d) {
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  std::ostringstream note;
  const auto ps = sampled_positions(s.length, note);
  Eigen::ArrayXd deltas(Eigen::Index(ps.size()));
  for (std::size_t k = 0; k < ps.size(); ++k) deltas[Eigen::Index(k)] = double(ps[k]);
  // The view's curves (scores / d) and the unnormalised bound, in one cos/sin pass.
  const long long pairs = inv.size();
  const Eigen::ArrayXXd curves = pe::relative_score_curves(
      {pe::choice_coefficients(pe::VectorChoice::Identical, pairs, s.seed),
       pe::choice_coefficients(pe::VectorChoice::RandomPair, pairs, s.seed),
       pe::choice_coefficients(pe::VectorChoice::MeanOfIdentical, pairs, s.seed, s.samples),
       pe::choice_coefficients(pe::VectorChoice::MeanOfRandomPairs, pairs, s.seed, s.samples)},
      inv, deltas, /*decay_bound=*/true);
  const double dim = double(2 * pairs);
  // With pairs dropped (p-RoPE), the expected identical-vector score with every pair turning.
  const Eigen::ArrayXd all = all_pairs_turning(s, d);
  const Eigen::ArrayXd every = all.size() > 0 ? pe::mean_identical_score(all, deltas) : Eigen::ArrayXd();
  out << note.str() << "delta,identical,random_pair,mean_identical,mean_random_pairs,decay_bound"
      << (all.size() > 0 ? ",expected_every_pair_turning" : "") << "\n";
  for (Eigen::Index k = 0; k < deltas.size(); ++k) {
    out << csv_number(deltas[k]);
    for (int c = 0; c < 4; ++c) out << ',' << csv_number(curves(k, c) / dim);
    out << ',' << csv_number(curves(k, 4));
    if (all.size() > 0) out << ',' << csv_number(every[k]);
    out << "\n";
  }
  return out.str();
}

std::vector<std::string> relative_score_formula(const AppState& s, const Derived& d) {
  std::vector<std::string> lines = {
      "s(Δ) = ⟨R(m)q, R(m+Δ)k⟩ = qᵀ R(Δ) k = Σ_i Re[q̃_i conj(k̃_i) e^(−iΔθ_i)]  — m cancels",
      formatted("m = %lld, %lld pairs, θ = %g;  decay bound: |s| ≤ (max|q̃k̃|) Σ_j |Σ_{i<j} e^(iΔθ_i)|", s.anchor,
                s.rope.head_dim / 2, s.rope.theta)};
  if (const long long dropped = (d.rope.inv_freq == 0.0).count(); dropped > 0)
    lines.push_back(formatted("p-RoPE: θ_i = 0 for the %lld slowest pairs → E[s(Δ)]/d = (2/d)·(%lld + Σ_kept cos(Δθ_i))",
                              dropped, dropped));
  return lines;
}

constexpr const char* kAnimatable[] = {"theta", "dim", "length", "anchor", "samples", "seed", "p_rope"};

}  // namespace

const ViewInfo& relative_score_view() {
  static const ViewInfo info{
      .name = "relative-score",
      .title = "Relative score",
      .summary = "s(Δ) = ⟨R(m)q, R(m+Δ)k⟩: depends only on Δ, decays; long-term-decay bound",
      .group = "Relative",
      .draw = draw_relative_score_view,
      .csv = relative_score_csv,
      .formula = relative_score_formula,
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
