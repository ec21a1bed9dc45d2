// CoPE, Contextual Position Encoding (Golovneva et al. 2024): positions are counted by gates,
// p_ij = Σ_{t=j}^{i} g_it, not indexed. Here the gates follow a settable rule over an editable
// sentence (every token, sentence ends, words, punctuation) standing in for the trained
// σ(q·k), so a query sees a key as "2 sentences back" rather than "17 tokens back". Numbers
// from core (pe/relative/cope.hpp).
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/relative/cope.hpp"
#include "views/relative_common.hpp"
#include "plot/space_wrap.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

struct CopeData {
  pe::CopeCounts counts;
  std::vector<float> positions;  // tokens × tokens, later keys NaN
  double vmax = 1;
  unsigned long long version = 0;
};

pe::CopeCounts count(const AppState& s) {
  return pe::cope_count(s.cope_text, pe::cope_gate_pattern_from_string(s.cope_gates), s.cope_npos_max);
}

const CopeData& data_for(const AppState& s) {
  static std::shared_ptr<const CopeData> cached;
  static std::string key;
  static unsigned long long next_version = 0;
  const std::string k = s.cope_text + "|" + s.cope_gates + "|" + std::to_string(s.cope_npos_max);
  if (!cached || k != key) {
    auto d = std::make_shared<CopeData>();
    d->counts = count(s);
    const long long n = static_cast<long long>(d->counts.tokens.size());
    d->positions.resize(std::size_t(n * n));
    for (long long i = 0; i < n; ++i)
      for (long long j = 0; j < n; ++j)
        d->positions[std::size_t(i * n + j)] = j > i ? std::numeric_limits<float>::quiet_NaN() : float(d->counts.positions(i, j));
    d->vmax = std::max(1.0, d->counts.positions.maxCoeff());
    d->version = ++next_version;
    cached = d;
    key = k;
  }
  return *cached;
}

long long query_of(const AppState& s, long long tokens) { return std::clamp<long long>(s.position, 0, tokens - 1); }

// The sentence as chips: counted tokens (gate 1) filled, the query framed; a click picks the query.
void draw_tokens(AppState& s, const CopeData& d, bool interactive) {
  const auto& tokens = d.counts.tokens;
  const long long query = query_of(s, static_cast<long long>(tokens.size()));
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  const ImU32 counted = plot::series_color(1), frame = plot::series_color(0);
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string label = tokens[k] + "##tok" + std::to_string(k);
    const ImVec2 size = ImGui::CalcTextSize(tokens[k].c_str());
    const float w = size.x + style.FramePadding.x * 2;
    if (k > 0) {
      ImGui::SameLine(0, style.ItemSpacing.x * 0.5f);
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const ImVec2 box{w, size.y + style.FramePadding.y * 2};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (d.counts.gates[Eigen::Index(k)] > 0.5) dl->AddRectFilled(p, {p.x + box.x, p.y + box.y}, (counted & 0x00FFFFFF) | 0x80000000, 3.0f);
    if (static_cast<long long>(k) == query) dl->AddRect(p, {p.x + box.x, p.y + box.y}, frame, 3.0f, 0, 2.0f * plot::pixel_scale());
    if (interactive) {
      if (ImGui::InvisibleButton(label.c_str(), box) && static_cast<long long>(k) < s.length) s.position = static_cast<long long>(k);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("token %zu \"%s\": gate %g%s", k, tokens[k].c_str(), d.counts.gates[Eigen::Index(k)],
                          static_cast<long long>(k) == query ? " (the query)" : "; click: make it the query");
    } else {
      ImGui::Dummy(box);
    }
    dl->AddText({p.x + style.FramePadding.x, p.y + style.FramePadding.y}, ImGui::GetColorU32(ImGuiCol_Text), tokens[k].c_str());
  }
}

