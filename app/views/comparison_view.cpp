// The comparison table positional-encoding tutorials print (parameters, memory, relative
// position, extrapolation, cost of sinusoidal, learned, RoPE and ALiBi) beside what pe-viz
// measures for the current d and L.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <map>
#include <cstdio>
#include <string>
#include <vector>

#include "pe/analysis/method_comparison.hpp"
#include "views/async_value.hpp"
#include "views/view.hpp"
#include <sstream>
#include "pe/encodings/alibi.hpp"
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {

// Defined in export/comparison_data.cpp: the view and its CSV measure the same inputs.
pe::MethodComparisonParams comparison_params(const AppState& s) {
  pe::MethodComparisonParams p;
  p.dim = s.rope.head_dim;
  p.max_len = s.learned_max_len;
  p.theta = s.rope.theta;
  p.heads = s.heads;
  p.alibi_slope = pe::alibi_slopes(s.heads)[std::clamp<long long>(s.head, 1, s.heads) - 1];
  p.learned_sigma = 0.02;
  p.seed = s.seed;
  // Fewer random trials at large d keep a slider drag fluid (each trial is O(d)).
  p.trials = std::clamp<long long>((1LL << 20) / std::max<long long>(p.dim, 1), 32, 256);
  return p;
}

namespace {

constexpr const char* kNames[4] = {"sinusoidal", "learned", "RoPE", "ALiBi"};

// What tutorials' comparison tables commonly claim, per method (an em dash where they say
// nothing; several claims where they disagree). Vaswani et al. 2017 (§3.5) hoped sinusoids
// "may allow the model to extrapolate"; RoFormer (Su et al. 2021) claims "the flexibility of
// sequence length"; ALiBi is Press et al. 2022.
struct Claim {
  const char* property;
  const char* claims[4];
};
constexpr Claim kClaims[] = {
    {"Trainable parameters",
     {"None (fixed)", "max_len × d_model", "None (fixed)\nNo extra params", "No learned params"}},
    {"Memory",
     {"Low (cache)\nalso: Extra parameters", "High", "Low (cache)", "—"}},
    {"Relative position",
     {"Implicit\nWeaker at relative positions", "Absolute only", "Explicit in QK^T\nPerfect relative positions",
      "Adds a bias to attention scores based on distance"}},
    {"Past the training length",
     {"Excellent extrapolation\nWorks for any length\nalso: Poor", "Poor\nCan't handle sequences longer than training",
      "Excellent extrapolation\nAny length\nGood", "—"}},
    {"Computation", {"Low", "Low", "Medium", "Very fast"}},
};

std::string with_commas(long long v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    // Thin space (SI style): ImGui's word wrap breaks lines after a comma, splitting "4,096".
    if (i > 0 && (digits.size() - i) % 3 == 0) out += "\u2009";
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

struct Cell {
  std::string text;
  bool contradicts = false;  // the measurement contradicts a claim in this cell
};

// Measured text per property (rows of kClaims) and method.
std::array<std::array<Cell, 4>, 5> measured_cells(const std::array<pe::MethodMeasurement, 4>& r, const pe::MethodComparisonParams& p) {
  std::array<std::array<Cell, 4>, 5> c;
  const std::string Ld = with_commas(p.max_len) + " × " + with_commas(p.dim);
  c[0][0] = {"0"};
  c[0][1] = {Ld + " = " + with_commas(r[1].trainable_parameters)};
  c[0][2] = {"0"};
  c[0][3] = {"0"};
  // Some tables give fixed (sinusoidal) PE "extra parameters": it has none.
  c[1][0] = {with_commas(r[0].cached_values) + " values cached (L × d), 0 trained; \"extra parameters\" is wrong", true};
  c[1][1] = {with_commas(r[1].trainable_parameters) + " values, all trained (plus their gradients and optimizer state)"};
  c[1][2] = {with_commas(r[2].cached_values) + " values cached (cos and sin, L × d/2 each), 0 trained: as many as learned's"};
  c[1][3] = {with_commas(r[3].cached_values) + " slopes (one per head); the bias is computed on the fly"};
  for (int m = 0; m < 4; ++m) {
    const auto& x = r[std::size_t(m)];
    // Numbers start their own line: ImGui's wrap would split "0.097" after the point.
    std::string t = "|s(m, m+Δ) − s(0, Δ)| up to\n" +
                    (x.relative_deviation == 0 ? std::string("0 (exactly)") : fmt("%.2g", x.relative_deviation)) +
                    fmt(" (scores ~%.2g):\n", x.score_rms);
    if (x.is_relative) {
      t += m == 2 ? "relative (rounding only)" : "relative";
    } else {
      t += m == 0 ? "NOT relative: content × position cross terms" : "NOT relative: one row per absolute position";
    }
    c[2][std::size_t(m)] = {t};
  }
  for (int m : {0, 2}) {
    const auto& x = r[std::size_t(m)];
    const bool unseen = x.pairs_with_unseen > 0;
    c[3][std::size_t(m)] = {"defined, but positions " + with_commas(p.max_len) + " … " + with_commas(2 * p.max_len - 1) +
                                " were never trained on, and\n" + fmt("%.1f%%", 100 * x.unseen_angle_fraction) +
                                " of the angles at 2L are unseen in training (" +
                                std::to_string(x.pairs_with_unseen) + " of " + std::to_string(x.pairs) + " pairs)" +
                                (unseen ? ": not \"excellent\"" : ""),
                            unseen};
  }
  c[3][1] = {"no embedding exists: " + r[1].past_training_error};
  c[3][3] = {"defined and linear: bias reaches " + fmt("%.4g", r[3].bias_at_double) + " at distance 2L − 1 (" +
             fmt("%.4g", r[3].bias_at_training_end) + " in training): unseen distances, but no new numbers"};
  c[4][0] = {with_commas(r[0].flops_per_token) + " additions per token (d)"};
  c[4][1] = {with_commas(r[1].flops_per_token) + " additions per token (d)"};
  c[4][2] = {with_commas(r[2].flops_per_token) + " flops per token (3 per dim, for q and k)"};
  c[4][3] = {with_commas(r[3].flops_per_token) + " flops per query at length L (2 per key)"};
  return c;
}

// Horizontal bars (names and values stay readable however narrow the chart is), each
// labelled "method: value" above its bar; linear axis.
void parameter_bars(const std::array<pe::MethodMeasurement, 4>& r, const pe::MethodComparisonParams& p, ImVec2 size) {
  double top = 1;
  for (const auto& x : r) top = std::max(top, double(x.trainable_parameters));
  const std::string x_label = "parameters (max_len = " + with_commas(p.max_len) + ", d = " + with_commas(p.dim) + ")";
  if (!plot::begin_plot("##comparison-params", size, {.title = "Trainable parameters", .legend = false, .crosshair = false})) return;
  plot::setup_axes({.label = x_label.c_str(), .min = 0, .max = top * 1.08, .lock = true},
                   {.label = "", .min = -0.75, .max = 3.6, .lock = true, .invert = true, .format = " "});
  for (int m = 0; m < 4; ++m) {
    const double v = double(r[std::size_t(m)].trainable_parameters);
    const double xs[2] = {0, v}, lo[2] = {m + 0.5, m + 0.5}, hi[2] = {m + 0.05, m + 0.05};  // y grows downwards: lo is the lower edge on screen
    if (v > 0) plot::plot_shaded(kNames[m], xs, lo, hi, {.color = plot::series_color(m), .in_legend = false});
    const std::string label = std::string(kNames[m]) + ": " + with_commas(r[std::size_t(m)].trainable_parameters);
    plot::plot_text(0, m - 0.1, label.c_str(), 0, {4, -ImGui::GetTextLineHeight() / plot::pixel_scale()});
  }
  plot::end_plot();
}

}  // namespace

void draw_comparison_view(ViewContext& ctx) {
  const AppState& s = ctx.state;
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  // compare_methods runs random trials at every d: about 20 ms at d = 1024, so while θ is
  // dragged it runs on a worker and the last table stays on screen (exports wait).
  struct Measured {
    std::array<pe::MethodMeasurement, 4> result;
    std::array<std::array<Cell, 4>, 5> cells;
    std::string error;
  };
  static std::map<const Derived*, AsyncValue<std::string, Measured>> slots;
  const pe::MethodComparisonParams params = comparison_params(s);
  char key_buf[160];
  std::snprintf(key_buf, sizeof key_buf, "%lld|%lld|%.17g|%lld|%.17g|%llu", params.dim, params.max_len, params.theta, params.heads,
                params.alibi_slope, static_cast<unsigned long long>(params.seed));
  const Measured& m = slot_for(slots, &ctx.derived).get(key_buf, ctx.exporting, [params](const std::string&) {
    Measured fresh;
    try {
      fresh.result = pe::compare_methods(params);
      fresh.cells = measured_cells(fresh.result, params);
    } catch (const std::exception& e) {
      fresh.error = e.what();
    }
    return fresh;
  });
  if (!m.error.empty()) {
    ImGui::TextColored({1, 0.45f, 0.4f, 1}, "Cannot measure: %s", m.error.c_str());
    return;
  }
  const auto& result = m.result;
  const auto& cells = m.cells;
  const ImVec4 bad(0.85f, 0.25f, 0.2f, 0.22f);
  // One property's two rows ("often claimed", "measured"), or all of them.
  auto table_rows = [&](std::size_t first, std::size_t last, bool property_column) {
    for (std::size_t row = first; row < last; ++row) {
      ImGui::TableNextRow();
      int col = 0;
      if (property_column) {
        ImGui::TableSetColumnIndex(col++);
        text_wrapped_unformatted(kClaims[row].property);
      }
      ImGui::TableSetColumnIndex(col);
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      text_wrapped("often claimed");
      for (int m = 0; m < 4; ++m) {
        ImGui::TableSetColumnIndex(col + 1 + m);
        text_wrapped_unformatted(kClaims[row].claims[m]);
      }
      ImGui::PopStyleColor();
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(col);
      text_wrapped("measured");
      for (int m = 0; m < 4; ++m) {
        ImGui::TableSetColumnIndex(col + 1 + m);
        const Cell& c = cells[row][std::size_t(m)];
        if (c.contradicts) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ImGui::GetColorU32(bad));
        text_wrapped_unformatted(c.text.c_str());
      }
    }
  };
  // A phone (is_narrow_view): columns wide enough for their names and a few words, the table
  // scrolling sideways, rather than squeezed until the names are cut.
  const bool sideways = is_narrow_view(ctx, ctx.size.x);
  auto begin_table = [&](const char* id, int columns, ImGuiTableFlags flags, float width) {
    return sideways ? begin_scrolling_table(id, columns, flags, width) : ImGui::BeginTable(id, columns, flags, {width, 0.0f});
  };
  auto setup_columns = [&](bool property_column) {
    if (property_column) {
      float property_w = 0;  // the longest single word of a property name: names wrap between words
      for (const char* w : {"Computation", "parameters", "position", "training"}) property_w = std::max(property_w, ImGui::CalcTextSize(w).x);
      ImGui::TableSetupColumn("property", ImGuiTableColumnFlags_WidthFixed, property_w);
    }
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("measured").x);
    for (const char* n : kNames) {
      if (sideways) ImGui::TableSetupColumn(n, ImGuiTableColumnFlags_WidthFixed, std::max(ImGui::CalcTextSize(n).x, 6.0f * ImGui::GetFontSize()));
      else ImGui::TableSetupColumn(n, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    }
    ImGui::TableHeadersRow();
  };
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp;
  const std::string note =
      "Red cells: the measurement contradicts the claim above it. Relative check: random content vectors x, x' at positions m and m+Δ "
      "(additive methods add the position vector; RoPE rotates; ALiBi adds −slope·|Δ|), max over " + std::to_string(params.trials) +
      " random (x, x', m, Δ) with m + Δ < " + std::to_string(result[0].positions_checked) + ". "
      "\"Unseen\" angles: past L the slow pairs reach rotation angles training never produced (extrapolation view), which is "
      "why plain RoPE and sinusoidal do not extrapolate well and why PI / NTK / YaRN / Llama 3 scaling exist.";

  // Everything at once when it fits (measured on the last frame drawn that way at this
  // window width and font size); otherwise one page at a time, so no line is cut at the
  // edge (projector at 2×). Exports always show everything. The window's width, not the
  // room beside its scrollbar: the full table brings a scrollbar that the page then takes
  // away, and keying on the room made the two alternate every other frame.
  static float full_height = 0, measured_width = -1, measured_font = -1;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool measured = measured_width == ImGui::GetWindowWidth() && measured_font == ImGui::GetFontSize();
  const bool paged = ctx.show_widgets() && measured && full_height > avail.y;
  static int page = 0;
  if (paged) {
    constexpr int kPages = int(std::size(kClaims)) + 1;
    const char* labels[kPages];
    for (int i = 0; i + 1 < kPages; ++i) labels[i] = kClaims[i].property;
    labels[kPages - 1] = "Parameter chart";
    ImGui::Text("d = %lld, L = %lld.", params.dim, params.max_len);
    // A narrow view (a phone): the combo on a line of its own, as wide as its label leaves.
    const bool narrow_view = is_narrow_view(ctx, avail.x);
    if (!narrow_view) ImGui::SameLine();
    ImGui::SetNextItemWidth(narrow_view ? avail.x - ImGui::CalcTextSize("page").x - ImGui::GetStyle().ItemInnerSpacing.x
                                        : std::min(avail.x * 0.5f, 16 * ImGui::GetFontSize()));
    ImGui::Combo("page", &page, labels, kPages);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The window is too small for the whole table at this UI scale: one property at a time.");
    page = std::clamp(page, 0, kPages - 1);
    if (page < kPages - 1) {
      ImGui::TextUnformatted(kClaims[page].property);
      if (begin_table("##comparison-page", 5, flags, 0.0f)) {
        setup_columns(false);
        table_rows(std::size_t(page), std::size_t(page) + 1, false);
        ImGui::EndTable();
      }
    } else {
      const float w = std::min(avail.x, 30 * ImGui::GetFontSize());
      parameter_bars(result, params, {w, std::min(ImGui::GetContentRegionAvail().y - 2 * ImGui::GetTextLineHeightWithSpacing(), w * 0.6f)});
      text_wrapped("BERT-base's table (Devlin et al. 2019): 512 × 768 = %s.", with_commas(512LL * 768).c_str());
    }
    return;
  }

  const float top = ImGui::GetCursorPosY();
  text_wrapped("Measured for d = head_dim = %lld, training length L = learned_max_len = %lld (set both in the panel), θ = %g, "
                     "ALiBi head %lld of %lld (slope %g). Each \"often claimed\" row gathers what tutorials' comparison tables "
                     "say; the \"measured\" row below it is computed now.",
                     params.dim, params.max_len, params.theta, std::clamp<long long>(s.head, 1, s.heads), s.heads, params.alibi_slope);
  // Narrow: the chart goes under the table.
  const bool narrow = ctx.size.x < 60 * ImGui::GetFontSize();
  const float chart_w = narrow ? std::min(ImGui::GetContentRegionAvail().x, 34 * ImGui::GetFontSize())
                               : std::min(ctx.size.x * 0.28f, 26 * ImGui::GetFontSize());
  const float chart_h = std::max(14 * ImGui::GetTextLineHeightWithSpacing() * 0.75f, chart_w * 0.8f);
  const float table_w = narrow ? ImGui::GetContentRegionAvail().x
                               : ImGui::GetContentRegionAvail().x - chart_w - ImGui::GetStyle().ItemSpacing.x;
  ImGui::BeginGroup();
  if (begin_table("##comparison", 6, flags, table_w)) {
    setup_columns(true);
    table_rows(0, std::size(kClaims), true);
    ImGui::EndTable();
  }
  ImGui::EndGroup();
  if (!narrow) ImGui::SameLine();
  ImGui::BeginGroup();
  parameter_bars(result, params, {chart_w, chart_h});
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + chart_w);
  text_wrapped("BERT-base's table (Devlin et al. 2019): 512 × 768 = %s learned parameters; sinusoidal, RoPE and ALiBi have none.",
                     with_commas(512LL * 768).c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  teaching_note(note.c_str());
  // A table's very first frame wraps text into zero-width columns (far too tall): heights
  // count from the second full frame on.
  static bool table_laid_out = false;
  if (table_laid_out) {
    full_height = ImGui::GetCursorPosY() - top;
    measured_width = ImGui::GetWindowWidth();
    measured_font = ImGui::GetFontSize();
  }
  table_laid_out = true;
}

// The measurement inputs for this state; the comparison view uses the same function.
// d = head_dim; the training length L = learned_max_len (the learned view's table).

std::string comparison_csv(const AppState& s, const Derived& d) {
  if (!d.error.empty()) throw std::runtime_error(d.error);
  const pe::MethodComparisonParams p = comparison_params(s);
  const auto r = pe::compare_methods(p);
  std::ostringstream out;
  out << "quantity,sinusoidal,learned,rope,alibi\n";
  auto row = [&](const char* name, auto value) {
    out << name;
    for (const auto& m : r) out << ',' << value(m);
    out << '\n';
  };
  row("dim", [&](const auto&) { return std::to_string(p.dim); });
  row("max_len", [&](const auto&) { return std::to_string(p.max_len); });
  row("trainable_parameters", [](const auto& m) { return std::to_string(m.trainable_parameters); });
  row("cached_values", [](const auto& m) { return std::to_string(m.cached_values); });
  row("relative_max_deviation", [](const auto& m) { return csv_number(m.relative_deviation); });
  row("relative_score_rms", [](const auto& m) { return csv_number(m.score_rms); });
  row("is_relative", [](const auto& m) { return std::string(m.is_relative ? "1" : "0"); });
  row("relative_positions_checked", [](const auto& m) { return std::to_string(m.positions_checked); });
  row("defined_at_2x_max_len", [](const auto& m) { return std::string(m.defined_past_training ? "1" : "0"); });
  row("unseen_angle_fraction_at_2x", [](const auto& m) {
    return m.method == pe::AttentionMethod::Sinusoidal || m.method == pe::AttentionMethod::Rope ? csv_number(m.unseen_angle_fraction)
                                                                                               : std::string();
  });
  row("pairs_with_unseen_angles_at_2x", [](const auto& m) {
    return m.pairs > 0 ? std::to_string(m.pairs_with_unseen) + " of " + std::to_string(m.pairs) : std::string();
  });
  row("alibi_bias_at_2x", [](const auto& m) {
    return m.method == pe::AttentionMethod::Alibi ? csv_number(m.bias_at_double) : std::string();
  });
  row("flops_per_token", [](const auto& m) { return std::to_string(m.flops_per_token); });
  return out.str();
}

namespace {

std::vector<std::string> comparison_formula(const AppState& s, const Derived&) {
  const long long dim = s.rope.head_dim;
  return {"parameters: learned = max_len × d;  sinusoidal, RoPE, ALiBi = 0",
          formatted("max_len = %lld, d = %lld:  %lld × %lld = %lld", s.learned_max_len, dim, s.learned_max_len, dim,
                    s.learned_max_len * dim)};
}

}  // namespace

namespace {
constexpr const char* kAnimatable[] = {"dim", "learned_max_len", "theta", "heads", "head", "seed"};
}  // namespace

const ViewInfo& comparison_view() {
  static const ViewInfo info{
      .name = "comparison",
      .title = "Comparison",
      .summary = "The comparison table tutorials print, every claim measured for the current d and max_len",
      .group = "Attention",
      .draw = draw_comparison_view,
      .csv = comparison_csv,
      .formula = comparison_formula,
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
