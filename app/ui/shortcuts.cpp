#include "ui/shortcuts.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "ui/presenter_panel.hpp"
#include "views/view.hpp"

namespace app {
namespace {

struct Shortcut {
  const char* keys;
  const char* action;
};

constexpr std::array kShortcuts = {
    Shortcut{"F1", "show / hide this help"},
    Shortcut{"F2", "show / hide the parameter panel (more room for the plot)"},
    Shortcut{"F3", "one view / grid of four views"},
    Shortcut{"F4", "show / hide the formula strip under the view"},
    Shortcut{"F11", "fullscreen on / off"},
    Shortcut{"1 ... 9", "the 1st ... 9th view of the current group"},
    Shortcut{"Page Up / Page Down", "previous / next group of views"},
    Shortcut{"Space", "play / pause (clock hands turn with the position)"},
    Shortcut{"Left / Right", "position p − 1 / + 1"},  // plus each view's own step (ViewInfo::step_help)
    Shortcut{"Up / Down", "dimension pair i + 1 / − 1"},
    Shortcut{"+ / −", "UI scale up / down (1× ... 3×, for projectors)"},
    Shortcut{"T", "light / dark theme"},
    Shortcut{"W", "line width 1× → 2× → 3× → 4× → 1×"},
    Shortcut{"Ctrl+E", "export the view as PNG"},
    Shortcut{"Ctrl+S / Ctrl+O", "save / open a session"},
    Shortcut{"Ctrl+Z / Ctrl+Shift+Z, Ctrl+Y", "undo / redo a parameter change (a slider drag or a preset is one step)"},
    Shortcut{"Ctrl+Q", "quit (the session is kept for the next start)"},
};

bool pressed(int key) { return ImGui::IsKeyPressed(key, true); }

// The arrows' line names every view that gives them its own meaning.
std::string shortcut_action(const Shortcut& k) {
  std::string action = k.action;
  if (std::string(k.keys) != "Left / Right") return action;
  for (const ViewInfo& v : all_views())
    if (v.step_help) action += std::string(" (") + v.step_help + ")";
  return action;
}

}  // namespace

void handle_shortcuts(AppState& s, FileActions& actions, UndoHistory* undo, bool presenting) {
  const ImGuiIO& io = ImGui::GetIO();
  // A text field has its own Ctrl+Z (its text); elsewhere it undoes parameter changes.
  if (undo && io.KeyCtrl && !io.KeyAlt && !io.WantTextInput && !ImGui::IsAnyItemActive()) {
    const bool z = ImGui::IsKeyPressed(GLFW_KEY_Z, true), y = ImGui::IsKeyPressed(GLFW_KEY_Y, true);
    if (z && !io.KeyShift) undo->undo(s);
    else if ((z && io.KeyShift) || y) undo->redo(s);
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) s.show_help = !s.show_help;
  if (ImGui::IsKeyPressed(GLFW_KEY_F2, false)) s.show_panel = !s.show_panel;
  if (ImGui::IsKeyPressed(GLFW_KEY_F3, false)) s.grid = !s.grid;
  if (ImGui::IsKeyPressed(GLFW_KEY_F4, false)) s.show_formula = !s.show_formula;
  if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) actions.toggle_fullscreen = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) s.show_help = false;
  // Plain keys belong to a text field being edited, and Ctrl/Alt combinations to menus.
  if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || io.KeySuper) return;
  const bool plus = ImGui::IsKeyPressed(GLFW_KEY_EQUAL, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD, false);
  const bool minus = ImGui::IsKeyPressed(GLFW_KEY_MINUS, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT, false);
  if (plus) s.ui_scale = std::min(3.0f, s.ui_scale + 0.25f);
  if (minus) s.ui_scale = std::max(1.0f, s.ui_scale - 0.25f);
  if (ImGui::IsKeyPressed(GLFW_KEY_T, false)) s.dark_theme = !s.dark_theme;
  if (ImGui::IsKeyPressed(GLFW_KEY_W, false)) s.line_width = s.line_width >= 4.0f ? 1.0f : std::floor(s.line_width) + 1.0f;
  if (presenting) return;  // the lesson chooses the view and moves the numbers
  const ViewInfo* current = find_view(s.view);
  const std::string group = current ? current->group : view_groups()[0];
  const std::vector<const ViewInfo*> in_group = views_in_group(group);
  for (int k = 0; k < 9 && k < int(in_group.size()); ++k)
    if (ImGui::IsKeyPressed(GLFW_KEY_1 + k, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_1 + k, false)) {
      s.view = in_group[std::size_t(k)]->name;
      s.grid = false;
    }
  const int group_step = int(ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN, false)) - int(ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP, false));
  if (group_step != 0) {
    const auto groups = view_groups();
    int g = 0;
    while (g < int(groups.size()) && group != groups[std::size_t(g)]) ++g;
    g = (g + group_step + int(groups.size())) % int(groups.size());
    s.view = views_in_group(groups[std::size_t(g)]).front()->name;  // the group's first view
    s.grid = false;
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) s.playing = !s.playing;
  // Arrow keys also move ImGui's keyboard focus between widgets; only when no widget is
  // active (a slider being dragged) do they step the lesson.
  if (!ImGui::IsAnyItemActive()) {
    const int step = int(pressed(GLFW_KEY_RIGHT)) - int(pressed(GLFW_KEY_LEFT));
    if (step != 0) {
      step_view(s, step);
    }
    const int pair_step = int(pressed(GLFW_KEY_UP)) - int(pressed(GLFW_KEY_DOWN));
    if (pair_step != 0) s.pair = std::clamp<long long>(s.pair + pair_step, 0, std::max<long long>(s.rope.rotary_dim() / 2 - 1, 0));
  }
}

void draw_help_overlay(AppState& s) {
  if (!s.show_help) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f}, ImGuiCond_Always, {0.5f, 0.5f});
  ImGui::SetNextWindowBgAlpha(0.96f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("Keyboard shortcuts (F1 or Esc to close)", &s.show_help, flags)) {
    if (ImGui::BeginTable("##shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const Shortcut& k : kShortcuts) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(shortcut_action(k).c_str());
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextDisabled("In a lesson (pe-viz lesson, File → Open lesson…):");
    if (ImGui::BeginTable("##presenter-keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const PresenterKey* k = presenter_keys(); k->keys; ++k) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k->keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k->action);
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextDisabled("Groups and their views (keys 1 ... 9 within a group):");
    for (const char* group : view_groups()) {
      std::string line = std::string(group) + ":";
      int k = 0;
      for (const ViewInfo* v : views_in_group(group)) line += "  " + std::to_string(++k) + " " + v->title;
      ImGui::TextDisabled("  %s", line.c_str());
    }
  }
  ImGui::End();
}

}  // namespace app
