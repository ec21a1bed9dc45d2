// xPos (Sun et al. 2022; microsoft/torchscale XPOS): RoPE whose pair i is also scaled by
// ζ_i^(m/scale_base) on the query at m and ζ_i^(−n/scale_base) on the key at n, so the score
// carries ζ_i^((m − n)/scale_base) and decays with distance, fastest for the fast pairs.
// Shows ζ per pair, the decay per pair, and RoPE's relative score with and without it.
// Numbers from core (pe/relative/xpos.hpp, pe/analysis).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/relative/xpos.hpp"
#include "views/async_value.hpp"
#include "views/relative_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

constexpr double kXposTheta = 10000.0;  // torchscale rotates with 10000^(−2i/d), interleaved pairs

// The expected score of q = k with i.i.d. N(0, 1) entries: a_i = 2 (‖pair‖² has mean 2), b_i = 0.
pe::RelativeScoreCoefficients identical_expectation(long long pairs) {
  return {Eigen::ArrayXd::Constant(pairs, 2.0), Eigen::ArrayXd::Zero(pairs), 0.0};
}

struct Curves {
  std::vector<double> deltas, with_decay, without_decay, mean_decay, decay_first, decay_pair, decay_last;
  long long pair = 0;
  std::string error;
};

std::shared_ptr<const Curves> compute_curves(long long dim, double scale_base, double x0, double x1, int samples, long long pair) {
  auto c = std::make_shared<Curves>();
  c->pair = pair;
  try {
    const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(samples, x0, x1);
    const long long pairs = dim / 2;
    const pe::RelativeScoreCoefficients coef = identical_expectation(pairs);
    const double norm = double(dim);  // s(0) = Σ 2 = d: curves start at 1
    c->deltas = as_vector(deltas);
    c->with_decay = as_vector(pe::xpos_relative_score_curve(coef, dim, deltas, scale_base) / norm);
    // analysis counts Δ as key − query: the same Δ is −Δ there.
    c->without_decay = as_vector(pe::relative_score_curve(coef, pe::inverse_frequencies(dim, kXposTheta), -deltas) / norm);
    c->mean_decay = as_vector(pe::xpos_mean_decay(dim, deltas, scale_base));
    const pe::TableD decay = pe::xpos_decay(dim, deltas, scale_base);
    auto column = [&](long long i) {
      std::vector<double> v(std::size_t(decay.rows()));
      for (Eigen::Index r = 0; r < decay.rows(); ++r) v[std::size_t(r)] = decay(r, i);
      return v;
    };
    c->decay_first = column(0);
    c->decay_pair = column(pair);
    c->decay_last = column(pairs - 1);
  } catch (const std::exception& e) {
    c->error = e.what();
  }
  return c;
}

const Curves& curves_for(const ViewContext& ctx, double x0, double x1, int samples) {
  const AppState& s = ctx.state;
  static std::map<const Derived*, AsyncValue<std::string, std::shared_ptr<const Curves>>> slots;
  const long long dim = s.rope.head_dim, pair = std::clamp<long long>(s.pair, 0, dim / 2 - 1);
  const std::string key = std::to_string(dim) + "|" + pe::format_double(s.scale_base) + "|" + pe::format_double(x0) + "|" +
                          pe::format_double(x1) + "|" + std::to_string(samples) + "|" + std::to_string(pair);
  // samples × d/2 powers and cosines: a worker past d = 512 while a slider moves.
  const bool wait = ctx.exporting || dim <= 512;
  return *slot_for(slots, &ctx.derived).get(key, wait, [=, sb = s.scale_base](const std::string&) {
    return compute_curves(dim, sb, x0, x1, samples, pair);
  });
}

void draw_zeta(const AppState& s, ImVec2 size) {
  const long long dim = s.rope.head_dim, pairs = dim / 2;
  static Eigen::ArrayXd zeta;
  static long long zeta_dim = 0;
  if (zeta_dim != dim) {
    zeta = pe::xpos_zeta(dim);
    zeta_dim = dim;
  }
  const long long pair = std::clamp<long long>(s.pair, 0, pairs - 1);
  if (plot::begin_plot("##xpos-zeta", size, {.title = "ζ_i = (2i + 0.4d) / (1.4d) per pair", .legend = false})) {
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(pairs) - 0.5}, {.label = "ζ_i", .min = 0.0, .max = 1.0});
    const std::vector<double> xs = index_axis(pairs), ys = as_vector(zeta);
    plot::plot_line("ζ", xs, ys, {.thickness = 2.0f, .markers = pairs <= 64});
    plot::plot_points("selected pair", std::span<const double>(&xs[std::size_t(pair)], 1), std::span<const double>(&ys[std::size_t(pair)], 1),
                      {.color = plot::series_color(1)});
    if (plot::is_plot_hovered()) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, pairs - 1);
      plot::hover_text("pair %lld: ζ = %.9g; over Δ = scale_base (%g) the score shrinks to ζ = %.4g", i, zeta[i], s.scale_base, zeta[i]);
    }
    plot::end_plot();
  }
}

