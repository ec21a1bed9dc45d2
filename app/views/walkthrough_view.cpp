// The worked example with d = 4 (q = [0.8, 0.3, −0.5, 0.2], θ = 10000, p = 1), one step at a time, with every number substituted: the
// frequencies, the angles, each multiplication of the rotation, two positions and their
// angle differences, and the score that depends only on the distance. The arithmetic is
// core's (pe/analysis/walkthrough.hpp, unit-tested); this file only lays it out.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "pe/analysis/walkthrough.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {

constexpr ImU32 kAtP = IM_COL32(70, 140, 230, 255);     // q at p
constexpr ImU32 kAtPb = IM_COL32(240, 110, 40, 255);    // q at p_b
constexpr ImU32 kBefore = IM_COL32(150, 150, 150, 200);  // q at position 0 (not rotated)

const char* const kStepTitles[kWalkthroughSteps] = {
    "Frequencies: one per pair, freq_i = 1 / θ^(2i/d)",
    "Angles at position p: angle_i = p · freq_i",
    "Rotate each pair of q by its angle",
    "Two positions p and p_b: only the angle difference matters",
    "The score q·k depends only on the distance p_b − p",
};

// Values appended when d grows by 2, so new pairs are visible hands (not zero-length).
constexpr double kExtraEntries[] = {0.6, -0.4, 0.1, 0.9, -0.7, 0.3, 0.5, -0.2, -0.3, 0.7, 0.4, 0.6};

std::string fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s[0] == '-') {
    // "−0.00000" is a rounding artefact; otherwise a visible minus sign (U+2212).
    if (s.find_first_not_of("-0.") == std::string::npos) return s.substr(1);
    return "−" + s.substr(1);
  }
  return s;
}

std::string vector_text(const std::vector<double>& v, int decimals) {
  std::string s = "[";
  for (std::size_t j = 0; j < v.size(); ++j) s += (j ? ", " : "") + fixed(v[j], decimals);
  return s + "]";
}

std::string short_vector(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t j = 0; j < v.size(); ++j) s += (j ? ", " : "") + pe::short_number(v[j]);
  return s + "]";
}

// Subscript digits for positions in q₁ · k₃ (the font has U+2080 … U+2089).
std::string sub(long long n) {
  static const char* const digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  std::string s;
  for (char c : std::to_string(n)) s += digits[c - '0'];
  return s;
}

bool is_worked_example(const AppState& s) {
  return s.walkthrough_q == std::vector<double>{0.8, 0.3, -0.5, 0.2} && s.walkthrough_theta == 10000.0 &&
         s.walkthrough_position == 1;
}


// A phone (is_narrow_view): the tables keep each formula on one line and scroll sideways,
// rather than squeeze their formula column until the headers are cut.
bool g_narrow = false;

bool begin_numbers_table(const char* id, int columns) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  return g_narrow ? begin_scrolling_table(id, columns, flags) : ImGui::BeginTable(id, columns, flags);
}

void heading(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_PlotLinesHovered]);
  if (g_narrow) text_line_wrapped(text);  // a phone: on two lines rather than past the edge
  else ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
}

// The formula column: stretched to the table's width, or (a phone) as wide as its text.
ImGuiTableColumnFlags formula_column() { return g_narrow ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch; }

// Text wrapped only at `sep` (ImGui's own wrapping breaks numbers after their decimal
// point): formulas at " = ", so each line is a whole step of the arithmetic, vectors at ", ".
// A new line starts with `lead` ("= " for formulas).
void wrapped(const std::string& text, const std::string& sep, const std::string& lead) {
  const float avail = ImGui::GetContentRegionAvail().x;
  float line = 0;
  std::size_t start = 0;
  bool first = true;
  while (true) {
    const std::size_t at = text.find(sep, start);
    const std::string part = text.substr(start, at == std::string::npos ? std::string::npos : at - start);
    const std::string joined = first ? part : sep + part;
    const float w = ImGui::CalcTextSize(joined.c_str()).x;
    if (first || line + w > avail) {
      const std::string shown = first ? part : lead + part;
      ImGui::TextUnformatted(shown.c_str());
      line = ImGui::CalcTextSize(shown.c_str()).x;
    } else {
      ImGui::SameLine(0.0f, 0.0f);
      ImGui::TextUnformatted(joined.c_str());
      line += w;
    }
    first = false;
    if (at == std::string::npos) break;
    start = at + sep.size();
  }
}

