#include "ui/touch_gestures.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the active item's window, its move id, SetScrollY(window)

#include <algorithm>
#include <cmath>

namespace app {
namespace {

// ImGui makes a press on a window's background "active" too (the window's move handle,
// even where the window cannot move): that press belongs to no widget.
bool background_active() {
  const ImGuiContext& g = *GImGui;
  return g.ActiveId != 0 && g.ActiveIdWindow && g.ActiveId == g.ActiveIdWindow->MoveId;
}

struct Swipe {
  bool tracking = false;
  bool claimed = false;  // a widget took the press: its drag, not a swipe
  ImVec2 start;
};
Swipe g_swipe;

}  // namespace

void scroll_by_touch_drag() {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.MouseDown[0] || (io.MouseDelta.x == 0.0f && io.MouseDelta.y == 0.0f) || !background_active()) return;
  // Each direction scrolls the nearest window that can scroll that way (a wide table
  // sideways inside a pane that scrolls down).
  bool x_done = io.MouseDelta.x == 0.0f, y_done = io.MouseDelta.y == 0.0f;
  for (ImGuiWindow* w = GImGui->ActiveIdWindow; w && !(x_done && y_done); w = w->ParentWindow) {
    if (!y_done && w->ScrollMax.y > 0.0f) {
      ImGui::SetScrollY(w, std::clamp(w->Scroll.y - io.MouseDelta.y, 0.0f, w->ScrollMax.y));
      y_done = true;
    }
    if (!x_done && w->ScrollMax.x > 0.0f) {
      ImGui::SetScrollX(w, std::clamp(w->Scroll.x - io.MouseDelta.x, 0.0f, w->ScrollMax.x));
      x_done = true;
    }
    if (!(w->Flags & ImGuiWindowFlags_ChildWindow)) return;
  }
}

int take_swipe() {
  const ImGuiIO& io = ImGui::GetIO();
  Swipe& s = g_swipe;
  if (io.MouseClicked[0]) s = {true, false, io.MouseClickedPos[0]};
  if (!s.tracking) return 0;
  if (ImGui::IsAnyItemActive() && !background_active()) s.claimed = true;
  if (!io.MouseReleased[0]) return 0;
  s.tracking = false;
  if (s.claimed || !ImGui::IsMousePosValid()) return 0;
  const float dx = io.MousePos.x - s.start.x, dy = io.MousePos.y - s.start.y;
  // Far enough to be meant (4 em; a sixth of the width where that is less) and mostly sideways.
  const float needed = std::min(4.0f * ImGui::GetFontSize(), io.DisplaySize.x / 6.0f);
  if (std::abs(dx) < needed || std::abs(dx) < 2.0f * std::abs(dy)) return 0;
  return dx < 0 ? +1 : -1;
}

}  // namespace app