void draw_decay(const AppState& s, const Curves& c, double reach, ImVec2 size) {
  if (plot::begin_plot("##xpos-decay", size, {.title = "Decay ζ_i^(Δ/scale_base) of the score"})) {
    plot::setup_axes({.label = "distance Δ = query − key", .min = 0.0, .max = reach}, {.label = "factor", .min = 0.0, .max = 1.05});
    plot::plot_line("pair 0 (fastest)", c.deltas, c.decay_first, {.thickness = 1.5f});
    plot::plot_line(formatted("pair %lld (selected)", c.pair).c_str(), c.deltas, c.decay_pair, {.thickness = 1.5f, .dashed = true});
    plot::plot_line("last pair (slowest)", c.deltas, c.decay_last, {.thickness = 1.5f});
    plot::plot_line("mean over pairs", c.deltas, c.mean_decay, {.thickness = 2.5f});
    plot::plot_vline("##scale_base", s.scale_base, {.color = kTrainingColor, .thickness = 1.5f, .dashed = true, .in_legend = false});
    if (plot::is_plot_hovered() && !c.deltas.empty()) {
      const double x = plot::mouse_x();
      const auto k = std::size_t(std::clamp<long long>(std::llround((x - c.deltas.front()) / std::max(1e-300, c.deltas.back() - c.deltas.front()) *
                                                                     double(c.deltas.size() - 1)), 0, (long long)c.deltas.size() - 1));
      plot::hover_text("Δ = %.6g: pair 0 %.6g, pair %lld %.6g, last %.6g, mean %.6g", c.deltas[k], c.decay_first[k], c.pair, c.decay_pair[k],
                       c.decay_last[k], c.mean_decay[k]);
      plot::hover_text("green line: Δ = scale_base = %g", s.scale_base);
    }
    plot::end_plot();
  }
}

void draw_scores(const Curves& c, double reach, ImVec2 size) {
  if (plot::begin_plot("##xpos-score", size, {.title = "Relative score of q = k (expected), ÷ d: RoPE with and without xPos's decay"})) {
    plot::setup_axes({.label = "distance Δ = query − key", .min = 0.0, .max = reach}, {.label = "score / d"});
    plot::plot_line("RoPE (no decay)", c.deltas, c.without_decay, {.thickness = 1.5f});
    plot::plot_line("xPos (RoPE × ζ^(Δ/scale_base))", c.deltas, c.with_decay, {.thickness = 2.5f});
    plot::plot_line("mean decay factor over pairs", c.deltas, c.mean_decay, {.thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered() && !c.deltas.empty()) {
      const double x = plot::mouse_x();
      const auto k = std::size_t(std::clamp<long long>(std::llround((x - c.deltas.front()) / std::max(1e-300, c.deltas.back() - c.deltas.front()) *
                                                                     double(c.deltas.size() - 1)), 0, (long long)c.deltas.size() - 1));
      plot::hover_text("Δ = %.6g: RoPE %.6g, xPos %.6g (ratio %.4g)", c.deltas[k], c.without_decay[k], c.with_decay[k],
                       c.without_decay[k] != 0 ? c.with_decay[k] / c.without_decay[k] : 0.0);
    }
    plot::end_plot();
  }
}

}  // namespace

