// Which position axis (t, h, w) each rotary pair of one head follows under the four
// multi-axis schemes — contiguous M-RoPE (Qwen2-VL), interleaved M-RoPE (Qwen3-VL), a
// vision encoder's 2D RoPE and axial RoPE (FLUX) — for the same head, and each axis's
// wavelengths against the lengths it has to tell apart. Layouts come from core
// (pe/multimodal/multimodal.hpp: mrope_layout, vision_2d_layout, axial_layout), which cites the
// transformers / diffusers functions they follow.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "views/multimodal_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

struct SchemeRow {
  pe::MultiAxisScheme scheme = pe::MultiAxisScheme::MRope;
  bool ok = false;
  pe::MultiAxisLayout layout;
  std::string error;  // why this scheme cannot be built for the current head
};

std::vector<SchemeRow> scheme_rows(const MultimodalSetup& m, const AppState& s, const Derived& d) {
  std::vector<SchemeRow> rows;
  for (pe::MultiAxisScheme scheme : kMultiAxisSchemes) {
    SchemeRow r;
    r.scheme = scheme;
    try {
      r.layout = scheme_layout(scheme, m, s, d);
      r.ok = true;
    } catch (const pe::InvalidArgument& e) {
      r.error = e.what();
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

struct AxisSummary {
  long long count = 0, first = -1, last = -1;
  double lambda_min = std::numeric_limits<double>::infinity(), lambda_max = 0.0;
};

std::array<AxisSummary, 3> summarize(const pe::MultiAxisLayout& l) {
  std::array<AxisSummary, 3> a;
  for (long long i = 0; i < l.pairs(); ++i) {
    AxisSummary& s = a[std::size_t(l.axis_of_pair[i])];
    if (s.first < 0) s.first = i;
    s.last = i;
    ++s.count;
    const double lambda = wavelength(l.inv_freq_of_pair[i]);
    s.lambda_min = std::min(s.lambda_min, lambda);
    s.lambda_max = std::max(s.lambda_max, lambda);
  }
  return a;
}

bool is_mrope(pe::MultiAxisScheme s) { return pe::is_language_mrope(s); }

long long grid_side(const AppState& s) { return std::max(s.grid_rows, s.grid_cols); }

// What an axis has to tell apart: h and w the patch grid's side; t under M-RoPE also counts
// every text token, so the context length. 0: nothing to cover (vision 2D has no t; FLUX's
// t id is always 0).
double cover_length(pe::MultiAxisScheme scheme, int axis, const AppState& s) {
  if (axis != pe::kAxisT) return double(grid_side(s));
  return is_mrope(scheme) ? double(s.length) : 0.0;
}

std::string pair_range(const AxisSummary& a) {
  if (a.count == 0) return "none";
  if (a.last - a.first + 1 == a.count) return a.first == a.last ? formatted("%lld", a.first) : formatted("%lld–%lld", a.first, a.last);
  return formatted("%lld pairs between %lld and %lld", a.count, a.first, a.last);
}

std::string lambda_range(const AxisSummary& a) { return formatted("λ %.3g … %.3g", a.lambda_min, a.lambda_max); }

std::string row_label(const SchemeRow& r) {
  if (!r.ok) return std::string(scheme_title(r.scheme)) + ": " + r.error;
  const auto n = r.layout.pairs_per_axis();
  return formatted("%s · t %lld, h %lld, w %lld pairs", scheme_title(r.scheme), n[0], n[1], n[2]);
}

// What interleaving buys, said with the numbers of the current head.
std::string interleaving_note(const std::vector<SchemeRow>& rows, const AppState& s) {
  const SchemeRow& contiguous = rows[0];
  const SchemeRow& interleaved = rows[1];
  if (!contiguous.ok || !interleaved.ok) return "";
  const auto c = summarize(contiguous.layout), i = summarize(interleaved.layout);
  const double side = double(grid_side(s));
  std::string note = "Pair i turns at θ_i = θ^(−2i/d): pair 0 is the fastest, the last the slowest. Contiguous sections give";
  const char* role[] = {" t the fastest pairs", " h the middle ones", " w the slowest"};
  bool first = true;
  for (int a = 0; a < 3; ++a) {
    if (c[std::size_t(a)].count == 0) continue;
    note += formatted("%s%s (%s, %s)", first ? "" : (a == 2 ? " and" : ","), role[a], pair_range(c[std::size_t(a)]).c_str(),
                      lambda_range(c[std::size_t(a)]).c_str());
    first = false;
  }
  note += ".";
  const AxisSummary& w = c[pe::kAxisW];
  const AxisSummary& h = c[pe::kAxisH];
  if (w.count > 0 && h.count > 0)
    note += formatted(" Across a %lld-patch side w's fastest pair turns %.3g times, h's %.3g: h and w do not get the same "
                      "frequencies, and w gets no fast ones (the question of QwenLM/Qwen3-VL #621).",
                      grid_side(s), side / w.lambda_min, side / h.lambda_min);
  note += " Interleaving (Qwen3-VL) deals the pairs out t, h, w, t, h, w, …, so every axis gets fast and slow pairs:";
  first = true;
  for (int a = 0; a < 3; ++a) {
    if (i[std::size_t(a)].count == 0) continue;
    note += formatted("%s %s %s", first ? "" : ",", axis_name(a), lambda_range(i[std::size_t(a)]).c_str());
    first = false;
  }
  note += ".";
  for (const SchemeRow& r : rows)
    if (r.ok && r.scheme == pe::MultiAxisScheme::Ernie3D && summarize(r.layout)[pe::kAxisT].count > 0)
      note += formatted(" ERNIE 4.5 VL alternates h and w over the fast pairs and gives t, which also counts the text, only the "
                        "slowest (its fastest λ = %.3g positions).",
                        summarize(r.layout)[pe::kAxisT].lambda_min);
  note += " Vision 2D gives h and w the same ladder; axial gives each axis a full ladder of its own.";
  return note;
}

std::string short_interleaving_note(const std::vector<SchemeRow>& rows, const AppState& s) {
  if (!rows[0].ok) return "";
  const auto c = summarize(rows[0].layout);
  if (c[pe::kAxisW].count == 0) return "";
  return formatted("Contiguous: t gets the fastest pairs, w only the slowest (its fastest turns %.2g times across %lld patches). "
                   "Interleaved: every axis gets fast and slow pairs.",
                   double(grid_side(s)) / c[pe::kAxisW].lambda_min, grid_side(s));
}

// Text whose top-left is at (x, y) in plot coordinates, drawn only when it fits inside the
// plot's data area (a cut label would be worse than none).
bool plot_label(const std::string& text, double x, double y, ImVec2 offset, ImU32 color = 0) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float sc = plot::pixel_scale();
  const ImVec2 at = plot::to_pixels(x, y);
  const ImVec2 lo = plot::to_pixels(plot::visible_x_min(), plot::visible_y_max());
  const ImVec2 hi = plot::to_pixels(plot::visible_x_max(), plot::visible_y_min());
  const float x0 = at.x + offset.x * sc, y0 = at.y + offset.y * sc;
  if (x0 < lo.x || y0 < lo.y || x0 + size.x > hi.x || y0 + size.y > hi.y) return false;
  plot::plot_text(x, y, text.c_str(), color, offset);
  return true;
}

const char* short_scheme_name(pe::MultiAxisScheme s) {
  switch (s) {
    case pe::MultiAxisScheme::MRope: return "M-RoPE";
    case pe::MultiAxisScheme::MRopeInterleaved: return "interleaved";
    case pe::MultiAxisScheme::Vision2D: return "vision 2D";
    case pe::MultiAxisScheme::Axial: return "axial";
    case pe::MultiAxisScheme::Ernie3D: return "ERNIE 3D";
  }
  return "";
}

void draw_strips(ImVec2 size, const std::vector<SchemeRow>& rows, const MultimodalSetup& m, AppState& s) {
  // The colour key is drawn by hand in the right margin: the plot's legend would hide
  // when the rows are short (projector scales), leaving the colours unexplained.
  if (!plot::begin_plot("##mrope-strips", size,
                        {.title = "Which axis each rotary pair follows, the same head under each scheme", .legend = false,
                         .crosshair = false}))
    return;
  const double pairs = double(m.pairs);
  const double n = double(rows.size());
  const float em = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
  // Tall rows carry a title above each strip; short ones (projector scales) a name on the left.
  const bool titles = (size.y - plot_height_for(0.0f)) / float(n) >= 2.4f * line;
  float name_w = 0.0f;
  if (!titles)
    for (const SchemeRow& r : rows) name_w = std::max(name_w, ImGui::CalcTextSize(short_scheme_name(r.scheme)).x + em * 0.8f);
  // Room on the right for the colour key so it covers no pair, and on the left for names.
  const float key_w = ImGui::CalcTextSize("■ t (time / text)").x + em * 1.5f;
  const float data_w = std::max(size.x - em * 4.0f, (key_w + name_w) * 2.0f);
  const double per_px = pairs / double(data_w - key_w - name_w);
  const double left = -0.5 - per_px * name_w, right = pairs - 0.5 + per_px * key_w;
  plot::setup_axes({.label = "rotary pair i (fast → slow)", .min = left, .max = right, .lock = true},
                   {.label = "", .min = 0.0, .max = n, .lock = true, .format = " "});
  const double half = m.pairs > 128 ? 0.5 : 0.42;  // gaps only where a cell is wide enough to show them
  const double strip_lo = titles ? 0.08 : 0.15, strip_hi = titles ? 0.56 : 0.85;
  const float text_h = ImGui::GetTextLineHeight() / plot::pixel_scale();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const SchemeRow& r = rows[k];
    const double y = n - 1.0 - double(k);  // row k spans [y, y + 1], the first on top
    if (r.scheme == m.scheme)
      fill_cells("##shown", {{left, right, y + 0.02, y + 0.98}}, IM_COL32(128, 128, 128, 48), false);
    if (r.ok) {
      std::array<std::vector<Cell>, 3> cells;
      for (long long i = 0; i < r.layout.pairs(); ++i)
        cells[std::size_t(r.layout.axis_of_pair[i])].push_back({double(i) - half, double(i) + half, y + strip_lo, y + strip_hi});
      for (int a = 0; a < 3; ++a) {
        if (cells[std::size_t(a)].empty()) continue;
        const std::string label = formatted("%s (%s)", axis_name(a), axis_role(a));
        fill_cells(label.c_str(), cells[std::size_t(a)], axis_color(a), false);
      }
    }
    if (titles) {
      std::string title = row_label(r);
      if (r.scheme == m.scheme) title += "  — shown below";
      if (!plot_label(title, -0.5, y + 0.97, {4.0f, 2.0f})) plot_label(short_scheme_name(r.scheme), -0.5, y + 0.97, {4.0f, 2.0f});
    } else {
      plot_label(r.ok ? short_scheme_name(r.scheme) : std::string(short_scheme_name(r.scheme)) + ": —", left, y + 0.5,
                 {4.0f, -0.5f * text_h});
    }
  }
  // Stacked from the top, one text line apart (in plot units: rows per pixel × line).
  const float data_px = std::max(size.y - plot_height_for(0.0f), 1.0f);
  const double line_units = double(line) * n / double(data_px);
  for (int a = 0; a < 3; ++a)
    plot_label(formatted("■ %s (%s)", axis_name(a), axis_role(a)), pairs - 0.5, n - 0.1 - line_units * a,
               {em * 0.6f / plot::pixel_scale(), 0.0f}, axis_color(a));
  if (plot::is_plot_hovered()) {
    const long long k = std::clamp<long long>(static_cast<long long>(n - plot::mouse_y()), 0, (long long)rows.size() - 1);
    const long long i = std::llround(plot::mouse_x());
    const SchemeRow& r = rows[std::size_t(k)];
    plot::hover_text("%s", row_label(r).c_str());
    if (r.ok && i >= 0 && i < r.layout.pairs()) {
      const int axis = r.layout.axis_of_pair[i];
      const double f = r.layout.inv_freq_of_pair[i];
      plot::hover_text("pair %lld: axis %s (%s), θ_i = %.4g rad/position, λ = %.4g positions", i, axis_name(axis),
                       axis_role(axis), f, wavelength(f));
    }
    plot::hover_text("click: show this scheme's wavelengths below");
    if (plot_clicked()) s.scheme = pe::to_string(r.scheme);
  }
  plot::end_plot();
}

void draw_wavelengths(ImVec2 size, const SchemeRow& r, const MultimodalSetup& m, const AppState& s) {
  std::string title = std::string("Wavelength λ_i = 2π/θ_i of each pair by axis, against what it must cover — ") +
                      scheme_title(r.scheme);
  if (ImGui::CalcTextSize(title.c_str()).x * 1.15f > size.x - ImGui::GetFontSize() * 4.0f)
    title = std::string("Wavelength λ_i = 2π/θ_i by axis — ") + short_scheme_name(r.scheme);
  // Small (projector scales): no legend, the strips above carry the colour key.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float data_h = std::max(size.y - plot_height_for(0.0f), line);
  const bool compact = data_h < 10.0f * line;
  if (!plot::begin_plot("##mrope-wavelengths", size, {.title = title.c_str(), .legend = !compact})) return;
  if (!r.ok) {
    plot::setup_axes({.label = "rotary pair i", .min = -0.5, .max = double(m.pairs) - 0.5}, {.label = "λ", .min = 1, .max = 10});
    plot::end_plot();
    return;
  }
  const pe::MultiAxisLayout& l = r.layout;
  const auto summary = summarize(l);
  std::vector<double> idx = index_axis(l.pairs()), lambda(idx.size());
  for (long long i = 0; i < l.pairs(); ++i) lambda[std::size_t(i)] = wavelength(l.inv_freq_of_pair[i]);
  double lo = *std::min_element(lambda.begin(), lambda.end()), hi = *std::max_element(lambda.begin(), lambda.end());
  const double covers[] = {cover_length(r.scheme, pe::kAxisT, s), double(grid_side(s))};
  for (double c : covers)
    if (c > 0) lo = std::min(lo, c), hi = std::max(hi, c);
  // Head room above the slowest pair for the legend (top right): its share of the data height.
  const double f = compact ? 0.0 : std::min(0.5, double(3.6f * line / data_h));
  const double headroom = std::pow(4.0 * hi / lo, f / (1.0 - f));
  plot::setup_axes({.label = "rotary pair i", .min = -0.5, .max = double(l.pairs()) - 0.5},
                   {.label = "λ_i (positions)", .scale = plot::Scale::Log, .min = lo / 2.0, .max = hi * 2.0 * headroom, .auto_fit = false});
  plot::plot_line("##ladder", idx, lambda, {.color = IM_COL32(128, 128, 128, 110), .thickness = 1.0f, .in_legend = false});
  for (int a = 0; a < 3; ++a) {
    std::vector<double> xs, ys;
    for (long long i = 0; i < l.pairs(); ++i)
      if (l.axis_of_pair[i] == a) {
        xs.push_back(double(i));
        ys.push_back(lambda[std::size_t(i)]);
      }
    if (xs.empty()) continue;
    const auto& sa = summary[std::size_t(a)];
    const std::string label = compact ? formatted("%s: %lld pairs", axis_name(a), sa.count)
                                      : formatted("%s: %lld pairs, %s", axis_name(a), sa.count, lambda_range(sa).c_str());
    plot::plot_points(label.c_str(), xs, ys, {.color = axis_color(a)});
  }
  // The lengths to cover; labels beside their lines (the upper one above it, the lower below)
  // where they fit, so they never sit on each other.
  const double side = double(grid_side(s)), length = cover_length(r.scheme, pe::kAxisT, s);
  plot::plot_hline("##side", side, {.color = axis_color(pe::kAxisH), .thickness = 1.5f, .dashed = true});
  if (length > 0) plot::plot_hline("##length", length, {.color = axis_color(pe::kAxisT), .thickness = 1.5f, .dashed = true});
  const float text_h = ImGui::GetTextLineHeight() / plot::pixel_scale();
  // The ladders rise to the right: above a line at the left end and below it at the right
  // end there are no points (pairs below λ sit left of where it crosses the line).
  const std::string side_text = compact ? formatted("grid side %lld", grid_side(s))
                                        : formatted("patch grid side %lld: h and w must tell its rows / columns apart", grid_side(s));
  const std::string length_text = compact ? formatted("L = %lld", s.length)
                                          : formatted("context L = %lld: t also counts every text token", s.length);
  const float side_w = ImGui::CalcTextSize(side_text.c_str()).x / plot::pixel_scale();
  plot_label(side_text, plot::visible_x_max(), side, {-side_w - 4.0f, 2.0f}, axis_color(pe::kAxisH));
  if (length > 0) plot_label(length_text, -0.5, length, {4.0f, -text_h - 2.0f}, axis_color(pe::kAxisT));
  if (plot::is_plot_hovered()) {
    const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, l.pairs() - 1);
    const int axis = l.axis_of_pair[i];
    const double cover = cover_length(r.scheme, axis, s);
    if (cover > 0)
      plot::hover_text("pair %lld (%s): λ = %.5g positions, %.4g turns across %.6g", i, axis_name(axis), lambda[std::size_t(i)],
                       cover / lambda[std::size_t(i)], cover);
    else
      plot::hover_text("pair %lld (%s): λ = %.5g positions", i, axis_name(axis), lambda[std::size_t(i)]);
  }
  plot::end_plot();
}