void draw_map(const AppState& s, const CopeData& d, ImVec2 size) {
  const long long n = static_cast<long long>(d.counts.tokens.size());
  const float bar_w = plot::colorbar_width("p", 0.0, d.vmax);
  if (plot::begin_plot("##cope-map", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y},
                       {.title = "Counted position p_ij (query i, key j)", .legend = false})) {
    plot::setup_axes({.label = "key j (token)", .min = -0.5, .max = double(n) - 0.5, .format = "%.0f"},
                     {.label = "query i (token)", .min = -0.5, .max = double(n) - 0.5, .invert = true, .format = "%.0f"});
    plot::plot_value_heatmap("p", {.values = d.positions, .rows = int(n), .columns = int(n), .x0 = -0.5, .x1 = double(n) - 0.5, .y0 = -0.5,
                                   .y1 = double(n) - 0.5, .colormap = plot::Colormap::Viridis, .vmin = 0.0, .vmax = d.vmax,
                                   .version = d.version, .y_down = true});
    const double q = double(query_of(s, n));
    plot::plot_hline("##query", q, {.color = plot::series_color(0), .thickness = 1.5f, .dashed = true, .in_legend = false});
    if (plot::is_plot_hovered()) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, n - 1);
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, n - 1);
      const auto& t = d.counts.tokens;
      if (j <= i)
        plot::hover_text("query %lld \"%s\", key %lld \"%s\": p = %.6g (token distance i − j + 1 = %lld)", i, t[std::size_t(i)].c_str(), j,
                         t[std::size_t(j)].c_str(), d.counts.positions(i, j), i - j + 1);
      else
        plot::hover_text("query %lld, key %lld: a later key, masked (counts nothing)", i, j);
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("p", 0.0, d.vmax, plot::Colormap::Viridis, {bar_w, size.y});
}

void draw_query(const AppState& s, const CopeData& d, ImVec2 size) {
  const long long n = static_cast<long long>(d.counts.tokens.size());
  const long long i = query_of(s, n);
  const std::string title = "What query " + std::to_string(i) + " \"" + d.counts.tokens[std::size_t(i)] + "\" sees";
  if (plot::begin_plot("##cope-query", size, {.title = title.c_str()})) {
    plot::setup_axes({.label = "key j (token)", .min = -0.5, .max = double(n) - 0.5, .format = "%.0f"}, {.label = "position of the key"});
    std::vector<double> counted(static_cast<std::size_t>(n)), tokens(static_cast<std::size_t>(n));
    for (long long j = 0; j < n; ++j) {
      counted[std::size_t(j)] = j <= i ? d.counts.positions(i, j) : std::numeric_limits<double>::quiet_NaN();
      tokens[std::size_t(j)] = j <= i ? double(i - j + 1) : std::numeric_limits<double>::quiet_NaN();
    }
    plot_bars("CoPE: gates counted (p_ij)", counted, 0.0, 0.0, {.color = plot::series_color(1)});
    plot::plot_line("tokens counted (i − j + 1)", index_axis(n), tokens, {.color = plot::series_color(0), .thickness = 2.0f});
    if (d.counts.npos_max - 1 < double(n))
      plot::plot_hline("npos_max − 1", double(d.counts.npos_max - 1), {.color = kTrainingColor, .thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered()) {
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, n - 1);
      if (j <= i)
        plot::hover_text("key %lld \"%s\": p = %.6g (clamped at npos_max − 1 = %lld); %lld tokens back", j, d.counts.tokens[std::size_t(j)].c_str(),
                         d.counts.positions(i, j), d.counts.npos_max - 1, i - j);
      else
        plot::hover_text("key %lld: after the query, masked", j);
    }
    plot::end_plot();
  }
}

}  // namespace