void cell(const std::string& text, bool wrap = false) {
  ImGui::TableNextColumn();
  if (wrap && !g_narrow)
    wrapped(text, " = ", "= ");
  else
    ImGui::TextUnformatted(text.c_str());
}

float labelled_width(float field, const char* label) {
  return field + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

// One pair as clock hands: grey at position 0, then each rotated hand with its arc.
struct Hand {
  double x, y;
  double angle;  // rotation from the grey hand (rad)
  ImU32 color;
};
void draw_hands(const char* id, const std::string& title, float size, double x0, double y0, const std::vector<Hand>& hands) {
  if (!plot::begin_plot(id, {size, size}, {.title = title.c_str(), .legend = false, .crosshair = false, .equal_aspect = true}))
    return;
  const double radius = std::max(std::hypot(x0, y0), 1e-9);
  const double r = radius * 1.3;
  plot::setup_axes({.label = "", .min = -r, .max = r, .lock = true, .format = "%.2g"},
                   {.label = "", .min = -r, .max = r, .lock = true, .format = "%.2g"});
  plot::plot_circle("circle", radius, {.color = IM_COL32(128, 128, 128, 90), .thickness = 1.0f, .in_legend = false});
  plot::plot_arrow(0, 0, x0, y0, kBefore, 2.0f);
  const double start = std::atan2(y0, x0);
  int k = 0;
  for (const Hand& h : hands) {
    // The arc shows the turn (whole turns dropped: a hand cannot show them).
    const double sweep = std::fmod(h.angle, 2.0 * std::numbers::pi);
    const double arc_r = radius * (0.35 + 0.15 * k++);
    std::vector<double> ax, ay;
    for (int j = 0; j <= 48; ++j) {
      const double a = start + sweep * j / 48.0;
      ax.push_back(arc_r * std::cos(a));
      ay.push_back(arc_r * std::sin(a));
    }
    plot::plot_line("arc", ax, ay, {.color = h.color, .thickness = 1.5f, .in_legend = false});
    plot::plot_arrow(0, 0, h.x, h.y, h.color, 3.0f);
  }
  plot::end_plot();
}

// Hands fill the width (one row) and the height left under the numbers, within limits.
float hand_size(const ViewContext& ctx, std::size_t pairs) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float by_width = (ctx.size.x - spacing * float(pairs)) / float(std::max<std::size_t>(pairs, 1));
  const float by_height = ImGui::GetContentRegionAvail().y - 2.5f * ImGui::GetTextLineHeightWithSpacing();
  const float em = ImGui::GetFontSize();
  // Below 10 em a hand is unreadable: then the steps scroll instead.
  return std::clamp(std::min(by_width, std::max(by_height, 10.0f * em)), 7.0f * em, 18.0f * em);
}

// Degrees as a clock shows them (whole turns dropped), for the hands' titles.
std::string clock_degrees(double rad) {
  double deg = std::fmod(rad * 180.0 / std::numbers::pi, 360.0);
  if (deg < 0) deg += 360.0;
  return pe::short_number(deg) + "°";
}

// ---- Steps -------------------------------------------------------------------------------

// Each pair's angle as a unit clock hand turned from 3 o'clock (steps 1 and 2).
void angle_clocks(const ViewContext& ctx, const pe::WalkthroughResult& r, bool per_position, const char* note) {
  const float size = hand_size(ctx, r.pairs.size());
  for (std::size_t n = 0; n < r.pairs.size(); ++n) {
    const auto& w = r.pairs[n];
    if (n) ImGui::SameLine();
    const double a = per_position ? w.freq : w.angle;
    const std::string title = "pair " + std::to_string(w.index) + ": " + clock_degrees(a);
    draw_hands(((per_position ? "##freq" : "##angle") + std::to_string(n)).c_str(), title, size, 1.0, 0.0,
               {{std::cos(a), std::sin(a), a, kAtP}});
  }
  teaching_note(note);
}

