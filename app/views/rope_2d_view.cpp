// The score between a query patch and every patch of a grid, under a multi-axis scheme
// (each pair rotates by its own axis's offset: core's grid_scores_into, separable) and
// with the same frequencies over flattened 1D positions p = row · cols + col (core's
// relative_score_curves over Δp, which is what flattened_grid_scores_into computes patch by
// patch; here one curve serves every query patch) side by side. Anisotropy shows where h and w get different
// frequencies (contiguous M-RoPE); the row wrap shows in the flattened grid.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "views/colormap_choice.hpp"
#include "views/async_value.hpp"
#include "views/multimodal_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

// Everything the two grids depend on; recomputed only when one of them changes (the
// coefficients, which cost random draws, only when the vectors do).
struct Scores {
  std::string key, coefficient_key, curve_key;
  // The flattened scores depend on Δp alone: f(Δp) = C(|Δp|) + sign(Δp)·S(|Δp|) with
  // C = passthrough + Σ a_i cos(Δθ_i) (even) and S = Σ b_i sin(Δθ_i) (odd), for
  // Δp = 0 … patches − 1. A new query patch is a new slice of the same curve.
  Eigen::ArrayXXd curve;
  pe::RelativeScoreCoefficients coefficients;
  pe::MultiAxisLayout layout;
  pe::TableD grid, flat;                   // scores / rotary dim
  pe::TableD scratch;                      // one product of the curve (reused storage)
  std::vector<float> grid_f, flat_f;       // what the heatmaps upload
  double lo = 0, hi = 0, flat_lo = 0, flat_hi = 0;  // each grid's range
  unsigned long long version = 0;
  std::string error;
};

struct Inputs {
  MultimodalSetup setup;
  long long rows, cols, row, col;
};

Inputs inputs(const AppState& s, const Derived& d) {
  return {multimodal_setup(s, d), s.grid_rows, s.grid_cols, std::clamp<long long>(s.patch_row, 0, s.grid_rows - 1),
          std::clamp<long long>(s.patch_col, 0, s.grid_cols - 1)};
}

// Everything compute() depends on, as text: equal keys, equal scores.
std::string scores_key(const AppState& s, const Derived& d) {
  const Inputs in = inputs(s, d);
  std::ostringstream k;
  k << d.version << '|' << pe::to_string(in.setup.scheme) << '|' << sections_text(in.setup.sections) << '|' << int(in.setup.variant)
    << '|' << in.rows << 'x' << in.cols << '|' << in.row << ',' << in.col << '|' << s.qk << '|' << s.seed << '|' << s.samples;
  return k.str();
}

