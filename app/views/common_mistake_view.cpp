// Two convention-mixing RoPE bugs common in tutorial notebooks: a half-split cache
// (cat(freqs, freqs), as transformers builds it for rotate_half) read with interleaved pairs
// (as RoFormer and Meta's LLaMA reference pair dims), and its mirror image, an interleaved
// cache (repeat_interleave) with a half-split rotate_half. Either, chosen by `mistake`, side by side with the real rotation: the norm is no longer
// kept, and the score of the same two vectors depends on where they sit, not only on
// their distance.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/base/parallel.hpp"
#include "pe/encodings/angle_table.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/analysis/interleaved_cache_mix.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

// One convention mix and the rotation it should have been (the fix that keeps the code's
// pairing: the half-split cache mix pairs interleaved, the interleaved cache mix's rotate_half
// pairs half-split).
struct ConventionMix {
  const char* label;        // legend
  pe::PairConvention fixed;  // the real rotation it is compared with
  Eigen::VectorXd (*apply)(const Eigen::Ref<const Eigen::VectorXd>&, double, const Eigen::ArrayXd&);
  void (*apply_with_angles)(const pe::AngleTable&, long long, const double*, double*);  // the same, from a table row
  const char* quote;        // the buggy code's lines
  const char* note;
  const char* short_note;   // when space is tight
};

const ConventionMix& convention_mix(const AppState& s) {
  static const ConventionMix half_split_cache{
      "half-split cache, interleaved pairs", pe::PairConvention::Interleaved, pe::apply_half_split_cache_mix,
      pe::half_split_cache_mix_with_angles,
      "The buggy code:  emb = torch.cat((freqs, freqs), dim=-1)  …  x1 = x[..., ::2];  x2 = x[..., 1::2];  "
      "[x1 * cos[..., ::2] - x2 * sin[..., ::2],  x1 * sin[..., 1::2] + x2 * cos[..., 1::2]]",
      "This common notebook code builds its cache as cat(freqs, freqs) (the half-split layout of transformers' "
      "rotate_half) but pairs dims (2i, 2i+1) and reads cos[..., ::2] with sin[..., 1::2]: pair i gets cos of "
      "θ_{2i mod d/2} and sin of θ_{2i+1 mod d/2}. That matrix is not a rotation (determinant cos(α − β)), frequencies "
      "repeat, and position leaks into the score. Use one layout consistently: interleaved pairs with "
      "repeat_interleave'd tables, or half-split pairs with rotate_half.",
      "Half-split cache, interleaved pairs — not a rotation."};
  static const ConventionMix interleaved_cache{
      "interleaved cache, half-split rotate_half", pe::PairConvention::HalfSplit, pe::apply_interleaved_cache_mix,
      pe::interleaved_cache_mix_with_angles,
      "The buggy code:  emb = freqs.repeat_interleave(2, dim=-1)  …  x1 = x[..., : x.shape[-1] // 2];  "
      "x2 = x[..., x.shape[-1] // 2 :];  return torch.cat([-x2, x1], dim=-1)  — its comment promises [-x1, x0, -x3, x2, …]; "
      "the code does not compute that.",
      "Another common notebook version is the mirror image: its cache is repeat_interleave'd (θ₀, θ₀, θ₁, θ₁, …, the "
      "interleaved layout) but rotate_half swaps the halves (the half-split pairing), so dim j turns with θ_{j//2} and "
      "its partner j + d/2 with θ_{(j+d/2)//2}. Not a rotation: with the worked example's q = [0.8, 0.3, −0.5, 0.2] at "
      "p = 1, 3, 100 the norm 1.00995 becomes 1.00541, 0.94670, 0.78272. Fix it either way: cat(freqs, freqs) keeps "
      "rotate_half (what Hugging Face does), or an interleaved rotate_half keeps the cache.",
      "Interleaved cache, half-split rotate_half — not a rotation."};
  return s.mistake == "interleaved-cache" ? interleaved_cache : half_split_cache;
}

}  // namespace

