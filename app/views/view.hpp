#pragma once
// A view draws one kind of plot from AppState into the rectangle it is given (a window
// region or an offscreen export framebuffer of any size). Views own no parameters;
// view-local caches key themselves on Derived::version and what they sample.
#include <imgui.h>

#include <span>
#include <string>
#include <vector>

#include "state/app_state.hpp"
#include "plot/plot.hpp"
#include "state/derived.hpp"

namespace app {

struct ViewContext {
  AppState& state;          // views may change view-local choices (e.g. play/pause)
  const Derived& derived;
  ImVec2 size;              // the region to fill
  double time_seconds = 0;  // frame time, for animations
  bool exporting = false;   // an export: hide widgets, and finish all work this frame
  bool hide_widgets = false;  // a small embedded copy (compare's sides): no widgets, work may stay async
  // The narrow layout (ui/narrow_layout.hpp: a phone, a tablet, a narrow window): a view may
  // rearrange its widgets and plots to keep every text whole. False in the wide layout
  // (the desktop window, projectors) and exports, which keep their layouts exactly.
  bool narrow = false;
  bool show_widgets() const { return !exporting && !hide_widgets; }
};

// Everything pe-viz knows about one view, defined together in the view's own file
// (views/<name>_view.cpp): how it draws, the numbers behind it, its formula, its keys and
// what a lesson may animate. Export, CSV, the formula strip, shortcuts, the soak driver,
// sessions and lessons ask this record; nothing else compares view names.
struct ViewInfo {
  const char* name;         // stable kebab-case name: --view, sessions, file names
  const char* title;        // tab label
  const char* summary;      // one-line description for --list-views --verbose and tooltips
  const char* group;        // the first row of tabs (Absolute, RoPE, Relative, ...)
  void (*draw)(ViewContext& ctx);
  // The numbers behind the picture as CSV (throws on an invalid state).
  std::string (*csv)(const AppState& state, const Derived& derived);
  // The formula strip: the formula, then the same with the current numbers substituted.
  std::vector<std::string> (*formula)(const AppState& state, const Derived& derived);
  // Left / Right arrows: one step of this view; nullptr moves the position p by ±1.
  void (*step)(AppState& state, int delta) = nullptr;
  const char* step_help = nullptr;  // the F1 line for `step`, e.g. "walkthrough: previous / next step"
  // Numeric session keys whose change moves this view's picture: what a lesson or an
  // animation export may animate here.
  std::span<const char* const> animatable = {};
  // Embeds another view (compare): not offered inside itself or in a grid cell.
  bool hosts_views = false;
  // Draws the loaded model's RoPE (state.rope): when the model does not rotate (GPT-2, T5,
  // BLOOM …) a banner above the view says so and names the model's own view (issue 33).
  bool model_rope = false;
  // Session keys of the relative-position parameters (issue 32) this view reads: the
  // parameter panel shows their controls while the view is on screen, and only then.
  std::span<const char* const> panel_parameters = {};
};

// All views in tab order. Registering a view is one line in view_registry.cpp.
std::span<const ViewInfo> all_views();
// View groups in tab order (each view's `group` is one of them).
std::span<const char* const> view_groups();
// The views of one group, in tab order (empty for an unknown group).
std::vector<const ViewInfo*> views_in_group(const std::string& group);
const ViewInfo* find_view(const std::string& name);
// Views that may be embedded (grid cells, compare's sides): all but the hosts.
std::vector<const ViewInfo*> embeddable_views();
// What is on screen: "compare/rope-cos" when a host shows another view, else the name.
std::string shown_view_label(const AppState& state);
// Left / Right as the current view defines them (grid: the position).
void step_view(AppState& state, int delta);
// The views on screen: the current one, compare's embedded view, or the grid's four.
std::vector<const ViewInfo*> shown_views(const AppState& state);

// Shared helpers for views (app/views/view_common.cpp).
// printf-style formatting for formula lines and notes.
std::string formatted(const char* format, ...) __attribute__((format(printf, 1, 2)));
// The selected pair i, clamped to the rotary pairs the derived frequencies have.
long long selected_pair(const AppState& state, const Derived& derived);
void show_state_error(const Derived& derived);  // red message box when the state is invalid
void teaching_note(const char* text);          // a boxed "why" note under a plot
// The p-RoPE control (state.p_rope) as a slider `width` points wide, with its tooltip.
void p_rope_slider(AppState& state, float width);
// Height the note takes when wrapped to the remaining width (reserve it before the plots
// above, so the note is never cut at projector scales).
float teaching_note_height(const char* text);
// While one lives, teaching notes are left out and take no height: compare's sides showed
// the inner view's note twice, in half the width, and at projector scale that pushed each
// side's plots into a scrolling pane.
class TeachingNotesHidden {
 public:
  TeachingNotesHidden();
  ~TeachingNotesHidden();
  TeachingNotesHidden(const TeachingNotesHidden&) = delete;
  TeachingNotesHidden& operator=(const TeachingNotesHidden&) = delete;