// Scores for the state (a separate cache per call site: the view and the CSV/formula may
// ask for different states, e.g. A and B of compare).
void compute(Scores& c, const AppState& s, const Derived& d) {
  const Inputs in = inputs(s, d);
  std::string key = scores_key(s, d);
  if (key == c.key) return;
  c.key = std::move(key);
  c.error.clear();
  // Unique across caches: a heatmap texture is keyed by plot ID and re-uploaded on a new version.
  static std::atomic<unsigned long long> next_version{0};
  c.version = ++next_version;
  try {
    c.layout = scheme_layout(in.setup.scheme, in.setup, s, d);
    const std::string ck = std::to_string(c.layout.pairs()) + "|" + s.qk + "|" + std::to_string(s.seed) + "|" + std::to_string(s.samples);
    if (ck != c.coefficient_key) {
      c.coefficients = pe::multi_axis_coefficients(qk_choice(s.qk), c.layout, s.seed, s.samples);
      c.coefficient_key = ck;
    }
    pe::grid_scores_into(c.grid, c.coefficients, c.layout, in.rows, in.cols, in.row, in.col);
    const long long n = in.rows * in.cols;
    const std::string curve_key = ck + "|" + std::to_string(d.version) + "|" + sections_text(in.setup.sections) + "|" +
                                  pe::to_string(in.setup.scheme) + "|" + std::to_string(int(in.setup.variant)) + "|" + std::to_string(n);
    if (curve_key != c.curve_key) {
      pe::RelativeScoreCoefficients even = c.coefficients, odd = c.coefficients;
      even.b.setZero();
      odd.a.setZero();
      odd.passthrough = 0.0;
      // s(Δ) for Δ = 0 … n−1: with Δ = r·cols + col it is the flattened grid of a query at
      // (0, 0), which core computes as one matrix product (flattened_grid_scores_into)
      // instead of n × pairs cosines (a 512 × 512 grid at d 256: ~200 ms per θ step).
      // q = k (identical and its mean) has no sine part: one product, half the work.
      c.curve = Eigen::ArrayXXd::Zero(n, 2);
      const auto fill = [&](const pe::RelativeScoreCoefficients& part, Eigen::Index column) {
        pe::flattened_grid_scores_into(c.scratch, part, c.layout, in.rows, in.cols, 0, 0);
        for (long long r = 0; r < in.rows; ++r)
          for (long long col = 0; col < in.cols; ++col) c.curve(r * in.cols + col, column) = c.scratch(r, col);
      };
      fill(even, 0);
      if (!c.coefficients.b.isZero(0.0)) fill(odd, 1);
      c.curve_key = curve_key;
    }
    c.flat.resize(in.rows, in.cols);
    const long long q = in.row * in.cols + in.col;
    for (long long p = 0; p < n; ++p) {
      const long long dp = p - q, k = std::llabs(dp);
      c.flat.data()[p] = c.curve(k, 0) + (dp < 0 ? -c.curve(k, 1) : c.curve(k, 1));
    }
    const double dim = double(c.layout.rotary_dim());
    c.grid /= dim;
    c.flat /= dim;
    c.grid_f.assign(std::size_t(c.grid.size()), 0.0f);
    c.flat_f.assign(std::size_t(c.flat.size()), 0.0f);
    for (Eigen::Index i = 0; i < c.grid.size(); ++i) c.grid_f[std::size_t(i)] = float(c.grid.data()[i]);
    for (Eigen::Index i = 0; i < c.flat.size(); ++i) c.flat_f[std::size_t(i)] = float(c.flat.data()[i]);
    c.lo = c.grid.minCoeff();
    c.hi = c.grid.maxCoeff();
    c.flat_lo = c.flat.minCoeff();
    c.flat_hi = c.flat.maxCoeff();
  } catch (const pe::InvalidArgument& e) {
    c.error = e.what();
  }
}

// The view's scores, one cache per Derived (compare's sides). Up to 128 × 128 patches they
// are computed in the frame; larger grids (512 × 512 at d 256: ~30 ms per θ step) on a
// worker while θ is dragged, the last grids staying on screen; exports wait.
constexpr long long kSyncPatches = 128 * 128;
struct ViewSlot {
  AsyncValue<std::string, std::shared_ptr<const Scores>> value;
  std::shared_ptr<Scores> work = std::make_shared<Scores>();  // caches reused by the one computation at a time
  bool settling() const { return value.settling(); }
};

const Scores& view_scores(const AppState& s, const Derived& d, bool exporting) {
  static std::map<const Derived*, ViewSlot> slots;
  ViewSlot& slot = slot_for(slots, &d);
  const Inputs in = inputs(s, d);
  const bool wait = exporting || in.rows * in.cols <= kSyncPatches;
  return *slot.value.get(scores_key(s, d), wait, [work = slot.work, s, d](const std::string&) {
    compute(*work, s, d);
    return std::shared_ptr<const Scores>(std::make_shared<Scores>(*work));
  });
}

void outline(long long r, long long c, ImU32 color, bool dashed) {
  const double xs[] = {c - 0.5, c + 0.5, c + 0.5, c - 0.5, c - 0.5}, ys[] = {r - 0.5, r - 0.5, r + 0.5, r + 0.5, r - 0.5};
  plot::plot_line("##outline", xs, ys, {.color = color, .thickness = 2.5f, .dashed = dashed, .in_legend = false});
}