void draw_common_mistake_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  const AppState& s = ctx.state;
  const auto& inv_freq = ctx.derived.rope.inv_freq;
  const long long dim = s.rope.head_dim;
  if (2 * inv_freq.size() != dim) {
    teaching_note("The mixed code rotates every dimension; with partial rotary (this configuration rotates only some) "
                  "there is no like-for-like comparison. Choose a fully rotary preset.");
    return;
  }
  const ConventionMix& mix = convention_mix(s);
  if (ctx.show_widgets()) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("mistake");
    for (const char* choice : {"half-split-cache", "interleaved-cache"}) {
      ImGui::SameLine();
      if (ImGui::RadioButton(choice, s.mistake == choice)) ctx.state.mistake = choice;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("mistake = %s: %s", choice,
                          std::string(choice) == "half-split-cache"
                              ? "a cat(freqs, freqs) cache (half-split layout) read with interleaved pairs (2i, 2i+1)"
                              : "a repeat_interleave'd cache (interleaved layout) with a half-split rotate_half");
    }
  }
  const std::vector<double> v = effective_vector(s);
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
  const double norm = std::max(x.norm(), 1e-300);
  const long long span = std::clamp<long long>(s.length, 2, 512);  // positions shown: the effect is visible early

  // Cached on the inputs (frequencies, span, vector): the curves need a few thousand rotations.
  static unsigned long long cached_version = 0;
  static long long cached_span = -1;
  static std::vector<double> cached_vector;
  static const ConventionMix* cached_mix = nullptr;
  static std::vector<double> ps, ok_norm, bad_norm, deltas;
  static std::vector<std::vector<double>> ok_score, bad_score;
  static std::vector<long long> anchors;
  if (cached_version != ctx.derived.version || cached_span != span || cached_vector != v || cached_mix != &mix) {
    cached_mix = &mix;
    cached_version = ctx.derived.version;
    cached_span = span;
    cached_vector = v;
    ps.clear(), ok_norm.clear(), bad_norm.clear(), deltas.clear();
    // Every position the curves need (0 … span: the last anchor plus the largest Δ) rotated
    // once, real and mixed, from one angle table: at d = 1024 the per-call sincos of
    // apply_rope cost ~25 ms a frame while θ is dragged; the table ~1 ms.
    static pe::AngleTable angles;
    static Eigen::MatrixXd ok_rows, bad_rows;  // column p: the vector at position p
    pe::angle_table_into(angles, inv_freq, span + 1);
    ok_rows.resize(dim, span + 1);
    bad_rows.resize(dim, span + 1);
    // Positions on two threads (pe/base/parallel.hpp): each writes its own columns.
    pe::in_two_parts(span + 1, 64, 1, [&](long long first, long long last) {
      for (long long p = first; p < last; ++p) {
        pe::rotate_with_angles(angles, p, x.data(), ok_rows.col(p).data(), mix.fixed);
        mix.apply_with_angles(angles, p, x.data(), bad_rows.col(p).data());
      }
    });
    for (long long p = 0; p < span; ++p) {
      ps.push_back(double(p));
      ok_norm.push_back(ok_rows.col(p).norm() / norm);
      bad_norm.push_back(bad_rows.col(p).norm() / norm);
    }
    anchors = {0, span / 3, 2 * span / 3};
    ok_score.assign(anchors.size(), {});
    bad_score.assign(anchors.size(), {});
    const long long max_delta = std::max<long long>(span / 3, 1);
    for (long long dlt = 0; dlt <= max_delta; ++dlt) deltas.push_back(double(dlt));
    for (std::size_t a = 0; a < anchors.size(); ++a) {
      const long long m = anchors[a];
      for (long long dlt = 0; dlt <= max_delta; ++dlt) {
        ok_score[a].push_back(ok_rows.col(m).dot(ok_rows.col(m + dlt)) / double(dim));
        bad_score[a].push_back(bad_rows.col(m).dot(bad_rows.col(m + dlt)) / double(dim));
      }
    }
  }

  // The buggy code's lines above the plots and the explanation below them, as long as the two
  // rows of plots keep room for their titles, ticks and curves (about 8 text lines each);
  // otherwise the one-line summary alone (projector scales in a small window).
  const float avail_h = ImGui::GetContentRegionAvail().y;
  const float quote_h = ctx.show_widgets() || ctx.exporting ? teaching_note_height(mix.quote) : 0.0f;
  const bool roomy = avail_h - quote_h - teaching_note_height(mix.note) >= 16.0f * ImGui::GetTextLineHeightWithSpacing();
  const char* const note = roomy ? mix.note : mix.short_note;
  if (roomy && quote_h > 0) teaching_note(mix.quote);
  const float note_h = teaching_note_height(note);
  const ImVec2 top = split_height({ctx.size.x, ImGui::GetContentRegionAvail().y - note_h}, 0.42f);
  if (plot::begin_plot("##mistake-norm", top, {.title = "‖y(p)‖ / ‖x‖: a rotation keeps the length"})) {
    plot::setup_axes({.label = "position p", .min = 0, .max = double(span - 1)}, {.label = "norm ratio"});
    plot::plot_line("RoPE (rotation)", ps, ok_norm, {.color = IM_COL32(70, 140, 230, 255), .thickness = 2.5f});
    plot::plot_line(mix.label, ps, bad_norm, {.color = IM_COL32(230, 80, 60, 255)});
    plot::end_plot();
  }
  // Side by side; one above the other in a narrow view (a phone), each the full width.
  const bool stacked = is_narrow_view(ctx, ctx.size.x);
  const float half_w = stacked ? ctx.size.x : (ctx.size.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  const float bottom_h = stacked ? (ImGui::GetContentRegionAvail().y - note_h - ImGui::GetStyle().ItemSpacing.y) * 0.5f
                                 : ImGui::GetContentRegionAvail().y - note_h;
  const ImU32 shades[] = {IM_COL32(70, 140, 230, 255), IM_COL32(120, 200, 120, 255), IM_COL32(240, 190, 60, 255)};
  for (int side = 0; side < 2; ++side) {
    if (side && !stacked) ImGui::SameLine();
    const auto& scores = side == 0 ? ok_score : bad_score;
    if (plot::begin_plot(side == 0 ? "##mistake-ok" : "##mistake-bad", {half_w, bottom_h},
                         {.title = side == 0 ? "RoPE: ⟨q(m), k(m+Δ)⟩/d for three anchors m — one curve"
                                   : "Mixed tables: the anchors disagree — not relative"})) {
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

namespace {

std::string common_mistake_csv(const AppState& s, const Derived& d) {
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  const ConventionMix& mix = convention_mix(s);
  const std::vector<double> v = effective_vector(s);
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
  if (2 * inv.size() != x.size()) throw std::runtime_error("common-mistake needs a fully rotary configuration");
  out << "position,rope_norm_ratio," << (s.mistake == "interleaved-cache" ? "interleaved_cache" : "half_split_cache") << "_norm_ratio\n";
  for (long long p = 0; p < std::clamp<long long>(s.length, 2, 512); ++p)
    out << p << ',' << csv_number(pe::apply_rope(x, double(p), inv, mix.fixed).norm() / x.norm()) << ','
        << csv_number(mix.apply(x, double(p), inv).norm() / x.norm()) << "\n";
  return out.str();
}

std::vector<std::string> common_mistake_formula(const AppState& s, const Derived&) {
  if (s.mistake == "interleaved-cache")
    return {"interleaved cache: cos = repeat_interleave(f, 2),  rotate_half = cat(−x[d/2:], x[:d/2])  →  dim j turns with f_{j//2}, its partner j + d/2 with f_{(j+d/2)//2}",
            "a rotation needs both dims of a pair turned by the SAME angle: cos² + sin² = 1, so norms are kept"};
  return {"half-split cache: cos = cat(f, f)[..., ::2],  sin = cat(f, f)[..., 1::2]  →  pair i gets cos(p·f_{2i mod d/2}), sin(p·f_{(2i+1) mod d/2})",
          "a rotation needs cos and sin of the SAME angle: cos² + sin² = 1, so norms are kept"};
}

constexpr const char* kAnimatable[] = {"theta", "dim", "length", "position", "seed"};

}  // namespace

const ViewInfo& common_mistake_view() {
  static const ViewInfo info{
      .name = "common-mistake",
      .title = "Common mistake",
      .summary = "A common notebook RoPE that mixes the two pair layouts, beside the real rotation: norms and relativity break",
      .group = "RoPE",
      .draw = draw_common_mistake_view,
      .csv = common_mistake_csv,
      .formula = common_mistake_formula,
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