 private:
  bool saved_;
};
// In the narrow layout, an area narrower than this many em (a phone held upright: about 22)
// stacks what the view would put side by side; a tablet's, and every area of the wide
// layout (desktop windows, projectors, compare's sides, grid cells), keep their layouts.
inline constexpr float kNarrowViewEm = 30.0f;
bool is_narrow_view(const ViewContext& ctx, float width);
// Two columns of plots, the left `left_fraction` of the width; in a narrow view (a phone) one
// above the other, each the full width (the view scrolls). next() goes to the right column.
struct PlotColumns {
  bool stacked = false;
  float left_w = 0.0f, right_w = 0.0f;
  void next() const;
};
PlotColumns plot_columns(const ViewContext& ctx, float left_fraction);
// A line of text wrapped at spaces to the width left (never after a decimal point); where it
// fits, exactly as ImGui::TextUnformatted draws it.
void text_line_wrapped(const std::string& text);
// ImGui::BeginTable, except that a table whose columns (as wide as their text, measured in
// the last frame) no longer fit the width left — a phone — keeps them that wide and scrolls
// sideways (a finger drags it) instead of cutting their text. Where they fit, exactly as
// BeginTable. Only for tables of one-line cells (wrapped cells fit any width).
// In the wide layout (not ctx.narrow): BeginTable as given. fitting_table_scrolls: whether
// it will scroll this frame (the scrollbar takes ScrollbarSize more height).
bool fitting_table_scrolls(const ViewContext& ctx, const char* id, float width = 0.0f);
bool begin_fitting_table(const ViewContext& ctx, const char* id, int columns, ImGuiTableFlags flags, ImVec2 outer_size = {0, 0});
// A table whose columns are as wide as their text (no stretch columns, no wrapped cells),
// scrolling sideways in the width given (0: all that is left), as tall as its rows were in
// the last frame.
bool begin_scrolling_table(const char* id, int columns, ImGuiTableFlags flags, float width = 0.0f);
// In a row of labelled widgets: beside the last one; in the narrow layout on a new line
// when the next widget and its label (`width`) would pass the edge. (same_line_if_fits wraps
// in every layout, for rows whose view takes its height from what is left below them.)
void row_next(const ViewContext& ctx, float width);
// `width` for a widget whose frame shows `text` (a combo's preview: `arrow`); in the narrow
// layout as wide as the text needs, up to the width left.
float fitted_width(const ViewContext& ctx, float width, const char* text, bool arrow = true);
// Continues the row when an item `width` wide still fits, else starts a new line (button
// rows that wrap in narrow or portrait windows at projector scales).
void same_line_if_fits(float width);
float button_width(const char* label);  // a button's width with the current font and padding
ImVec2 split_height(ImVec2 size, float top_fraction);  // size of the top part
// Frame heights for plots stacked in `height` (item spacing between them included): each
// gets its title / tick / label band, and the data heights share what is left by
// `weights`, so a short window squeezes every plot's data alike rather than the one with
// the smallest fraction first. `titled[k]`: plot k has a title.
std::vector<float> stacked_plot_heights(float height, std::span<const float> weights, std::span<const bool> titled);
// Two titled plots, one above the other: stacked_plot_heights with data shares
// `top_share` and 1 − top_share.
std::vector<float> two_plot_heights(float height, float top_share);
// 0, 1, ..., n−1 as plot x values (pair or head indices).
std::vector<double> index_axis(long long n);
// Core's Eigen arrays as the spans the plot layer takes.
std::vector<double> as_vector(const Eigen::ArrayXd& a);
// sin(p·freq) or cos(p·freq) over the integer positions 0 ... length−1: a line through the
// positions when they are fewer than the plot's pixels (the encoding exists only there);
// otherwise, per pixel, the exact min/max envelope over that pixel's position span — a
// zig-zag through one sample per pixel would alias into a false wave.
// Curves start on the first positions, where single waves are visible; zooming out shows
// the rest (as per-pixel envelopes).
inline constexpr long long kCurveWindow = 256;  // tutorials often plot the first 100
std::string curve_window_title(const char* what, long long length);
void plot_sinusoid_curve(const char* label, double freq, bool cosine, long long length, const plot::LineStyle& style = {});

}  // namespace app