void draw_grid(const char* id, const char* title, ImVec2 size, const std::vector<float>& values, const Scores& sc,
               const Inputs& in, plot::Colormap cmap, double vmin, double vmax, bool flattened, AppState& s) {
  if (!plot::begin_plot(id, size, {.title = title, .legend = false, .equal_aspect = true})) return;
  plot::setup_axes({.label = "column (w)", .min = -0.5, .max = double(in.cols) - 0.5, .format = "%.0f"},
                   {.label = "row (h)", .min = -0.5, .max = double(in.rows) - 0.5, .invert = true, .format = "%.0f"});
  plot::plot_value_heatmap(id, {.values = values, .rows = int(in.rows), .columns = int(in.cols), .x0 = -0.5,
                                .x1 = double(in.cols) - 0.5, .y0 = -0.5, .y1 = double(in.rows) - 0.5, .colormap = cmap,
                                .vmin = vmin, .vmax = vmax, .version = sc.version * 2 + (flattened ? 1 : 0), .y_down = true});
  outline(in.row, in.col, IM_COL32(250, 200, 0, 255), false);
  if (plot::is_plot_hovered()) {
    const long long r = std::llround(plot::mouse_y()), c = std::llround(plot::mouse_x());
    if (r >= 0 && r < in.rows && c >= 0 && c < in.cols) {
      const long long dp = (r - in.row) * in.cols + (c - in.col);
      plot::hover_text("patch (%lld, %lld): Δh = %lld, Δw = %lld, Δp = %lld", r, c, r - in.row, c - in.col, dp);
      plot::hover_text("score / d: %s %.5f, flattened 1D %.5f", pe::to_string(in.setup.scheme), sc.grid(r, c), sc.flat(r, c));
      plot::hover_text("click: make this the query patch");
      if (plot_clicked()) {
        s.patch_row = r;
        s.patch_col = c;
      }
    }
  }
  plot::end_plot();
}

// Scores along the query's row (Δw) and column (Δh), both ways.
void draw_profiles(ImVec2 size, const Scores& sc, const Inputs& in) {
  if (!plot::begin_plot("##rope-2d-profiles", size, {.title = "Score along the query's row (Δw) and column (Δh)"})) return;
  const double reach = double(std::max({in.row, in.rows - 1 - in.row, in.col, in.cols - 1 - in.col}));
  std::vector<double> dw, row2, rowf, dh, col2, colf;
  for (long long c = 0; c < in.cols; ++c) {
    dw.push_back(double(c - in.col));
    row2.push_back(sc.grid(in.row, c));
    rowf.push_back(sc.flat(in.row, c));
  }
  for (long long r = 0; r < in.rows; ++r) {
    dh.push_back(double(r - in.row));
    col2.push_back(sc.grid(r, in.col));
    colf.push_back(sc.flat(r, in.col));
  }
  double lo = 1e300, hi = -1e300;
  for (const auto* v : {&row2, &rowf, &col2, &colf})
    for (double x : *v) lo = std::min(lo, x), hi = std::max(hi, x);
  const double span = std::max(hi - lo, 1e-9);
  // Head room for the legend (top right) above the curves.
  plot::setup_axes({.label = "offset from the query (patches)", .min = -reach - 0.5, .max = reach + 0.5},
                   {.label = "score / d", .min = lo - 0.05 * span, .max = hi + 0.55 * span, .auto_fit = false});
  const bool markers = std::max(in.rows, in.cols) <= 48;
  const std::string scheme = pe::to_string(in.setup.scheme);
  plot::plot_line((scheme + ", along the row (Δw)").c_str(), dw, row2, {.color = axis_color(pe::kAxisW), .markers = markers});
  plot::plot_line((scheme + ", along the column (Δh)").c_str(), dh, col2, {.color = axis_color(pe::kAxisH), .markers = markers});
  plot::plot_line("flattened 1D, along the row (Δp = Δw)", dw, rowf, {.color = axis_color(pe::kAxisW), .thickness = 1.5f, .dashed = true});
  const std::string col_label = formatted("flattened 1D, along the column (Δp = %lld·Δh)", in.cols);
  plot::plot_line(col_label.c_str(), dh, colf, {.color = axis_color(pe::kAxisH), .thickness = 1.5f, .dashed = true});
  plot::end_plot();
}

