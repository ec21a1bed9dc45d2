// SEED-ERRATA 3: seed 004's "RoPE" mixes the half-split cache with interleaved pairing.
// Side by side with the real rotation: the norm is no longer kept, and the score of the
// same two vectors depends on where they sit, not only on their distance.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pe/rope.hpp"
#include "views/view.hpp"

namespace app {

void draw_common_mistake_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  const AppState& s = ctx.state;
  const auto& inv_freq = ctx.derived.rope.inv_freq;
  const long long dim = s.rope.head_dim;
  if (2 * inv_freq.size() != dim) {
    teaching_note("Seed 004's code rotates every dimension; with partial rotary (this configuration rotates only some) "
                  "there is no like-for-like comparison. Choose a fully rotary preset.");
    return;
  }
  const std::vector<double> v = effective_vector(s);
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
  const double norm = std::max(x.norm(), 1e-300);
  const long long span = std::clamp<long long>(s.length, 2, 512);  // positions shown: the effect is visible early

  // Cached on the inputs (frequencies, span, vector): the curves need a few thousand rotations.
  static unsigned long long cached_version = 0;
  static long long cached_span = -1;
  static std::vector<double> cached_vector;
  static std::vector<double> ps, ok_norm, bad_norm, deltas;
  static std::vector<std::vector<double>> ok_score, bad_score;
  static std::vector<long long> anchors;
  if (cached_version != ctx.derived.version || cached_span != span || cached_vector != v) {
    cached_version = ctx.derived.version;
    cached_span = span;
    cached_vector = v;
    ps.clear(), ok_norm.clear(), bad_norm.clear(), deltas.clear();
    for (long long p = 0; p < span; ++p) {
      ps.push_back(double(p));
      ok_norm.push_back(pe::apply_rope(x, double(p), inv_freq, pe::PairConvention::Interleaved).norm() / norm);
      bad_norm.push_back(pe::apply_seed004_mixed_tables(x, double(p), inv_freq).norm() / norm);
    }
    anchors = {0, span / 3, 2 * span / 3};
    ok_score.assign(anchors.size(), {});
    bad_score.assign(anchors.size(), {});
    const long long max_delta = std::max<long long>(span / 3, 1);
    for (long long dlt = 0; dlt <= max_delta; ++dlt) deltas.push_back(double(dlt));
    for (std::size_t a = 0; a < anchors.size(); ++a) {
      const double m = double(anchors[a]);
      const Eigen::VectorXd q_ok = pe::apply_rope(x, m, inv_freq, pe::PairConvention::Interleaved);
      const Eigen::VectorXd q_bad = pe::apply_seed004_mixed_tables(x, m, inv_freq);
      for (double dlt : deltas) {
        ok_score[a].push_back(q_ok.dot(pe::apply_rope(x, m + dlt, inv_freq, pe::PairConvention::Interleaved)) / double(dim));
        bad_score[a].push_back(q_bad.dot(pe::apply_seed004_mixed_tables(x, m + dlt, inv_freq)) / double(dim));
      }
    }
  }

  const char* const note = "Seed 004 builds its cache as cat(freqs, freqs) (half-split layout) but pairs dims (2i, 2i+1) and reads "
                "cos[..., ::2] with sin[..., 1::2]: pair i gets cos of θ_{2i mod d/2} and sin of θ_{2i+1 mod d/2}. That matrix is "
                "not a rotation (determinant cos(α − β)), frequencies repeat, and position leaks into the score. Use one layout "
                "consistently: interleaved pairs with repeat_interleave'd tables, or half-split pairs with rotate_half.";

  const float note_h = teaching_note_height(note);
  const ImVec2 top = split_height({ctx.size.x, ImGui::GetContentRegionAvail().y - note_h}, 0.42f);
  if (plot::begin_plot("##mistake-norm", top, {.title = "‖y(p)‖ / ‖x‖: a rotation keeps the length"})) {
    plot::setup_axes({.label = "position p", .min = 0, .max = double(span - 1)}, {.label = "norm ratio"});
    plot::plot_line("RoPE (rotation)", ps, ok_norm, {.color = IM_COL32(70, 140, 230, 255), .thickness = 2.5f});
    plot::plot_line("seed 004's mixed tables", ps, bad_norm, {.color = IM_COL32(230, 80, 60, 255)});
    plot::end_plot();
  }
  const float half_w = (ctx.size.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  const float bottom_h = ImGui::GetContentRegionAvail().y - note_h;
  const ImU32 shades[] = {IM_COL32(70, 140, 230, 255), IM_COL32(120, 200, 120, 255), IM_COL32(240, 190, 60, 255)};
  for (int side = 0; side < 2; ++side) {
    if (side) ImGui::SameLine();
    const auto& scores = side == 0 ? ok_score : bad_score;
    if (plot::begin_plot(side == 0 ? "##mistake-ok" : "##mistake-bad", {half_w, bottom_h},
                         {.title = side == 0 ? "RoPE: ⟨q(m), k(m+Δ)⟩/d for three anchors m — one curve"
                                             : "Seed 004: the anchors disagree — not relative"})) {
      plot::setup_axes({.label = "relative distance Δ"}, {.label = "score / d"});
      for (std::size_t a = 0; a < anchors.size() && a < scores.size(); ++a) {
        const std::string label = "m = " + std::to_string(anchors[a]);
        plot::plot_line(label.c_str(), deltas, scores[a], {.color = shades[a], .thickness = a == 0 ? 3.5f : 1.8f, .dashed = a == 2});
      }
      plot::end_plot();
    }
  }
  teaching_note(note);
}

}  // namespace app