void step_frequencies(const ViewContext& ctx, const pe::WalkthroughResult& r, bool current) {
  if (begin_numbers_table("##freq", 3)) {
    ImGui::TableSetupColumn("pair i");
    ImGui::TableSetupColumn("dims");
    ImGui::TableSetupColumn("freq_i = 1 / θ^(2i/d)   (radians per position)", formula_column());
    ImGui::TableHeadersRow();
    for (const auto& w : r.pairs) {
      ImGui::TableNextRow();
      cell(std::to_string(w.index));
      cell(std::to_string(w.dim_a) + ", " + std::to_string(w.dim_b));
      cell(pe::frequency_formula(r, w), true);
    }
    ImGui::EndTable();
  }
  if (!current) return;
  teaching_note("Pair 0 always turns 1 radian per position (the fastest); each later pair turns θ^(2/d) times slower. "
                "The pairs are dims (2i, 2i+1), as in RoFormer (Su et al. 2021).");
  angle_clocks(ctx, r, true, "How far each pair turns for one step in position: freq_i radians.");
}

void step_angles(const ViewContext& ctx, const pe::WalkthroughResult& r, bool current) {
  const std::string header = "angle_i = p · freq_i   (p = " + std::to_string(r.input.position) + ")";
  if (begin_numbers_table("##angles", 3)) {
    ImGui::TableSetupColumn("pair i");
    ImGui::TableSetupColumn(header.c_str(), formula_column());
    ImGui::TableSetupColumn("on a clock (whole turns dropped)");
    ImGui::TableHeadersRow();
    for (const auto& w : r.pairs) {
      ImGui::TableNextRow();
      cell(std::to_string(w.index));
      cell(pe::angle_formula(r, w), true);
      const double turns = std::floor(w.angle / (2 * std::numbers::pi));
      cell(turns >= 1 ? pe::short_number(w.angle_deg - 360.0 * turns) + "° after " + pe::short_number(turns) + " turns"
                      : pe::short_number(w.angle_deg) + "°");
    }
    ImGui::EndTable();
  }
  const std::string note = "Tutorials often write this angle as θ₀, θ₁; here θ is only the base (" + pe::short_number(r.input.theta) +
                           "), to keep the two apart. 1 rad = 57.3°.";
  if (!current) return;
  teaching_note(note.c_str());
  angle_clocks(ctx, r, false, "The angle of each pair at position p (whole turns do not show on a clock).");
}

void step_rotation(const ViewContext& ctx, const pe::WalkthroughResult& r, bool worked_example, bool current) {
  const int columns = worked_example ? 4 : 3;
  if (begin_numbers_table("##rotation", columns)) {
    ImGui::TableSetupColumn("dim");
    ImGui::TableSetupColumn("x' = x·cos(angle) − y·sin(angle)\ny' = x·sin(angle) + y·cos(angle)", formula_column());
    ImGui::TableSetupColumn("exact");
    if (worked_example) ImGui::TableSetupColumn("often printed");
    ImGui::TableHeadersRow();
    for (const auto& w : r.pairs) {
      const auto f = pe::rotation_formulas(w);
      for (int k = 0; k < 2; ++k) {
        ImGui::TableNextRow();
        cell("dim" + std::to_string(k ? w.dim_b : w.dim_a) + "'");
        cell(f[std::size_t(k)], true);
        cell(fixed(k ? w.y_rot : w.x_rot, 5));
        if (worked_example) cell(fixed(k ? w.y_rot_printed : w.x_rot_printed, 3));
      }
    }
    ImGui::EndTable();
  }
  wrapped("q' = " + vector_text(r.rotated, 5) + "   (exact, at p = " + std::to_string(r.input.position) + ")", ", ", "   ");
  if (!current) return;
  if (worked_example) {
    std::vector<double> rounded = r.rotated;
    for (double& x : rounded) x = pe::round_to(x, 3);
    wrapped("The exact q' rounded to 3 decimals: " + vector_text(rounded, 3), ", ", "   ");
    wrapped("Often printed: " + vector_text(r.rotated_printed, 3), ", ", "   ");
    teaching_note("Why 0.179 and 0.836 and not 0.180 and 0.835 (the exact values rounded)? The hand "
                  "calculation rounds before it multiplies: it takes cos 1 = 0.540 and sin 1 = 0.842 — sin 1 is 0.84147, which rounds to 0.841; 0.842 "
                  "comes from rounding twice (0.8415, then 0.842) — and rounds every product to 3 decimals before adding. "
                  "The rotation itself is right.");
  }
  // Clock hands: grey before, blue after; the arc is the turn by angle_i.
  const float size = hand_size(ctx, r.pairs.size());
  for (std::size_t n = 0; n < r.pairs.size(); ++n) {
    const auto& w = r.pairs[n];
    if (n) ImGui::SameLine();
    const std::string title = "pair " + std::to_string(w.index) + ": +" + clock_degrees(w.angle);
    draw_hands(("##rot" + std::to_string(n)).c_str(), title, size, w.x, w.y, {{w.x_rot, w.y_rot, w.angle, kAtP}});
  }
  teaching_note("Grey: the pair before rotation. Blue: after, at position p. The length of each hand never changes.");
}