std::string anisotropy_note(const Scores& sc, const Inputs& in) {
  std::string note;
  const long long r = in.row, c = in.col;
  const long long down = r + 1 < in.rows ? r + 1 : r - 1, side = c + 1 < in.cols ? c + 1 : c - 1;
  if (down >= 0 && down < in.rows && side >= 0 && side < in.cols) {
    const auto n = sc.layout.pairs_per_axis();
    note += formatted("One row away the score drops by %.2g, one column away by %.2g (%s gives h %lld and w %lld pairs",
                      sc.grid(r, c) - sc.grid(down, c), sc.grid(r, c) - sc.grid(r, side), pe::to_string(in.setup.scheme), n[1], n[2]);
    note += n[0] > 0 ? formatted("; its %lld t pairs see the same t for every patch and only add a constant). ", n[0]) : "). ";
    note += formatted("Flattened, the patch straight below is Δp = %lld away (%.3f) while the score only follows Δp: the "
                      "query's neighbourhood runs off the end of its row and on at the start of the next. ",
                      in.cols, sc.flat(down, c));
  }
  return note + "Scores are ⟨R(query)q, R(key)k⟩ / d in closed form; mean curves average `samples` seeded vectors.";
}

std::string short_note(const Scores& sc, const Inputs& in) {
  const long long down = in.row + 1 < in.rows ? in.row + 1 : in.row - 1;
  if (down < 0) return "";
  const long long side = in.col + 1 < in.cols ? in.col + 1 : in.col - 1;
  if (side < 0) return "";
  const double q = sc.grid(in.row, in.col);
  return formatted("Drop one row away %.2g, one column away %.2g; flattened, straight below is Δp = %lld away.",
                   q - sc.grid(down, in.col), q - sc.grid(in.row, side), in.cols);
}

float style_gap() { return ImGui::GetStyle().ItemSpacing.y; }

