#pragma once
// Internal state of the plot layer: what persists per plot between frames (zoom ranges,
// fitted data extents) and what lives only between begin_plot and end_plot.
#include <imgui.h>
#include <imgui_internal.h>

#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "plot.hpp"
#include "ticks.hpp"

namespace plot::detail {

struct AxisState {
  double min = 0.0, max = 1.0;  // visible range used this frame
  bool user_range = false;      // zoomed or panned by the user since the last reset
  // Data extents gathered while plotting; auto-fit applies them on the next frame.
  double data_min = std::numeric_limits<double>::infinity();
  double data_max = -std::numeric_limits<double>::infinity();
  // Heatmaps and other area items fit tightly (no padding around them).
  double tight_min = std::numeric_limits<double>::infinity();
  double tight_max = -std::numeric_limits<double>::infinity();
  double fit_min = 0.0, fit_max = 0.0;
  bool has_fit = false;
};

enum AxisMask { kAxisNone = 0, kAxisX = 1, kAxisY = 2, kAxisBoth = 3 };

struct QueuedFill;  // rect_fills.hpp

// Persistent per-plot state, keyed by the plot's ImGui ID.
struct PlotState {
  AxisState x, y;
  int drag_axes = kAxisNone;  // axes being panned by the current mouse drag
};

struct LegendEntry {
  std::string label;
  ImU32 color;
  bool line;  // line swatch (series) or filled square (bands, points)
};

struct HoverLine {
  std::string text;
  ImU32 color = 0;  // 0: no swatch
};

// A plot between begin_plot and end_plot.
struct CurrentPlot {
  ImGuiID id = 0;
  PlotState* state = nullptr;
  PlotOptions options;
  std::string title;
  std::vector<std::string> title_lines;  // the title as drawn (more than one: wrapped)
  float title_size = 0;                  // its font size
  AxisSpec x_spec, y_spec;
  std::string x_label, y_label;
  bool axes_ready = false;
  ImRect frame;  // the whole widget
  ImRect rect;   // the data area
  std::vector<Tick> x_ticks, y_ticks;
  ImDrawList* draw = nullptr;
  QueuedFill* background = nullptr;  // the data area's fill, when queued as a clear
  // The draw list's sizes once the background and grid were queued: a band queued while it
  // holds nothing more can be drawn opaque (plot_xband).
  int grid_vtx_end = -1, grid_cmd_end = -1;
  int next_color = 0;
  std::vector<LegendEntry> legend;
  std::vector<HoverLine> hover_lines;
  // Labels of plot_hline: placed when the line is drawn (a later one moves aside), drawn by
  // end_plot above every line so no line crosses a label.
  struct LineLabel {
    ImRect rect;
    ImU32 color;
    std::string text;
  };
  std::vector<LineLabel> line_labels;
  bool hovered = false;   // mouse over the data area, no drag in progress elsewhere
  bool frame_hovered = false, held = false;  // from ImGui's ButtonBehavior on the frame
  ImVec2 mouse{0, 0};
  float font_size = 13.0f;
  double data_lo = 0.0, data_hi = 0.0;  // value range seen while recording (DrawnPlot::varied)
  bool has_data = false, varied = false;
};

CurrentPlot& current();            // asserts when called outside begin_plot/end_plot
CurrentPlot* current_or_null();
PlotState& state_for(ImGuiID id);  // created on first use
std::unordered_map<ImGuiID, PlotState>& states();

// While set_record_drawn_plots(true): the values a series or heatmap shows.
bool recording_drawn_plots();
void note_values(std::span<const double> values);
void note_values(std::span<const float> values);
void note_varied();

void record_drawn_plot(const CurrentPlot& c);  // end_plot()

// Data area of the most recently ended plot; colorbar() aligns with it.
ImRect& last_plot_rect();

// Called by every plot_* to make sure axes are laid out (setup_axes is optional).
void ensure_axes();

// Plot <-> pixel transforms for the current plot.
float x_to_px(double x);
float y_to_px(double y);
double px_to_x(float px);
double px_to_y(float py);

// Extends the auto-fit extents with a data point (ignores non-finite and, on log axes,
// non-positive values).
void fit_x(double v, bool tight = false);
void fit_y(double v, bool tight = false);

// Style derived from the ImGui theme so dark and light themes both work.
struct Theme {
  ImU32 text, text_dim, frame_bg, plot_bg, grid, border, crosshair, legend_bg;
};
Theme theme();
// The grid's rules (plot_frame.cpp) in the given colours; the minor rules' colour for `grid`.
void draw_grid_rules(CurrentPlot& c, ImU32 major, ImU32 minor);
ImU32 minor_grid_color(ImU32 grid);

// Lengths in pixels: font-relative ones follow the font size, strokes follow
// pixel_scale() (UI scale × export scale).
float em();                 // current font size
// A one-line message in the data area's top-left corner, where a plot cannot draw its item.
void corner_message(CurrentPlot& c, const char* text);
float stroke(float points); // line width in pixels
float data_stroke(float points);  // a data series' line: stroke() × the line-width setting

// Series label without the "##id" suffix; empty for hidden ("##...") labels.
std::string display_label(const char* label);
ImGuiID item_id(const char* label);  // label hashed inside the current plot

void add_legend_entry(const char* label, ImU32 color, bool line);
ImU32 resolve_color(ImU32 requested);  // 0 -> next palette colour

}  // namespace plot::detail
