#pragma once
// pe-viz's small immediate-mode plotting layer on Dear ImGui (modelled on ImPlot's API:
// begin_plot / setup_axes / plot_* / end_plot). Every view draws through it; no view
// draws axes by hand. Coordinates passed in are plot (data) coordinates.
//
// Usage:
//   if (plot::begin_plot("##sin", size, {.title = "Sinusoidal PE"})) {
//     plot::setup_axes({.label = "position"}, {.label = "dimension"});
//     plot::plot_heatmap(spec);
//     plot::plot_line("dim 0", xs, ys);
//     plot::end_plot();
//   }
//   plot::colorbar("value", -1, 1, plot::Colormap::RdBu, {60, h});
#include <imgui.h>

#include <functional>
#include <span>
#include <string>

namespace plot {

enum class Scale { Linear, Log };
enum class Colormap { RdBu, Viridis, Cividis };
const char* to_string(Colormap c);
// Colormap lookup on the CPU (t in [0,1]); the shader uses the same table (colormap.hpp).
ImU32 colormap_color(Colormap c, double t);

struct AxisSpec {
  const char* label = "";
  Scale scale = Scale::Linear;
  // Initial / reset range. When auto_fit is true and min >= max the range comes from
  // the data plotted this frame. User zoom/pan (mouse wheel, drag; double-click resets)
  // overrides until reset or until `lock` is set.
  double min = 0.0, max = 0.0;
  bool auto_fit = true;
  bool lock = false;  // ignore user zoom/pan on this axis, always use min/max
  // Values grow right-to-left (x) or top-to-bottom (y), e.g. matrix rows with row 0 on
  // top (with ValueHeatmap::y_down).
  bool invert = false;
  // Format for tick labels and hover values; nullptr picks by magnitude.
  const char* format = nullptr;
};

struct PlotOptions {
  const char* title = nullptr;
  bool legend = true;
  bool crosshair = true;
  bool equal_aspect = false;  // 1 unit in x == 1 unit in y (clock hands)
};

// Returns false when the plot is clipped away; then do not call end_plot().
// A height (given, or what is left when size.y <= 0) below min_plot_height(options) is
// raised to it: title, tick labels and axis label take a fixed band, and a share of a
// short window must not leave the data a few pixels tall (the window scrolls instead).
bool begin_plot(const char* id, ImVec2 size, const PlotOptions& options = {});
// The smallest frame that keeps min_data_lines() lines of the UI font for the data,
// under a title (when the options have one), x tick labels and an x axis label.
float min_plot_height(const PlotOptions& options = {});
// The GUI keeps kMinPlotDataLines (a view that needs more room scrolls); an export, which
// cannot scroll, lowers it until the view fits its image (export/view_export.cpp); at 0
// begin_plot takes heights as given.
inline constexpr float kMinPlotDataLines = 3.0f;
// Views drawn small inside another (compare's A and B, the grid's cells) keep one line:
// three would make their plots far taller than the cell (and their caches with them).
inline constexpr float kEmbeddedMinDataLines = 1.0f;
void set_min_data_lines(float lines);
float min_data_lines();
// Lowers the minimum to at most `lines` while it lives (exceptions included).
class MinDataLinesScope {
 public:
  explicit MinDataLinesScope(float lines) : saved_(min_data_lines()) { set_min_data_lines(lines < saved_ ? lines : saved_); }
  ~MinDataLinesScope() { set_min_data_lines(saved_); }
  MinDataLinesScope(const MinDataLinesScope&) = delete;
  MinDataLinesScope& operator=(const MinDataLinesScope&) = delete;