void grid_controls(AppState& s, const MultimodalSetup& m) {
  const float em = ImGui::GetFontSize();
  int shown = 0;
  for (int k = 0; k < 4; ++k)
    if (kMultiAxisSchemes[k] == m.scheme) shown = k;
  ImGui::SetNextItemWidth(em * 10.0f);
  if (ImGui::Combo("scheme", &shown, "mrope\0mrope-interleaved\0vision-2d\0axial\0")) s.scheme = pe::to_string(kMultiAxisSchemes[shown]);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("scheme: which axis each pair follows (see Axis layout). The config's own: %s.",
                      m.config_has_layout ? pe::to_string(m.config_scheme) : "none (text-only): built from θ and d");
  const char* qks[] = {"identical", "random", "mean-identical", "mean-random"};
  int qk = 2;
  for (int k = 0; k < 4; ++k)
    if (s.qk == qks[k]) qk = k;
  same_line_if_fits(em * 12.0f + ImGui::CalcTextSize("q, k").x);
  ImGui::SetNextItemWidth(em * 12.0f);
  if (ImGui::Combo("q, k", &qk, "identical q = k\0one random pair\0mean of identical\0mean of random pairs\0")) s.qk = qks[qk];
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("qk: the vectors scored, as in Relative score: one seeded q = k, one random pair, or the mean over\n"
                      "`samples` seeded vectors (mean of identical: Σ 2·cos(Δθ_i)/d, the smooth expected decay).");
  static std::string error;
  static long long pending[2] = {0, 0};
  long long size[2] = {pending[0] ? pending[0] : s.grid_rows, pending[1] ? pending[1] : s.grid_cols};
  same_line_if_fits(em * 9.0f + ImGui::CalcTextSize("grid rows, cols").x);
  ImGui::SetNextItemWidth(em * 9.0f);
  if (ImGui::InputScalarN("grid rows, cols", ImGuiDataType_S64, size, 2, nullptr, nullptr, "%lld", ImGuiInputTextFlags_EnterReturnsTrue)) {
    try {
      pe::require_in_range("grid_rows", size[0], 1, pe::kMaxGridSide);
      pe::require_in_range("grid_cols", size[1], 1, pe::kMaxGridSide);
      if (size[0] * size[1] > pe::kMaxGridPatches)
        throw pe::InvalidArgument("grid_rows × grid_cols", std::to_string(size[0]) + " × " + std::to_string(size[1]),
                                  "at most " + std::to_string(pe::kMaxGridPatches) + " patches (512 × 512)");
      s.grid_rows = size[0];
      s.grid_cols = size[1];
      s.patch_row = std::min(s.patch_row, s.grid_rows - 1);
      s.patch_col = std::min(s.patch_col, s.grid_cols - 1);
      pending[0] = pending[1] = 0;
      error.clear();
    } catch (const pe::InvalidArgument& e) {
      pending[0] = size[0];
      pending[1] = size[1];
      error = e.what();
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("grid_rows, grid_cols: the patch grid (after merging), at most %lld patches. Enter applies.",
                      pe::kMaxGridPatches);
  if (s.qk == "mean-identical" || s.qk == "mean-random") {
    int samples = int(s.samples);
    same_line_if_fits(em * 8.0f + ImGui::CalcTextSize("samples").x);
    ImGui::SetNextItemWidth(em * 8.0f);
    if (ImGui::SliderInt("samples", &samples, 1, 1024, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      s.samples = samples;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("samples: seeded vectors averaged.");
  }
  if (!error.empty()) error_text("Not applied: " + error);
  if (!m.sections_error.empty()) error_text(m.sections_error + " — using " + m.sections_origin + ".");
}

void draw_rope_2d_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  const Inputs in = inputs(s, ctx.derived);
  if (ctx.show_widgets()) grid_controls(s, in.setup);
  const Scores& sc = view_scores(s, ctx.derived, ctx.exporting);
  if (!sc.error.empty()) {
    error_text("Cannot score " + std::string(pe::to_string(in.setup.scheme)) + ": " + sc.error);
    return;
  }
  const plot::Colormap cmap = to_plot(s.colormap);
  const float gap = style_gap();
  const float avail_h = ImGui::GetContentRegionAvail().y;
  // Room first for the grids, then the profiles, then the note (long, short or none).
  // The profiles' own minimum (begin_plot's), so that the grids never push them past the bottom.
  const float grids_min = plot_height_for(5.0f), profiles_min = plot::min_plot_height({.title = "t"}) + gap;
  const bool profiles = avail_h >= grids_min + profiles_min;
  const std::string note = fitting_note({anisotropy_note(sc, in), short_note(sc, in)},
                                        avail_h - grids_min - (profiles ? profiles_min : 0.0f));
  const ImGuiStyle& style = ImGui::GetStyle();
  const float plots_h = avail_h - (note.empty() ? 0.0f : teaching_note_height(note.c_str()));
  const ImVec2 top = {ctx.size.x, profiles ? std::max(grids_min, std::min((plots_h - gap) * 0.62f, plots_h - profiles_min)) : plots_h};
  // Each grid spans its own range: the multi-axis scores of a small grid can vary in the
  // third decimal while the flattened ones swing by tenths (the profiles below compare
  // them on one axis).
  auto range = [](double lo, double hi) { return std::pair{lo, std::max(hi, lo + 1e-9)}; };
  const auto [g0, g1] = range(sc.lo, sc.hi);
  const auto [f0, f1] = range(sc.flat_lo, sc.flat_hi);
  const float bar_w = std::max(plot::colorbar_width("score / d", g0, g1), plot::colorbar_width("score / d", f0, f1));
  const float w = (ctx.size.x - 2.0f * bar_w - 3.0f * style.ItemSpacing.x) * 0.5f;
  const std::string left = formatted("%s: s(query, patch) / d", pe::to_string(in.setup.scheme));
  const std::string right = formatted("flattened 1D, p = row·%lld + col", in.cols);
  draw_grid("##rope-2d-grid", left.c_str(), {w, top.y}, sc.grid_f, sc, in, cmap, g0, g1, false, s);
  ImGui::SameLine();
  plot::colorbar("score / d##2d", g0, g1, cmap, {bar_w, top.y});
  ImGui::SameLine();
  draw_grid("##rope-2d-flat", right.c_str(), {w, top.y}, sc.flat_f, sc, in, cmap, f0, f1, true, s);
  ImGui::SameLine();
  plot::colorbar("score / d##1d", f0, f1, cmap, {bar_w, top.y});
  if (profiles) draw_profiles({ctx.size.x, plots_h - top.y - gap}, sc, in);
  if (!note.empty()) teaching_note(note.c_str());
}

std::string rope_2d_csv(const AppState& s, const Derived& d) {
  static Scores scores;
  compute(scores, s, d);
  if (!scores.error.empty()) throw pe::InvalidArgument("scheme", s.scheme, scores.error);
  const Inputs in = inputs(s, d);
  std::ostringstream out;
  out << "# " << pe::to_string(in.setup.scheme) << ", query patch (" << in.row << ", " << in.col << ") of " << in.rows << " x "
      << in.cols << ", q·k " << s.qk << ", sections " << in.setup.sections_origin << "; scores / d\n";
  const std::vector<long long> patches = sampled_positions(in.rows * in.cols, out);
  out << "row,col,delta_h,delta_w,delta_p,score,score_flattened\n";
  for (long long p : patches) {
    const long long r = p / in.cols, c = p % in.cols;
    out << r << ',' << c << ',' << r - in.row << ',' << c - in.col << ',' << p - (in.row * in.cols + in.col) << ','
        << csv_number(scores.grid(r, c)) << ',' << csv_number(scores.flat(r, c)) << "\n";
  }
  return out.str();
}

std::vector<std::string> rope_2d_formula(const AppState& s, const Derived& d) {
  // Four scores, each from a 2-row grid with the query at (0, 0) (the scores depend on the
  // offsets alone), not the whole grid: the strip is drawn every frame, at 512 × 512 too.
  static std::string coefficient_key;
  static pe::RelativeScoreCoefficients coefficients;
  const Inputs in = inputs(s, d);
  std::string numbers;
  try {
    const pe::MultiAxisLayout layout = scheme_layout(in.setup.scheme, in.setup, s, d);
    const std::string ck = std::to_string(d.version) + "|" + sections_text(in.setup.sections) + "|" + std::to_string(layout.pairs()) + "|" +
                           s.qk + "|" + std::to_string(s.seed) + "|" + std::to_string(s.samples);
    if (ck != coefficient_key) {
      coefficients = pe::multi_axis_coefficients(qk_choice(s.qk), layout, s.seed, s.samples);
      coefficient_key = ck;
    }
    const long long dh = in.row + 1 < in.rows ? 1 : 0, dw = in.col + 1 < in.cols ? 1 : 0;
    const pe::TableD grid = pe::grid_scores(coefficients, layout, 2, 2, 0, 0);
    const pe::TableD flat = pe::flattened_grid_scores(coefficients, layout, 2, in.cols, 0, 0);
    const double dim = double(layout.rotary_dim());
    numbers = formatted("query (%lld, %lld) of %lld × %lld, %s: below %.4f, right %.4f;  1D: below (Δp %lld) %.4f, right %.4f",
                        in.row, in.col, in.rows, in.cols, s.qk.c_str(), grid(dh, 0) / dim, grid(0, dw) / dim, dh * in.cols,
                        flat(dh, 0) / dim, flat(0, dw) / dim);
  } catch (const pe::InvalidArgument& e) {
    numbers = e.what();
  }
  return {"s·d = Σ_t a_i + Σ_h f_i(Δh) + Σ_w f_i(Δw),  f_i(Δ) = a_i cos Δθ_i + b_i sin Δθ_i;  1D: Σ_i f_i(Δh·cols + Δw)",
          numbers};
}

void rope_2d_step(AppState& s, int delta) {
  const long long cols = std::max<long long>(s.grid_cols, 1);
  const long long n = std::max<long long>(s.grid_rows, 1) * cols;
  const long long p = std::clamp<long long>(s.patch_row * cols + s.patch_col + delta, 0, n - 1);
  s.patch_row = p / cols;
  s.patch_col = p % cols;
}

constexpr const char* kAnimatable[] = {"theta", "dim", "patch_row", "patch_col", "grid_rows", "grid_cols", "samples", "seed"};

}  // namespace

const ViewInfo& rope_2d_view() {
  static const ViewInfo info{
      .name = "rope-2d",
      .title = "2D scores",
      .summary = "Score between a query patch and every patch: multi-axis scheme vs flattened 1D positions",
      .group = "Multimodal",
      .draw = draw_rope_2d_view,
      .csv = rope_2d_csv,
      .formula = rope_2d_formula,
      .step = rope_2d_step,
      .step_help = "rope-2d: query patch −1 / +1 in reading order",
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