void step_two_positions(const ViewContext& ctx, const pe::WalkthroughResult& r, bool current) {
  const long long p = r.input.position, pb = r.input.position_b;
  const std::string h1 = "angle at p = " + std::to_string(p), h2 = "angle at p_b = " + std::to_string(pb);
  const std::string h3 = "difference = (" + std::to_string(pb) + " − " + std::to_string(p) + ") · freq_i";
  if (begin_numbers_table("##positions", 4)) {
    ImGui::TableSetupColumn("pair i");
    ImGui::TableSetupColumn(h1.c_str());
    ImGui::TableSetupColumn(h2.c_str());
    ImGui::TableSetupColumn(h3.c_str(), formula_column());
    ImGui::TableHeadersRow();
    for (const auto& w : r.pairs) {
      ImGui::TableNextRow();
      cell(std::to_string(w.index));
      cell(pe::short_number(w.angle) + " rad");
      cell(pe::short_number(w.angle_b) + " rad");
      cell(pe::short_number(w.angle_b) + " − " + pe::short_number(w.angle) + " = " + pe::short_number(w.delta_angle) + " rad", true);
    }
    ImGui::EndTable();
  }
  if (!current) return;
  teaching_note(("The difference is (p_b − p) · freq_i = " + std::to_string(pb - p) +
                 " · freq_i: it depends only on the distance, not on where the two positions are.")
                    .c_str());
  const float size = hand_size(ctx, r.pairs.size());
  for (std::size_t n = 0; n < r.pairs.size(); ++n) {
    const auto& w = r.pairs[n];
    if (n) ImGui::SameLine();
    const double c = std::cos(w.angle_b), s = std::sin(w.angle_b);
    const std::string title = "pair " + std::to_string(w.index) + ": Δ " + clock_degrees(w.delta_angle);
    draw_hands(("##two" + std::to_string(n)).c_str(), title, size, w.x, w.y,
               {{w.x_rot, w.y_rot, w.angle, kAtP}, {w.x * c - w.y * s, w.x * s + w.y * c, w.angle_b, kAtPb}});
  }
  teaching_note("Blue: q at p. Orange: the same vector at p_b. The angle between them is the difference above.");
}

