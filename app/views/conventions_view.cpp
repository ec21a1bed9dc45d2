// The two pair layouts of real RoPE code as wiring between dimension boxes: interleaved
// (GPT-J, RoFormer, Meta's LLaMA code: pairs (2i, 2i+1)) and half-split (GPT-NeoX, Hugging
// Face rotate_half: pairs (i, i + d/2)), the permutation between them, and the measured
// scores: equal after the permutation, different when the conventions are mixed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "pe/analysis/teaching_numbers.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {

constexpr long long kMaxDrawnDim = 32;   // more boxes than this are unreadable on a projector
constexpr long long kFallbackDrawnDim = 16;
const std::vector<long long> kDeltas = {0, 1, 2, 5, 10, 100, 1000};

ImU32 pair_color(long long pair, long long pairs, int alpha = 255) {
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(float(pair) / float(std::max<long long>(pairs, 1)) * 0.9f, 0.7f, 0.95f, r, g, b);
  return IM_COL32(int(r * 255), int(g * 255), int(b * 255), alpha);
}

void centred_text(double x, double y, const char* text, ImU32 color = 0) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  const float s = plot::pixel_scale();
  plot::plot_text(x, y, text, color, {-size.x * 0.5f / s, -size.y * 0.5f / s});
}

// Half an ellipse from (a, y) to (b, y), bulging by `height` (negative: downwards).
void arc(double a, double b, double y, double height, ImU32 color, float thickness) {
  std::vector<double> xs, ys;
  for (int k = 0; k <= 32; ++k) {
    const double t = std::numbers::pi * k / 32.0;
    xs.push_back((a + b) * 0.5 - (b - a) * 0.5 * std::cos(t));
    ys.push_back(y + height * std::sin(t));
  }
  plot::plot_line("##arc", xs, ys, {.color = color, .thickness = thickness, .in_legend = false});
}

void boxes(long long dim, double y_lo, double y_hi, pe::PairConvention c) {
  for (long long j = 0; j < dim; ++j) {
    // Which pair dim j belongs to in this layout.
    long long pair = 0;
    for (long long i = 0; i < dim / 2; ++i) {
      const auto [a, b] = pe::pair_dims(c, dim, i);
      if (a == j || b == j) pair = i;
    }
    const double xs[] = {double(j) - 0.42, double(j) + 0.42}, lo[] = {y_lo, y_lo}, hi[] = {y_hi, y_hi};
    plot::plot_shaded("##box", xs, lo, hi, {.color = pair_color(pair, dim / 2, 150), .in_legend = false});
    centred_text(double(j), (y_lo + y_hi) * 0.5, std::to_string(j).c_str());
  }
}

void wiring_plot(ImVec2 size, long long dim) {
  if (!plot::begin_plot("##wiring", size,
                        {.title = nullptr, .legend = false, .crosshair = false}))
    return;
  const long long pairs = dim / 2;
  // Rows: interleaved at y ∈ [3, 4] with arcs above, half-split at y ∈ [0, 1] with arcs below,
  // the permutation as lines between them.
  plot::setup_axes({.label = "", .min = -1.0, .max = double(dim), .lock = true, .format = " "},
                   {.label = "", .min = -2.2, .max = 5.1, .lock = true, .format = " "});
  const float thick = 2.5f;
  for (long long i = 0; i < pairs; ++i) {
    const auto [a, b] = pe::pair_dims(pe::PairConvention::Interleaved, dim, i);
    arc(double(a), double(b), 4.0, 0.9, pair_color(i, pairs), thick);
    const auto [c, d] = pe::pair_dims(pe::PairConvention::HalfSplit, dim, i);
    // Nested heights so arcs of equal width do not lie on top of each other.
    arc(double(c), double(d), 0.0, -(0.8 + 1.2 * double(i) / double(std::max<long long>(pairs - 1, 1))), pair_color(i, pairs), thick);
  }
  const std::vector<long long> perm = pe::pair_permutation(dim, pe::PairConvention::Interleaved, pe::PairConvention::HalfSplit);
  for (long long j = 0; j < dim; ++j) {
    const double xs[] = {double(j), double(perm[std::size_t(j)])}, ys[] = {3.0, 1.0};
    plot::plot_line("##perm", xs, ys, {.color = pair_color(j / 2, pairs, 200), .thickness = 1.5f, .in_legend = false});
  }
  boxes(dim, 3.0, 4.0, pe::PairConvention::Interleaved);
  boxes(dim, 0.0, 1.0, pe::PairConvention::HalfSplit);
  plot::end_plot();
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", v);
  return buf;
}
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  std::string s = buf;
  return s[0] == '-' ? "−" + s.substr(1) : s;
}

}  // namespace