void draw_xpos_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  if (show_relative_error(s)) return;
  const char* const note =
      "xPos multiplies RoPE's pair i by ζ_i^(Δ/scale_base): nothing changes at Δ = 0, and the fast pairs — the ones whose "
      "oscillation is noise at long range — fade first. Rotation with θ = 10000 as torchscale; q = k with N(0, 1) entries, in expectation.";
  const float note_h = teaching_note_height(note);
  constexpr float kWeights[] = {0.45f, 0.55f};
  constexpr bool kTitled[] = {true, true};
  const std::vector<float> h = stacked_plot_heights(ImGui::GetContentRegionAvail().y - note_h, kWeights, kTitled);
  const PlotColumns columns = plot_columns(ctx, 0.35f);  // stacked on a phone
  const float left_w = columns.left_w, right_w = columns.right_w;
  const double reach = double(std::max<long long>(s.length - 1, 1));
  // One sample per two pixels of the plot's width: smooth where the curves are smooth.
  const int samples = std::clamp(int(ctx.size.x / 2.0f), 64, 1024);
  const Curves& c = curves_for(ctx, 0.0, reach, samples);
  if (!c.error.empty()) {
    ImGui::TextColored({1, 0.45f, 0.4f, 1}, "%s", c.error.c_str());
    return;
  }
  draw_zeta(s, {left_w, h[0]});
  columns.next();
  draw_decay(s, c, reach, {right_w, h[0]});
  draw_scores(c, reach, {ctx.size.x, h[1]});
  teaching_note(note);
}

namespace {

std::string xpos_csv(const AppState& s, const Derived&) {
  if (const std::string e = relative_error(s); !e.empty()) throw std::runtime_error(e);
  const long long dim = s.rope.head_dim, pairs = dim / 2, pair = std::clamp<long long>(s.pair, 0, pairs - 1);
  std::ostringstream out;
  const std::vector<long long> positions = sampled_positions(s.length, out);
  Eigen::ArrayXd deltas(Eigen::Index(positions.size()));
  for (std::size_t k = 0; k < positions.size(); ++k) deltas[Eigen::Index(k)] = double(positions[k]);
  const pe::RelativeScoreCoefficients coef = identical_expectation(pairs);
  const Eigen::ArrayXd with = pe::xpos_relative_score_curve(coef, dim, deltas, s.scale_base);
  const Eigen::ArrayXd without = pe::relative_score_curve(coef, pe::inverse_frequencies(dim, kXposTheta), -deltas);
  const Eigen::ArrayXd mean = pe::xpos_mean_decay(dim, deltas, s.scale_base);
  const pe::TableD decay = pe::xpos_decay(dim, deltas, s.scale_base);
  out << "# d " << dim << ", scale_base " << pe::format_double(s.scale_base) << ", zeta of pair " << pair << " = "
      << csv_number(pe::xpos_zeta(dim)[pair], 17) << "; scores: q = k with N(0, 1) entries, expected (a_i = 2), not divided by d\n";
  out << "delta,decay_pair_" << pair << ",mean_decay,score_xpos,score_rope\n";
  for (Eigen::Index r = 0; r < deltas.size(); ++r)
    out << positions[std::size_t(r)] << ',' << csv_number(decay(r, pair)) << ',' << csv_number(mean[r]) << ',' << csv_number(with[r]) << ','
        << csv_number(without[r]) << "\n";
  return out.str();
}

std::vector<std::string> xpos_formula(const AppState& s, const Derived&) {
  const std::string general =
      "ζ_i = (2i + 0.4d)/(1.4d);  q_m → R(m)q_m·ζ^(m/scale_base), k_n → R(n)k_n·ζ^(−n/scale_base)  ⇒  score_i(Δ) · ζ_i^(Δ/scale_base), "
      "Δ = m − n";
  if (const std::string e = relative_error(s); !e.empty()) return {general, e};
  const long long dim = s.rope.head_dim, pair = std::clamp<long long>(s.pair, 0, dim / 2 - 1);
  const double zeta = pe::xpos_zeta(dim)[pair];
  const double delta = double(std::max<long long>(s.position, 1));
  const pe::TableD kept = pe::xpos_decay(dim, Eigen::ArrayXd::Constant(1, delta), s.scale_base);
  return {general, formatted("d = %lld, scale_base = %g:  ζ_%lld = %.6g;  at Δ = %g the pair keeps ζ^(Δ/%g) = %.6g of its score", dim,
                             s.scale_base, pair, zeta, delta, s.scale_base, kept(0, pair))};
}

constexpr const char* kAnimatable[] = {"scale_base", "length", "dim", "pair", "position"};
constexpr const char* kPanel[] = {"scale_base"};

}  // namespace

const ViewInfo& xpos_view() {
  static const ViewInfo info{
      .name = "xpos",
      .title = "xPos",
      .summary = "xPos: ζ per pair and RoPE's relative score with and without its decay ζ^(Δ/scale_base)",
      .group = "Long context",
      .draw = draw_xpos_view,
      .csv = xpos_csv,
      .formula = xpos_formula,
      .animatable = kAnimatable,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