void step_score(const ViewContext& ctx, const pe::WalkthroughResult& r, bool current) {
  const long long p = r.input.position, pb = r.input.position_b, sh = r.input.shift;
  text_wrapped("Key k = q (the same vector, rotated to p_b), so each pair adds |pair|² · cos(difference). "
                     "Any other k gives other numbers but the same conclusion.");
  const std::string h1 = "share of q" + sub(p) + " · k" + sub(pb);
  const std::string h2 = "share of q" + sub(p + sh) + " · k" + sub(pb + sh);
  if (begin_numbers_table("##score", 5)) {
    ImGui::TableSetupColumn("pair i");
    ImGui::TableSetupColumn("|pair|²");
    ImGui::TableSetupColumn("cos(difference)");
    ImGui::TableSetupColumn(h1.c_str());
    ImGui::TableSetupColumn(h2.c_str());
    ImGui::TableHeadersRow();
    for (const auto& w : r.pairs) {
      ImGui::TableNextRow();
      cell(std::to_string(w.index));
      cell(pe::short_number(w.x * w.x + w.y * w.y));
      cell(fixed(std::cos(w.delta_angle), 5));
      cell(fixed(w.score_term, 5));
      cell(fixed(w.score_term_shifted, 5));
    }
    ImGui::TableNextRow();
    cell("sum");
    cell("");
    cell("");
    cell(fixed(r.score, 5));
    cell(fixed(r.score_shifted, 5));
    ImGui::EndTable();
  }
  char diff[64];
  std::snprintf(diff, sizeof diff, "%.1e", std::fabs(r.score - r.score_shifted));
  ImGui::Text("q%s · k%s = %s   (distance %lld)", sub(p).c_str(), sub(pb).c_str(), fixed(r.score, 5).c_str(), pb - p);
  ImGui::Text("q%s · k%s = %s   (distance %lld too: the same, up to %s of rounding)", sub(p + sh).c_str(), sub(pb + sh).c_str(),
              fixed(r.score_shifted, 5).c_str(), pb - p, diff);
  ImGui::Text("q%s · k%s = %s   (distance %lld: a different score)", sub(p).c_str(), sub(pb + 1).c_str(),
              fixed(r.score_other_distance, 5).c_str(), pb + 1 - p);
  if (!current) return;
  teaching_note("Rotating both vectors by the same extra angle (shifting both positions) leaves their dot product unchanged: "
                "attention with RoPE sees only the relative distance.");
  // The fastest and the slowest pair at both position pairs: the same angle between the hands.
  std::vector<const pe::WalkthroughPair*> shown = {&r.pairs.front()};
  if (r.pairs.size() > 1) shown.push_back(&r.pairs.back());
  const float size = hand_size(ctx, 2 * shown.size());
  int n = 0;
  for (const auto* w : shown) {
    for (long long offset : {0LL, sh}) {
      if (n++) ImGui::SameLine();
      const double a = double(p + offset) * w->freq, b = double(pb + offset) * w->freq;
      const std::string title = "pair " + std::to_string(w->index) + ": q" + sub(p + offset) + ", k" + sub(pb + offset);
      draw_hands(("##score" + std::to_string(n)).c_str(), title, size, w->x, w->y,
                 {{w->x * std::cos(a) - w->y * std::sin(a), w->x * std::sin(a) + w->y * std::cos(a), a, kAtP},
                  {w->x * std::cos(b) - w->y * std::sin(b), w->x * std::sin(b) + w->y * std::cos(b), b, kAtPb}});
    }
  }
  teaching_note("Blue: q, orange: k, for the fastest and the slowest pair. Shifting both positions turns both hands together; "
                "the angle between them — and so their dot product — stays.");
}

// ---- Inputs ------------------------------------------------------------------------------