void draw_cope_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  if (ctx.show_widgets()) {
    const float w = ImGui::GetContentRegionAvail().x;
    if (is_narrow_view(ctx, ctx.size.x)) {
      // A phone: the whole sentence in view, broken at spaces (one for one, so the caret
      // keeps its place), back to spaces when it is read.
      const ImGuiStyle& style = ImGui::GetStyle();
      std::string lines = wrapped_at_spaces(s.cope_text, w - 2.0f * style.FramePadding.x - style.ScrollbarSize);
      const float rows = float(std::count(lines.begin(), lines.end(), '\n') + 1);
      ImGui::InputTextMultiline("##cope_text", &lines, {w, rows * ImGui::GetTextLineHeight() + 2.0f * style.FramePadding.y});
      std::replace(lines.begin(), lines.end(), '\n', ' ');
      s.cope_text = lines;
    } else {
      ImGui::SetNextItemWidth(std::max(120.0f, w * 0.45f));
      ImGui::InputText("##cope_text", &s.cope_text);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("cope_text: the sentence counted over (words and punctuation marks are tokens; 1 … %lld tokens).", kMaxViewCopeTokens);
    row_next(ctx, 170.0f * plot::pixel_scale() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("gates").x);
    ImGui::SetNextItemWidth(170.0f * plot::pixel_scale());
    if (ImGui::BeginCombo("gates", s.cope_gates.c_str())) {
      for (const char* g : {"every-token", "sentence-ends", "words", "punctuation"})
        if (ImGui::Selectable(g, s.cope_gates == g)) s.cope_gates = g;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("cope_gates = %s: which tokens the 0/1 gates count, standing in for the trained σ(q·k).", s.cope_gates.c_str());
  }
  if (show_relative_error(s)) return;
  const CopeData& d = data_for(s);
  draw_tokens(s, d, ctx.show_widgets());
  const char* const note =
      "CoPE counts instead of indexing: p_ij sums the gates of the tokens from key j to query i, so with sentence-end gates a "
      "query sees \"this sentence, the one before\" whatever their lengths. every-token gives plain relative positions (i − j + 1). "
      "The gates are rules here; CoPE learns them as σ(q·k).";
  const float note_h = teaching_note_height(note);
  const float h = ImGui::GetContentRegionAvail().y - note_h;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  if (is_narrow_view(ctx, ctx.size.x)) {  // a phone: the map above what one query sees
    const float top = (h - ImGui::GetStyle().ItemSpacing.y) * 0.5f;
    draw_map(s, d, {ctx.size.x, top});
    draw_query(s, d, {ctx.size.x, h - top - ImGui::GetStyle().ItemSpacing.y});
  } else {
    const float left_w = (ctx.size.x - spacing) * 0.45f, right_w = ctx.size.x - spacing - left_w;
    draw_map(s, d, {left_w, h});
    ImGui::SameLine();
    draw_query(s, d, {right_w, h});
  }
  teaching_note(note);
}

namespace {

std::string cope_csv(const AppState& s, const Derived&) {
  if (const std::string e = relative_error(s); !e.empty()) throw std::runtime_error(e);
  const pe::CopeCounts c = count(s);
  const long long n = static_cast<long long>(c.tokens.size());
  std::ostringstream out;
  out << "# gates " << s.cope_gates << ", npos_max " << c.npos_max << "; position = sum of the key-to-query gates, clamped at npos_max - 1\n";
  long long first = 0, last = n - 1;
  if (n * (n + 1) / 2 > kMaxCsvRows) {
    first = last = query_of(s, n);
    out << "# " << n * (n + 1) / 2 << " (query, key) pairs: only query " << first << "'s keys\n";
  }
  out << "query,key,query_token,key_token,key_gate,position\n";
  for (long long i = first; i <= last; ++i)
    for (long long j = 0; j <= i; ++j)
      out << i << ',' << j << ',' << csv_text(c.tokens[std::size_t(i)]) << ',' << csv_text(c.tokens[std::size_t(j)]) << ','
          << csv_number(c.gates[j]) << ',' << csv_number(c.positions(i, j)) << "\n";
  return out.str();
}

std::vector<std::string> cope_formula(const AppState& s, const Derived&) {
  const std::string general = "p_ij = min(Σ_{t=j..i} g_it, npos_max − 1);  logit_ij = q_i·k_j + q_i·e[p_ij] (e interpolated between ⌊p⌋ and ⌈p⌉)";
  if (const std::string e = relative_error(s); !e.empty()) return {general, e};
  const pe::CopeCounts c = count(s);
  const long long n = static_cast<long long>(c.tokens.size()), i = query_of(s, n);
  return {general, formatted("gates %s, %lld tokens:  query %lld \"%s\" sees key 0 \"%s\" at p = %g (%lld tokens back)", s.cope_gates.c_str(), n,
                             i, c.tokens[std::size_t(i)].c_str(), c.tokens[0].c_str(), c.positions(i, 0), i)};
}

constexpr const char* kAnimatable[] = {"cope_npos_max", "position"};
constexpr const char* kPanel[] = {"cope_text", "cope_gates", "cope_npos_max"};

}  // namespace

const ViewInfo& cope_view() {
  static const ViewInfo info{
      .name = "cope",
      .title = "CoPE",
      .summary = "CoPE: positions counted by gates over an editable sentence, and what one query sees",
      .group = "Long context",
      .draw = draw_cope_view,
      .csv = cope_csv,
      .formula = cope_formula,
      .animatable = kAnimatable,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