void draw_conventions_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  const AppState& s = ctx.state;
  const long long d = s.rope.head_dim;
  const long long drawn = d <= kMaxDrawnDim ? d : kFallbackDrawnDim;

  pe::ConventionCheck check;
  try {
    check = pe::convention_check(s.rope.theta, d, s.seed, s.position, kDeltas);
  } catch (const std::exception& e) {
    text_wrapped_unformatted(e.what());
    return;
  }
  double worst = 0, mixed_gap = 0;
  for (const auto& r : check.scores) {
    worst = std::max(worst, r.difference);
    mixed_gap = std::max(mixed_gap, std::fabs(r.mixed - r.interleaved));
  }

  // Every text is measured first; the wiring gets the rest. When that is too little (a big
  // UI scale on a small screen) the table keeps fewer distances and the note gets short, so
  // nothing scrolls or is cut.
  const std::string top = (drawn != d ? "Drawn for d = " + std::to_string(drawn) + " (d = " + std::to_string(d) +
                                            " has the same pattern, too many boxes to read). "
                                      : std::string()) +
                          "Top row: interleaved (GPT-J, RoFormer, Meta's LLaMA code), pair i = dims (2i, 2i+1).";
  const std::string bottom = "Bottom row: half-split (GPT-NeoX, Hugging Face rotate_half), pair i = dims (i, i + d/2). "
                             "Lines: the permutation, where each interleaved dim goes.";
  char intro[300];
  std::snprintf(intro, sizeof intro, "Seeded random q, k (seed %llu, d = %lld, θ = %g); query at m = %lld, key at n = m + Δ:",
                static_cast<unsigned long long>(s.seed), d, s.rope.theta, s.position);
  char equal[200], mixed[200];
  std::snprintf(equal, sizeof equal, "Interleaved vs half-split after the permutation: largest |difference| %s (%s 1e-12: %s).",
                sci(worst).c_str(), worst < 1e-12 ? "<" : "NOT <", worst < 1e-12 ? "equal up to rounding" : "they differ");
  if (d == 2)
    std::snprintf(mixed, sizeof mixed, "At d = 2 there is one pair, (0, 1), in both layouts: nothing to mix. Raise d to see it.");
  else
    std::snprintf(mixed, sizeof mixed, "Mixed (half-split vectors rotated with interleaved pairs): off by up to %.3g — not the "
                                       "trained scores.", mixed_gap);
  const char* note = "The two layouts are the same RoPE with the dimensions renamed: converting Meta's LLaMA weights to Hugging Face "
                     "permutes the rows of W_q and W_k exactly like the lines above. Rotating half-split-trained vectors with "
                     "interleaved pairing (or the common notebook code that builds half-split tables and pairs interleaved) turns the wrong "
                     "dims together: the scores are not the ones the model was trained with. At Δ = 0 every version gives q·k.";
  const char* short_note = "Same RoPE, dims renamed: Meta → Hugging Face conversion permutes W_q, W_k rows like the lines above. "
                           "Mixing the pairings gives scores the model was never trained with.";

  const ImGuiStyle& style = ImGui::GetStyle();
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const float width = ImGui::GetContentRegionAvail().x;
  auto text_h = [&](const char* t) { return wrapped_text_size(t, width).y + style.ItemSpacing.y; };
  const float row_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  // Level 0: everything; 1: four distances and the short note; 2: also no intro and no note.
  const std::vector<long long> few = {0, 1, 10, 1000};
  // A phone's table scrolls sideways: its scrollbar under the rows.
  const float table_extra = fitting_table_scrolls(ctx, "##conv-scores") ? style.ScrollbarSize + 2.0f * style.CellPadding.y + 2.0f : 0.0f;
  auto below = [&](int level) {
    const std::size_t rows = level == 0 ? kDeltas.size() : few.size();
    return text_h(bottom.c_str()) + (level < 2 ? text_h(intro) : 0.0f) + row_h * float(rows + 2) + table_extra + style.ItemSpacing.y +
           text_h(equal) + text_h(mixed) + (level == 0 ? text_h(note) : level == 1 ? text_h(short_note) : 0.0f) +
           style.ItemSpacing.y;
  };
  const float avail = ImGui::GetContentRegionAvail().y - text_h(top.c_str());
  const int level = avail - below(0) >= 11.0f * line_h ? 0 : avail - below(1) >= 8.0f * line_h ? 1 : 2;
  const std::vector<long long>& shown = level == 0 ? kDeltas : few;
  const float plot_h = std::max(avail - below(level), 5.0f * line_h);

  text_wrapped_unformatted(top.c_str());
  wiring_plot({width, plot_h}, drawn);
  text_wrapped_unformatted(bottom.c_str());
  if (level < 2) text_wrapped_unformatted(intro);
  if (begin_fitting_table(ctx, "##conv-scores", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("Δ = n − m");
    ImGui::TableSetupColumn("interleaved:\nseeded q, k");
    ImGui::TableSetupColumn("half-split:\npermuted q, k");
    ImGui::TableSetupColumn("|difference|");
    ImGui::TableSetupColumn("mixed: permuted q, k\nwith interleaved pairs");
    ImGui::TableHeadersRow();
    for (const auto& r : check.scores) {
      if (std::find(shown.begin(), shown.end(), r.delta) == shown.end()) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%lld", r.delta);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(num(r.interleaved).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(num(r.half_split).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(sci(r.difference).c_str());
      ImGui::TableNextColumn();
      ImGui::PushStyleColor(ImGuiCol_Text, r.delta != 0 ? ImVec4(0.95f, 0.45f, 0.35f, 1.0f) : style.Colors[ImGuiCol_Text]);
      ImGui::TextUnformatted(num(r.mixed).c_str());
      ImGui::PopStyleColor();
    }
    ImGui::EndTable();
  }
  text_wrapped_unformatted(equal);
  text_wrapped_unformatted(mixed);
  if (level < 2) teaching_note(level == 0 ? note : short_note);
}