void inputs(AppState& s) {
  const float em = ImGui::GetFontSize();
  const long long d = static_cast<long long>(s.walkthrough_q.size());
  ImGui::AlignTextToFramePadding();
  ImGui::Text("q =");
  ImGui::SameLine();
  const float first_x = ImGui::GetCursorPosX();
  const float field = 4.8f * em, spacing = ImGui::GetStyle().ItemSpacing.x;
  const long long per_row = std::clamp<long long>(
      static_cast<long long>((ImGui::GetWindowContentRegionMax().x - first_x + spacing) / (field + spacing)), 1, 8);
  for (long long j = 0; j < d; ++j) {
    if (j % per_row != 0) ImGui::SameLine();
    else if (j > 0) ImGui::SetCursorPosX(first_x);
    ImGui::PushID(int(j));
    ImGui::SetNextItemWidth(4.8f * em);
    double v = s.walkthrough_q[std::size_t(j)];
    if (ImGui::InputDouble("##q", &v, 0.0, 0.0, "%.3g") && std::isfinite(v)) s.walkthrough_q[std::size_t(j)] = v;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("walkthrough_q[%lld] (dim %lld of the query vector)", j, j);
    ImGui::PopID();
  }
  same_line_if_fits(button_width("d − 2"));
  ImGui::BeginDisabled(d <= 2);
  if (ImGui::Button("d − 2")) s.walkthrough_q.resize(std::size_t(d - 2));
  ImGui::EndDisabled();
  same_line_if_fits(button_width("d + 2"));
  ImGui::BeginDisabled(d >= kMaxWalkthroughDim);
  if (ImGui::Button("d + 2")) {
    s.walkthrough_q.push_back(kExtraEntries[std::size_t(d) % std::size(kExtraEntries)]);
    s.walkthrough_q.push_back(kExtraEntries[std::size_t(d + 1) % std::size(kExtraEntries)]);
  }
  ImGui::EndDisabled();
  same_line_if_fits(ImGui::CalcTextSize("d = 16").x);
  ImGui::Text("d = %lld", d);

  ImGui::SetNextItemWidth(7.0f * em);
  double theta = s.walkthrough_theta;
  if (ImGui::InputDouble("θ (base)", &theta, 0.0, 0.0, "%.6g") && std::isfinite(theta) && theta > 1.0) s.walkthrough_theta = theta;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("walkthrough_theta: the base θ in freq_i = 1/θ^(2i/d), > 1");
  const long long zero = 0, max_pos = 1000000000, one = 1;
  const float stepper = 7.0f * em + 2 * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
  same_line_if_fits(labelled_width(stepper, "p"));
  ImGui::SetNextItemWidth(7.0f * em);
  ImGui::InputScalar("p", ImGuiDataType_S64, &s.walkthrough_position, &one, nullptr, "%lld");
  s.walkthrough_position = std::clamp(s.walkthrough_position, zero, max_pos);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("walkthrough_position: the position of q (steps 2 – 5)");
  same_line_if_fits(labelled_width(stepper, "p_b"));
  ImGui::SetNextItemWidth(7.0f * em);
  ImGui::InputScalar("p_b", ImGuiDataType_S64, &s.walkthrough_position_b, &one, nullptr, "%lld");
  s.walkthrough_position_b = std::clamp(s.walkthrough_position_b, zero, max_pos);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("walkthrough_position_b: the second position (steps 4 and 5)");
  same_line_if_fits(button_width("d = 4 example"));
  if (ImGui::Button("d = 4 example")) {
    s.walkthrough_q = {0.8, 0.3, -0.5, 0.2};
    s.walkthrough_theta = 10000.0;
    s.walkthrough_position = 1;
    s.walkthrough_position_b = 3;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The worked example with d = 4: q = [0.8, 0.3, −0.5, 0.2], θ = 10000, p = 1, p_b = 3.");
}

void step_bar(AppState& s) {
  const long long last = kWalkthroughSteps - 1;
  ImGui::BeginDisabled(s.walkthrough_step <= 0);
  if (ImGui::Button("◀ Previous")) s.walkthrough_step = std::max<long long>(s.walkthrough_step - 1, 0);
  ImGui::EndDisabled();
  ImGui::SameLine();
  for (long long k = 0; k <= last; ++k) {
    ImGui::PushID(int(k));
    const bool current = k == s.walkthrough_step;
    if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyle().Colors[ImGuiCol_ButtonActive]);
    if (ImGui::Button(std::to_string(k + 1).c_str())) s.walkthrough_step = k;
    if (current) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Step %lld: %s", k + 1, kStepTitles[k]);
    ImGui::PopID();
    ImGui::SameLine();
  }
  ImGui::BeginDisabled(s.walkthrough_step >= last);
  if (ImGui::Button("Next ▶")) s.walkthrough_step = std::min(s.walkthrough_step + 1, last);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The Left / Right arrow keys also change the step.");
}

}  // namespace

void draw_walkthrough_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  g_narrow = is_narrow_view(ctx, ctx.size.x);
  AppState& s = ctx.state;
  s.walkthrough_step = std::clamp<long long>(s.walkthrough_step, 0, kWalkthroughSteps - 1);
  if (ctx.show_widgets()) {
    step_bar(s);
    inputs(s);
  }
  pe::WalkthroughResult r;
  try {
    r = pe::compute_walkthrough({s.walkthrough_q, s.walkthrough_theta, s.walkthrough_position, s.walkthrough_position_b});
  } catch (const std::exception& e) {
    text_wrapped_unformatted(e.what());
    return;
  }
  const bool worked_example = is_worked_example(s);
  const long long step = s.walkthrough_step;
  if (ctx.exporting)
    text_wrapped("The worked example, %s%lld of %lld:   d = %lld,  θ = %s,  p = %lld,  p_b = %lld,  q = %s",
                       step == 0 ? "step " : "steps 1 – ", step + 1, kWalkthroughSteps, r.dim, pe::short_number(r.input.theta).c_str(), r.input.position, r.input.position_b,
                       short_vector(r.input.q).c_str());
  ImGui::Separator();

  // Steps 1 … current, one under the other (notes and clock hands only for the current
  // one); the window scrolls to the current step when it changes.
  // Keyed on what moves the layout too (d, font size), not just the step.
  static std::string scrolled_to;
  const std::string scroll_key = std::to_string(step) + "|" + std::to_string(r.dim) + "|" + std::to_string(ImGui::GetFontSize());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  ImGui::BeginChild("##walkthrough-steps", avail, false, ctx.exporting ? ImGuiWindowFlags_NoScrollbar : 0);
  for (long long k = 0; k <= step; ++k) {
    ImGui::PushID(int(k));
    const bool current = k == step;
    char title[160];
    std::snprintf(title, sizeof title, "Step %lld of %lld — %s", k + 1, kWalkthroughSteps, kStepTitles[k]);
    if (current) {
      heading(title);
      if (!ctx.exporting && scrolled_to != scroll_key) ImGui::SetScrollHereY(0.0f), scrolled_to = scroll_key;
    } else {
      ImGui::TextDisabled("%s", title);
    }
    switch (k) {
      case 0: step_frequencies(ctx, r, current); break;
      case 1: step_angles(ctx, r, current); break;
      case 2: step_rotation(ctx, r, worked_example, current); break;
      case 3: step_two_positions(ctx, r, current); break;
      default: step_score(ctx, r, current); break;
    }
    ImGui::PopID();
    if (!current) ImGui::Spacing();
  }
  ImGui::EndChild();
}