// The sections control: applied only when the three numbers fit the head; otherwise the
// message stays beside it and the state keeps its valid value.
void sections_control(AppState& s, const MultimodalSetup& m) {
  static std::vector<long long> pending;
  static std::string pending_error;
  long long v[3] = {m.sections[0], m.sections[1], m.sections[2]};
  if (!pending.empty()) std::copy(pending.begin(), pending.end(), v);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  same_line_if_fits(ImGui::GetFontSize() * 10.0f + ImGui::CalcTextSize("sections t, h, w").x);
  if (ImGui::InputScalarN("sections t, h, w", ImGuiDataType_S64, v, 3)) {
    AppState trial = s;
    trial.sections.assign(v, v + 3);
    try {
      for (long long x : trial.sections) pe::require_in_range("sections", x, 0, kMaxViewDim / 2);
      require_sections_fit(trial);
      s.sections = trial.sections;
      pending.clear();
      pending_error.clear();
    } catch (const pe::InvalidArgument& e) {
      pending = trial.sections;
      pending_error = e.what();
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("sections: rotary pairs per axis (t, h, w), as mrope_section; they must sum to the rotary pairs (%lld).\n"
                      "Now: %s.",
                      m.pairs, m.sections_origin.c_str());
  same_line_if_fits(ImGui::CalcTextSize("auto").x + ImGui::GetStyle().FramePadding.x * 2);
  if (ImGui::Button("auto")) {
    s.sections.clear();
    pending.clear();
    pending_error.clear();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The config's own sections, or Qwen2-VL's proportions 1/4 : 3/8 : 3/8.");
  if (!pending_error.empty()) error_text("Not applied: " + pending_error);
  else if (!m.sections_error.empty()) error_text(m.sections_error + " — drawn with " + m.sections_origin + "; press auto.");
}

void draw_mrope_layout_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  const MultimodalSetup m = multimodal_setup(s, ctx.derived);
  const std::vector<SchemeRow> rows = scheme_rows(m, s, ctx.derived);
  if (ctx.show_widgets()) {
    int shown = 0;
    std::string items;  // the schemes' own names, as --scheme takes them
    for (std::size_t k = 0; k < std::size(kMultiAxisSchemes); ++k) {
      if (kMultiAxisSchemes[k] == m.scheme) shown = int(k);
      items += pe::to_string(kMultiAxisSchemes[k]);
      items += '\0';
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
    if (ImGui::Combo("scheme shown", &shown, items.c_str())) s.scheme = pe::to_string(kMultiAxisSchemes[shown]);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("scheme: whose wavelengths the lower plot shows (also: click a row, or Left / Right).\n"
                        "The config's own: %s.",
                        m.config_has_layout ? pe::to_string(m.config_scheme) : "none (text-only), mrope is built from θ and d");
    sections_control(s, m);
  }
  const SchemeRow* shown = &rows[0];
  for (const SchemeRow& r : rows)
    if (r.scheme == m.scheme) shown = &r;
  // Notes take what the plots leave: the full one at the desk, a short one on a projector.
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  const float avail_h = ImGui::GetContentRegionAvail().y;
  // A strip row needs a text line and a little for its name on a projector.
  const float strips_min = plot_height_for(1.1f * float(rows.size()));
  const float plots_min = strips_min + plot_height_for(4.0f) + gap;
  const std::string note = fitting_note({"Sections: " + m.sections_origin + ". " + interleaving_note(rows, s),
                                         short_interleaving_note(rows, s)},
                                        avail_h - plots_min);
  const float plots_h = avail_h - (note.empty() ? 0.0f : teaching_note_height(note.c_str()));
  const float strips_h = std::max(strips_min, (plots_h - gap) * 0.38f);
  draw_strips({ctx.size.x, strips_h}, rows, m, s);
  draw_wavelengths({ctx.size.x, plots_h - strips_h - gap}, *shown, m, s);
  if (!note.empty()) teaching_note(note.c_str());
}

std::string mrope_layout_csv(const AppState& s, const Derived& d) {
  const MultimodalSetup m = multimodal_setup(s, d);
  std::ostringstream out;
  out << "# sections: " << m.sections_origin << "\n";
  out << "scheme,pair,axis,inv_freq,wavelength,cover_length,turns_over_cover\n";
  for (const SchemeRow& r : scheme_rows(m, s, d)) {
    if (!r.ok) {
      out << "# " << pe::to_string(r.scheme) << ": " << r.error << "\n";
      continue;
    }
    for (long long i = 0; i < r.layout.pairs(); ++i) {
      const int axis = r.layout.axis_of_pair[i];
      const double f = r.layout.inv_freq_of_pair[i], cover = cover_length(r.scheme, axis, s);
      out << pe::to_string(r.scheme) << ',' << i << ',' << axis_name(axis) << ',' << csv_number(f) << ','
          << csv_number(wavelength(f)) << ',' << csv_number(cover) << ',' << csv_number(cover / wavelength(f)) << "\n";
    }
  }
  return out.str();
}

std::vector<std::string> mrope_layout_formula(const AppState& s, const Derived& d) {
  const MultimodalSetup m = multimodal_setup(s, d);
  const auto& sec = m.sections;
  std::string counts = "—";
  try {
    const auto n = scheme_layout(m.scheme, m, s, d).pairs_per_axis();
    counts = formatted("t %lld, h %lld, w %lld pairs", n[0], n[1], n[2]);
  } catch (const pe::InvalidArgument& e) {
    counts = e.what();
  }
  return {"pair i turns by p_axis(i)·θ_i;  contiguous: t | h | w by sections;  interleaved: h if i ≡ 1, w if i ≡ 2 (mod 3; i < 3·s_h, 3·s_w), else t;  "
          "ERNIE 3D: h if i even, w if odd (i < s_h + s_w), else t",
          formatted("θ = %g, d = %lld, sections (%lld, %lld, %lld);  %s: %s", s.rope.theta, s.rope.head_dim, sec[0], sec[1],
                    sec[2], pe::to_string(m.scheme), counts.c_str())};
}

void mrope_layout_step(AppState& s, int delta) {
  pe::MultiAxisScheme current = s.rope.multimodal.multi_axis ? s.rope.multimodal.multi_axis->scheme : pe::MultiAxisScheme::MRope;
  if (s.scheme != "auto") {
    try {
      current = pe::multi_axis_scheme_from_string(s.scheme);
    } catch (const pe::InvalidArgument&) {
    }
  }
  s.scheme = pe::to_string(next_scheme(current, delta));
}

constexpr const char* kAnimatable[] = {"theta", "dim", "length", "grid_rows", "grid_cols"};

}  // namespace

const ViewInfo& mrope_layout_view() {
  static const ViewInfo info{
      .name = "mrope-layout",
      .title = "Axis layout",
      .summary = "Rotary pairs by axis (t, h, w) under contiguous / interleaved M-RoPE, vision 2D and axial; wavelengths per axis",
      .group = "Multimodal",
      .draw = draw_mrope_layout_view,
      .csv = mrope_layout_csv,
      .formula = mrope_layout_formula,
      .step = mrope_layout_step,
      .step_help = "mrope-layout: previous / next scheme",
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
