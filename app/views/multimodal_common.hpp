#pragma once
// Shared by the multimodal views (mrope-layout, mrope-positions, rope-2d; issue 12): which
// multi-axis layout the current state describes, the axis colours and names every one of
// them uses, and the few drawing helpers the plot layer does not have (filled cells,
// labels that only appear where they fit, widgets that wrap instead of running off).
#include <imgui.h>

#include <array>
#include <string>
#include <vector>

#include "pe/multimodal/multimodal.hpp"
#include "views/view.hpp"

namespace app {

inline constexpr pe::MultiAxisScheme kMultiAxisSchemes[] = {pe::MultiAxisScheme::MRope, pe::MultiAxisScheme::MRopeInterleaved,
                                                           pe::MultiAxisScheme::Ernie3D, pe::MultiAxisScheme::Vision2D,
                                                           pe::MultiAxisScheme::Axial};

// What the views draw for the current state. A config that declares a multi-axis rotary
// (mrope_section, axes_dims_rope, a vision tower) gives its own; a text-only config (the
// teaching preset) gets layouts built from its θ and d with automatic sections.
struct MultimodalSetup {
  bool config_has_layout = false;  // the config declares a multi-axis rotary
  pe::MultiAxisScheme config_scheme = pe::MultiAxisScheme::MRope;  // its scheme (mrope when none)
  pe::MultiAxisScheme scheme = pe::MultiAxisScheme::MRope;         // state.scheme, "auto" resolved
  pe::Vision2DVariant variant = pe::Vision2DVariant::Qwen2VL;      // vision-2d: the config's, else qwen2-vl
  long long pairs = 0;                  // rotary pairs of the config (derived inv_freq)
  std::vector<long long> sections;      // pairs per axis (t, h, w) for mrope, mrope-interleaved, axial
  std::string sections_origin;          // where they come from, for notes and formulas
  std::string sections_error;           // state.sections do not fit: message naming `sections`
};
MultimodalSetup multimodal_setup(const AppState& state, const Derived& derived);

// The layout of `scheme` for the current config; throws pe::InvalidArgument naming what
// does not fit (vision 2D needs d divisible by 4, axial at least one pair on h and w).
pe::MultiAxisLayout scheme_layout(pe::MultiAxisScheme scheme, const MultimodalSetup& setup, const AppState& state,
                                  const Derived& derived);

// Qwen2-VL's proportions for any pair count: [16, 24, 24] of 64 pairs is ¼ t, ⅜ h, ⅜ w.
std::vector<long long> automatic_sections(long long pairs);
std::string sections_text(const std::vector<long long>& sections);  // "[16, 24, 24]"

const char* axis_name(int axis);  // "t", "h", "w"
const char* axis_role(int axis);  // "time / text", "row", "column"
ImU32 axis_color(int axis, int alpha = 255);  // Okabe–Ito orange, blue, reddish purple
const char* scheme_title(pe::MultiAxisScheme scheme);  // "M-RoPE contiguous (Qwen2-VL, Qwen2.5-VL)"
pe::MultiAxisScheme next_scheme(pe::MultiAxisScheme scheme, int delta);  // Left / Right cycling
pe::VectorChoice qk_choice(const std::string& qk);
double wavelength(double inv_freq);  // 2π/θ_i

// Filled cells [x0, x1] × [y0, y1] in plot coordinates, as one band series (gaps between).
using Cell = std::array<double, 4>;
void fill_cells(const char* label, const std::vector<Cell>& cells, ImU32 color, bool in_legend);
// Text centred on (x, y) in plot coordinates, drawn only when it fits `max_width_px` and
// lies wholly inside the plot's data area (never cut by its edge).
bool centred_label(double x, double y, const char* text, ImU32 color, float max_width_px);
// Black or white, whichever reads on `background`.
ImU32 text_color_on(ImU32 background);
// The first of `versions` (longest first) whose height as a teaching note fits `budget`
// pixels; "" when none does. Projector scales get the short ones, not squashed plots.
std::string fitting_note(const std::vector<std::string>& versions, float budget);
// Height a plot needs for `data_lines` text lines of data plus its title and axis labels.
float plot_height_for(float data_lines);
// A wrapped red message (bad input beside its control).
void error_text(const std::string& message);
// A click (press and release without dragging) on the current plot's data area.
bool plot_clicked();

}  // namespace app