std::string walkthrough_csv(const AppState& s, const Derived&) {
  const pe::WalkthroughResult r =
      pe::compute_walkthrough({s.walkthrough_q, s.walkthrough_theta, s.walkthrough_position, s.walkthrough_position_b});
  std::ostringstream out;
  out << "# worked example: d = " << r.dim << ", theta = " << csv_number(r.input.theta) << ", p = " << r.input.position
      << ", p_b = " << r.input.position_b << ", k = q; score(p, p_b) = " << csv_number(r.score) << ", score(p + " << r.input.shift
      << ", p_b + " << r.input.shift << ") = " << csv_number(r.score_shifted) << ", score(p, p_b + 1) = " << csv_number(r.score_other_distance)
      << "\n";
  out << "pair,dim_a,dim_b,theta_power,freq,angle_rad,angle_deg,cos,sin,x,y,x_rotated,y_rotated,x_rotated_printed_arithmetic,"
         "y_rotated_printed_arithmetic,angle_b_rad,delta_angle_rad,score_share,score_share_shifted\n";
  for (const auto& w : r.pairs)
    out << w.index << ',' << w.dim_a << ',' << w.dim_b << ',' << csv_number(w.theta_power) << ',' << csv_number(w.freq) << ',' << csv_number(w.angle) << ','
        << csv_number(w.angle_deg) << ',' << csv_number(w.cos) << ',' << csv_number(w.sin) << ',' << csv_number(w.x) << ',' << csv_number(w.y) << ',' << csv_number(w.x_rot) << ','
        << csv_number(w.y_rot) << ',' << csv_number(w.x_rot_printed) << ',' << csv_number(w.y_rot_printed) << ',' << csv_number(w.angle_b) << ',' << csv_number(w.delta_angle) << ','
        << csv_number(w.score_term) << ',' << csv_number(w.score_term_shifted) << "\n";
  return out.str();
}

namespace {

std::vector<std::string> walkthrough_formula(const AppState& s, const Derived&) {
  const double q0 = s.walkthrough_q[0], q1 = s.walkthrough_q[1];
  const double a = double(s.walkthrough_position);
  return {"q' = R(p·θ_i) q per pair:  x' = x cos(pθ_i) − y sin(pθ_i),  y' = x sin(pθ_i) + y cos(pθ_i)",
          formatted("pair 0, p = %lld:  x' = %.3g·cos(%g) − %.3g·sin(%g) = %.5f", s.walkthrough_position, q0, a, q1, a,
                    q0 * std::cos(a) - q1 * std::sin(a))};
}

void step_walkthrough(AppState& s, int delta) {
  s.walkthrough_step = std::clamp<long long>(s.walkthrough_step + delta, 0, kWalkthroughSteps - 1);
}

}  // namespace

namespace {
constexpr const char* kAnimatable[] = {"walkthrough_theta", "walkthrough_position", "walkthrough_position_b", "walkthrough_step"};
}  // namespace

const ViewInfo& walkthrough_view() {
  static const ViewInfo info{
      .name = "walkthrough",
      .title = "Walkthrough",
      .summary = "The worked example with d = 4 step by step: frequencies, angles, each multiplication",
      .group = "RoPE",
      .draw = draw_walkthrough_view,
      .csv = walkthrough_csv,
      .formula = walkthrough_formula,
      .step = step_walkthrough,
      .step_help = "walkthrough: previous / next step",
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
