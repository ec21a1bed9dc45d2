#pragma once
// The layout for narrow windows: a phone (about 390 logical pixels wide held upright), a
// tablet held upright (768 ... 834), a desktop window made narrow. There the parameter panel
// is a drawer a button opens, the two rows of tabs are rows of buttons that wrap (every name
// whole, none shortened to "Abs…"), and the view takes the whole width. The default desktop
// window (1600 logical pixels) keeps the wide layout: panel beside the view, tabs.
//
// Touch (a page on a touch screen) makes controls taller and easier to hit wherever the
// layout is; a desktop without touch keeps ImGui's sizes.
#include <imgui.h>

#include "state/app_state.hpp"

namespace app {

// Below this width in logical pixels (platform/window.hpp: CSS pixels in a page; the UI
// scale does not count) the layout is the narrow one. Tablets up to 11" held upright
// (768 ... 834) and phones in either orientation fall under it; a laptop's half-screen
// window of 960 does not.
inline constexpr float kNarrowLayoutWidth = 900.0f;
// 0 (unknown: exports, which draw no panel or tabs) is wide.
bool is_narrow_layout(float logical_width);

// The UI scale a window of this width uses: the user's, but no larger than keeps 24 em
// across a narrow window (a projector link, or a lesson's 2×, opened on a phone would leave
// 12 em — every label cut). Never below 1; wide windows keep the user's scale.
float usable_ui_scale(float ui_scale, float logical_width);

// Taller frames and wider spacing while it lives (touch: a finger needs about 40 logical
// pixels where a mouse needs 20); nothing when `touch` is false.
class TouchStyle {
 public:
  explicit TouchStyle(bool touch);
  ~TouchStyle();
  TouchStyle(const TouchStyle&) = delete;
  TouchStyle& operator=(const TouchStyle&) = delete;

 private:
  int pushed_ = 0;
};

// The height of a button a finger hits without aiming (2.75 em: 44 logical pixels at 1×).
float touch_button_height();

// The narrow layout's two rows of view choices — the groups, then the chosen group's views
// — as buttons that wrap onto more lines instead of shrinking their names. Sets state.view.
void draw_view_chooser(AppState& state);

}  // namespace app