 private:
  float saved_;
};
void setup_axes(const AxisSpec& x, const AxisSpec& y);
void end_plot();
// Forgets a plot begun but not ended (an exception unwound past end_plot): the next
// begin_plot starts clean. Harmless when no plot is open.
void abandon_plot();

// The default color of series k (colour-blind-safe palette).
ImU32 series_color(int k);

struct LineStyle {
  ImU32 color = 0;  // 0: next palette color
  float thickness = 2.0f;  // in points, scaled with the UI/export scale
  bool dashed = false;
  bool markers = false;
  bool in_legend = true;
};

void plot_line(const char* label, std::span<const double> xs, std::span<const double> ys,
               const LineStyle& style = {});
// A line y = f(x) evaluated at one sample per horizontal pixel across the visible x range
// (log-spaced on a log axis), so zooming shows detail without storing 10^6 points.
void plot_function(const char* label, const std::function<double(double)>& f,
                   const LineStyle& style = {});
// The band between y_lo[i] and y_hi[i] at xs[i] (e.g. a per-pixel min/max envelope of a
// signal that oscillates faster than the pixels can show).
void plot_shaded(const char* label, std::span<const double> xs, std::span<const double> y_lo,
                 std::span<const double> y_hi, const LineStyle& style = {});
// Reference lines across the whole plot with an optional text label at their end.
void plot_vline(const char* label, double x, const LineStyle& style = {});
void plot_hline(const char* label, double y, const LineStyle& style = {});
// Shaded x band [x0, x1] (e.g. YaRN's ramp), drawn under the series.
void plot_xband(const char* label, double x0, double x1, ImU32 color);
void plot_text(double x, double y, const char* text, ImU32 color = 0, ImVec2 pixel_offset = {0, 0});
// Circle of `radius` around the origin (the path a clock hand's tip travels).
void plot_circle(const char* label, double radius, const LineStyle& style = {});
// Arrow from (x0,y0) to (x1,y1) in plot coordinates (clock hands).
void plot_arrow(double x0, double y0, double x1, double y1, ImU32 color, float thickness = 3.0f);
void plot_points(const char* label, std::span<const double> xs, std::span<const double> ys,
                 const LineStyle& style = {});

// ---- Heatmaps ---------------------------------------------------------------------
// A heatmap covers [x0, x1] × [y0, y1] in plot coordinates with `columns` × `rows` cells
// (x runs along columns: position; y along rows: dimension, row 0 at y0).

// Evaluated on the GPU from a frequency list: value(p, r) for position p (continuous x)
// and row r. The shader averages over each pixel's x span in closed form, so 10^6
// positions in 1000 pixels show the true mean, not moiré.
enum class EncodingFunction {
  RopeCos,     // row r = pair r: cos(p·freq[r])
  RopeSin,     // row r = pair r: sin(p·freq[r])
  Sinusoidal,  // row r = dimension r: sin(p·freq[r/2]) for even r, cos for odd r
};
struct EncodingHeatmap {
  EncodingFunction function = EncodingFunction::RopeCos;
  std::span<const float> frequencies;  // per pair (rad / position)
  int rows = 0;                        // RopeCos/Sin: pairs; Sinusoidal: dims
  // First and last position covered; cells are centred at integers, so the heatmap
  // spans [x0 - 0.5, x1 + 0.5] and x0 = 0, x1 = L - 1 shows positions 0 .. L-1.
  double x0 = 0, x1 = 1;
  // Centres of the first and last row; y0 >= y1 (default) means 0 .. rows-1, i.e. row r
  // centred at y = r and the heatmap spanning [-0.5, rows - 0.5].
  double y0 = 0, y1 = 0;
  Colormap colormap = Colormap::RdBu;
  double vmin = -1.0, vmax = 1.0;
  bool pixel_mean = true;              // false: point-sample (shows the moiré, for teaching)
};
// Heatmaps need linear axes (on log axes they show a note instead).
// Shown per framebuffer pixel covering positions [a, b] (b - a = dx):
//   dx <= 1: the exact value at the nearest integer position (cells);
//   dx > 1 : the exact mean over [a, b] (or the point value at the pixel centre when
//            pixel_mean is false). The hover read-out shows the same numbers in double.
void plot_encoding_heatmap(const char* label, const EncodingHeatmap& spec);

// Values computed on the CPU (rows × columns, row-major), uploaded to a texture only when
// `version` changes. Used for attention patterns, ALiBi biases, learned tables.
struct ValueHeatmap {
  std::span<const float> values;
  int rows = 0, columns = 0;
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  Colormap colormap = Colormap::Viridis;
  double vmin = 0.0, vmax = 1.0;
  unsigned long long version = 0;  // bump when values change
  // Row 0 at the top of the screen (matrices). For tick labels and mouse_y() to count
  // rows downwards too, also set `invert` on the y AxisSpec (then row r is at y = r).
  bool y_down = false;
};
void plot_value_heatmap(const char* label, const ValueHeatmap& spec);

// ---- Queries (valid between begin_plot and end_plot) -------------------------------
bool is_plot_hovered();
ImVec2 mouse_plot_pos_pixels();
double mouse_x();  // plot coordinates of the mouse
double mouse_y();
double visible_x_min();
double visible_x_max();
double visible_y_min();
double visible_y_max();
// Adds lines to the hover tooltip (shown at end_plot with the crosshair read-out).
void hover_text(const char* fmt, ...) IM_FMTARGS(1);
ImVec2 to_pixels(double x, double y);

// A vertical colour bar with ticks, to the right of a heatmap. size.x <= 0 picks the
// width its tick labels and label need; size.y <= 0 fills the available height. When
// drawn beside a plot (SameLine), the gradient lines up with that plot's data area.
void colorbar(const char* label, double vmin, double vmax, Colormap c, ImVec2 size);
// The width colorbar() takes with size.x <= 0, to reserve room beside a plot.
float colorbar_width(const char* label, double vmin, double vmax);

// Empty, or why the heatmap shaders could not be built (compile/link log).
std::string heatmap_gpu_error();

// Heatmaps whose rows are at least two pixels tall draw in two passes (the colour once per
// pixel column and row into a texture, then a fetch per pixel): the same pixels, half the
// raster cost on software GL. On by default; tests compare it with one pass.
void set_two_pass_heatmaps(bool enabled);
// Where GL rasterises in software (llvmpipe), heatmaps are computed on the CPU in two
// threads and copied in (plot/heatmap_pixels.hpp): a third of the shader's cost there, and
// no framebuffer switches. On by default (no effect on a GPU or in a browser); tests compare
// it with the shaders.
void set_cpu_heatmaps(bool enabled);
// plot_xband over a data area that holds only its background and grid is drawn as an opaque
// fill of the blended colour plus the grid under it (no blending: ~5× cheaper on llvmpipe);
// on by default, tests compare it with the blended band. Bands drawn that way so far.
void set_opaque_bands(bool enabled);
long long opaque_band_count();
struct HeatmapDrawCounts {
  long long one_pass = 0, two_pass = 0;  // heatmap draws since the process started
  long long cpu = 0;                     // heatmaps computed on the CPU (software GL)
};
HeatmapDrawCounts heatmap_draw_counts();

// What each plot drew, for tests that check a view shows something: when recording is on,
// every end_plot() appends its data area (screen pixels) and whether its data varied (a
// series or heatmap whose values are not all equal, or a hand of non-zero length). Off by
// default: it costs a pass over each heatmap's values.
struct DrawnPlot {
  std::string title;
  ImVec2 min, max;
  bool varied = false;
};
void set_record_drawn_plots(bool on);
std::vector<DrawnPlot> take_drawn_plots();  // and forget them

// Forgets every plot's zoom/pan and auto-fit state (a "reset all views" action, tests).
void clear_state();

// A title wider than its plot shrinks to fit (down to 0.6 of the font: small panels at
// projector scales). With readable titles on (the narrow layout: a phone) it shrinks no
// further than the font's own size and wraps at spaces onto more lines, which the plot
// reserves above its data.
void set_readable_titles(bool on);
bool readable_titles();

// Scale applied to line widths, fonts-independent sizes (UI scale × export scale).
void set_pixel_scale(float scale);
float pixel_scale();
// Multiplier for data lines only (axes and grid keep their weight): thick lines carry to
// the back of a lecture hall.
void set_line_scale(float scale);
float line_scale();

}  // namespace plot