namespace {

std::string exact(double v) { return csv_number(v, 17); }

}  // namespace

std::string conventions_csv(const AppState& s, const Derived&) {
  const pe::ConventionCheck c =
      pe::convention_check(s.rope.theta, s.rope.head_dim, s.seed, s.position, {0, 1, 2, 5, 10, 100, 1000});
  std::ostringstream out;
  out << "# d = " << c.dim << ", theta = " << exact(s.rope.theta) << ", seed = " << s.seed
      << "; interleaved dim j -> half-split dim:";
  for (std::size_t j = 0; j < c.permutation.size(); ++j) out << ' ' << j << "->" << c.permutation[j];
  out << "\n";
  out << "delta,m,n,score_interleaved,score_half_split_permuted,abs_difference,score_mixed\n";
  for (const auto& r : c.scores)
    out << r.delta << ',' << r.m << ',' << r.n << ',' << exact(r.interleaved) << ',' << exact(r.half_split) << ',' << exact(r.difference) << ','
        << exact(r.mixed) << "\n";
  return out.str();
}

namespace {

std::vector<std::string> conventions_formula(const AppState& s, const Derived& d) {
  const long long dim = s.rope.head_dim;
  const long long i = selected_pair(s, d);
  return {"interleaved pairs (2i, 2i+1);   half-split pairs (i, i + d/2);   same scores after the permutation",
          formatted("d = %lld: pair %lld is dims (%lld, %lld) interleaved, (%lld, %lld) half-split", dim, i, 2 * i, 2 * i + 1,
                    i, i + dim / 2)};
}

}  // namespace

namespace {
constexpr const char* kAnimatable[] = {"theta", "dim", "position", "pair", "seed"};
}  // namespace

const ViewInfo& conventions_view() {
  static const ViewInfo info{
      .name = "conventions",
      .title = "Conventions",
      .summary = "Interleaved vs half-split pairing as wiring between dims; scores equal after the permutation",
      .group = "RoPE",
      .draw = draw_conventions_view,
      .csv = conventions_csv,
      .formula = conventions_formula,
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
