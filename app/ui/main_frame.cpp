#include "ui/main_frame.hpp"


#include <algorithm>
#include <string>

#include <GLFW/glfw3.h>

#include "plot/plot.hpp"
#include "ui/gui_stack_guard.hpp"
#include "ui/parameter_panel.hpp"
#include "views/view.hpp"

namespace app {
namespace {

// A view that throws (a core error no validation foresaw) shows the message in place of
// its plots; the frame, the other views and the session carry on.
void draw_view(const ViewInfo& view, AppState& state, const Derived& derived, double time, bool exporting) {
  ImVec2 avail = ImGui::GetContentRegionAvail();
  ViewContext ctx{state, derived, avail, time, exporting};
  ImGui::BeginChild(view.name, {0, 0}, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const GuiStackSnapshot snapshot;
  try {
    view.draw(ctx);
  } catch (const std::exception& e) {
    plot::abandon_plot();
    snapshot.restore();
    // At the top of the view, over a backing box: what was drawn before the throw stays, and
    // the message must not end up below the visible area.
    ImGui::SetCursorPos({0, 0});
    const std::string message = std::string("This view cannot be drawn with these parameters: ") + e.what();
    const float wrap = ImGui::GetContentRegionAvail().x;
    const ImVec2 size = ImGui::CalcTextSize(message.c_str(), nullptr, false, wrap);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float pad = ImGui::GetStyle().FramePadding.y;
    ImGui::GetWindowDrawList()->AddRectFilled({at.x, at.y}, {at.x + wrap, at.y + size.y + 2 * pad},
                                              ImGui::GetColorU32(ImGuiCol_PopupBg));
    ImGui::SetCursorPos({0, pad});
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::PushTextWrapPos(wrap);
    ImGui::TextUnformatted(message.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  ImGui::EndChild();
}

// Four views at once, each chosen from a combo above it (for a slide that compares
// encodings). Every cell has its own ID scope, so plots keep their own zoom.
void draw_view_grid(AppState& state, const Derived& derived, double time) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 cell((avail.x - spacing) * 0.5f, (avail.y - ImGui::GetStyle().ItemSpacing.y) * 0.5f);
  for (int k = 0; k < 4; ++k) {
    if (k % 2 == 1) ImGui::SameLine();
    ImGui::PushID(k);
    ImGui::BeginChild("##cell", cell, true);
    std::string& name = state.grid_views[std::size_t(k)];
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
    if (ImGui::BeginCombo("##cell-view", name.c_str())) {
      for (const ViewInfo& v : all_views())
        if (std::string(v.name) != "compare" && ImGui::Selectable(v.name, name == v.name)) name = v.name;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("grid_views: the view shown in this cell.");
    if (const ViewInfo* v = find_view(name)) draw_view(*v, state, derived, time, false);
    ImGui::EndChild();
    ImGui::PopID();
  }
}

}  // namespace

FileActions draw_main_frame(AppState& state, Derived& derived, ImVec2 display, double time_seconds,
                            const FrameOptions& options) {
  FileActions actions;
  update_derived(state, derived);
  const std::string state_error = validate_state(state);

  ImGui::SetNextWindowPos({0, 0});
  ImGui::SetNextWindowSize(display);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus |
                                 // glClear already paints the window colour; a second full-screen
                                 // blended quad costs llvmpipe ~3 ms a frame.
                                 ImGuiWindowFlags_NoBackground |
                                 (options.status ? ImGuiWindowFlags_MenuBar : 0);
  // The main window fills the screen or the export: no rounded corners or border of its own.
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::Begin("pe-viz", nullptr, flags);
  ImGui::PopStyleVar(2);
  if (options.status && ImGui::BeginMenuBar()) {
    actions = draw_file_menu(state, derived, *options.status, time_seconds, int(display.x), int(display.y));
    if (ImGui::BeginMenu("View")) {
      ImGui::MenuItem("Parameter panel", "F2", &state.show_panel);
      ImGui::MenuItem("Grid of four views", "F3", &state.grid);
      ImGui::MenuItem("Dark theme", nullptr, &state.dark_theme);
      if (ImGui::MenuItem("Reset zoom of all plots")) plot::clear_state();
      ImGui::EndMenu();
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_F2, false)) state.show_panel = !state.show_panel;
    if (ImGui::IsKeyPressed(GLFW_KEY_F3, false)) state.grid = !state.grid;
    ImGui::SameLine(0, ImGui::GetFontSize() * 2);
    draw_status_line(*options.status, time_seconds);
    ImGui::EndMenuBar();
  }

  if (options.show_panel && state.show_panel) {
    // Wide enough for the labels at 1×; at projector scales it yields to the plots.
    const float panel_w = std::min(360.0f * ImGui::GetFontSize() / 16.0f, std::max(300.0f, display.x * 0.3f));
    ImGui::BeginChild("##parameters", {panel_w, 0}, true);
    ImGui::TextUnformatted("pe-viz");
    ImGui::SameLine();
    ImGui::TextDisabled("positional encodings, live");
    draw_parameter_panel(state, state_error);
    ImGui::EndChild();
    ImGui::SameLine();
  }

  ImGui::BeginChild("##views", {0, 0}, false);
  const ViewInfo* current = find_view(state.view);
  if (!current) current = &all_views()[0];
  if (options.show_tabs && state.grid) {
    draw_view_grid(state, derived, time_seconds);
  } else if (options.show_tabs) {
    // The tab the user clicked wins, except in frames where the state names another view
    // (changed from the CLI or a session): then that tab is selected programmatically.
    static std::string last_selected;
    const bool pending = state.view != last_selected;
    if (ImGui::BeginTabBar("##view-tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
      for (const ViewInfo& v : all_views()) {
        const bool force = pending && state.view == v.name;
        if (ImGui::BeginTabItem(v.title, nullptr, force ? ImGuiTabItemFlags_SetSelected : 0)) {
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s  (--view %s)", v.summary, v.name);
          if (!pending) state.view = v.name;
          if (state.view == v.name) {
            last_selected = v.name;
            draw_view(v, state, derived, time_seconds, options.exporting);
          }
          ImGui::EndTabItem();
        } else if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip("%s  (--view %s)", v.summary, v.name);
        }
      }
      ImGui::EndTabBar();
    }
  } else {
    draw_view(*current, state, derived, time_seconds, options.exporting);
  }
  ImGui::EndChild();
  ImGui::End();
  return actions;
}

}  // namespace app
