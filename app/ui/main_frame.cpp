#include "ui/main_frame.hpp"


#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include "platform/frame_pacing.hpp"
#include "platform/host.hpp"
#include "plot/plot.hpp"
#include "plot/space_wrap.hpp"
#include "ui/about_dialog.hpp"
#include "ui/formula_strip.hpp"
#include "ui/gui_stack_guard.hpp"
#include "ui/narrow_layout.hpp"
#include "ui/parameter_panel.hpp"
#include "ui/record_dialog.hpp"
#include "ui/presenter.hpp"
#include "ui/presenter_panel.hpp"
#include "ui/shortcuts.hpp"
#include "views/model_family.hpp"
#include "ui/touch_gestures.hpp"
#include "views/view.hpp"

namespace app {
namespace {

float g_view_overflow = 0.0f;
bool g_drawer_open = false;  // the narrow layout's parameter drawer (ui/narrow_layout.hpp)

// A view that throws (a core error no validation foresaw) shows the message in place of
// its plots; the frame, the other views and the session carry on.
// With `formula`, the view's formula with the current numbers sits in a strip below it.
void draw_view(const ViewInfo& view, AppState& state, const Derived& derived, double time, bool exporting,
               bool formula = false, bool narrow = false) {
  // A RoPE view while the model does not rotate: say so above it (in exports too).
  draw_not_rotary_banner(state, view, ImGui::GetContentRegionAvail().x, !exporting);
  ImVec2 avail = ImGui::GetContentRegionAvail();
  const std::vector<std::string> formula_lines =
      formula && state.show_formula ? view_formula(view.name, state, derived) : std::vector<std::string>{};
  const float strip = formula_strip_height(formula_lines, avail.x);
  avail.y = std::max(1.0f, avail.y - strip);
  ViewContext ctx{state, derived, avail, time, exporting};
  ctx.narrow = narrow;
  // A view whose plots cannot all keep a readable height here (many plots at 2× on a
  // 1080p projector, a cell of the grid) runs past the bottom and scrolls; the wheel over
  // a plot still zooms it (plots claim the wheel). Inside the child, the room left of a
  // scrollbar is the view's width.
  // An export cannot scroll: no scrollbar there, and the overflow is measured instead.
  ImGui::BeginChild(view.name, {0, avail.y}, false, exporting ? ImGuiWindowFlags_NoScrollbar : ImGuiWindowFlags_None);
  ctx.size = ImGui::GetContentRegionAvail();
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
  {
    const ImGuiWindow* child = ImGui::GetCurrentWindow();
    g_view_overflow = std::max(0.0f, child->DC.CursorMaxPos.y - (child->Pos.y + child->Size.y));
  }
  ImGui::EndChild();
  if (strip > 0) draw_formula_strip(formula_lines, strip);
}

void draw_edit_menu(AppState& state, UndoHistory& undo) {
  if (!ImGui::BeginMenu("Edit")) return;
  const std::string undo_text = undo.can_undo() ? "Undo " + undo.undo_label() : std::string("Undo");
  const std::string redo_text = undo.can_redo() ? "Redo " + undo.redo_label() : std::string("Redo");
  if (ImGui::MenuItem(undo_text.c_str(), "Ctrl+Z", false, undo.can_undo())) undo.undo(state);
  if (ImGui::MenuItem(redo_text.c_str(), "Ctrl+Shift+Z", false, undo.can_redo())) undo.redo(state);
  ImGui::EndMenu();
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
      for (const ViewInfo* v : embeddable_views())
        if (ImGui::Selectable(v->name, name == v->name)) name = v->name;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("grid_views: the view shown in this cell.");
    {
      const plot::MinDataLinesScope embedded(plot::kEmbeddedMinDataLines);
      if (const ViewInfo* v = find_view(name)) draw_view(*v, state, derived, time, false);
    }
    ImGui::EndChild();
    ImGui::PopID();
  }
}

// Two rows of tabs: groups (Absolute, RoPE, ...), then the views of the selected group —
// eighteen views in one row would scroll the later ones out of sight, worst at 2×.
// The tab the user clicked wins, except in frames where the state names another view
// (changed from the CLI, a session or a shortcut): then its tabs are selected
// programmatically, which ImGui applies a frame later.
void draw_view_tabs(AppState& state, const Derived& derived, double time, bool exporting) {
  static std::string last_selected;
  static std::map<std::string, std::string> group_view;  // last view shown per group
  // A new ImGui context (another session in this process) has no tab bars yet: start
  // over as in a new process, so its tabs follow the state, not ImGui's first tab.
  if (!ImGui::GetCurrentContext()->TabBars.GetByKey(ImGui::GetID("##group-tabs"))) {
    last_selected.clear();
    group_view.clear();
  }
  const bool pending = state.view != last_selected;
  const ViewInfo* current = find_view(state.view);
  if (!current) current = &all_views()[0];
  if (!ImGui::BeginTabBar("##group-tabs")) return;
  bool drawn = false;
  for (const char* group : view_groups()) {
    const std::vector<const ViewInfo*> views = views_in_group(group);
    const bool force_group = pending && std::string(current->group) == group;
    const bool open = ImGui::BeginTabItem(group, nullptr, force_group ? ImGuiTabItemFlags_SetSelected : 0);
    if (ImGui::IsItemHovered()) {
      std::string names;
      for (const ViewInfo* v : views) names += std::string(names.empty() ? "" : ", ") + v->title;
      ImGui::SetTooltip("%s: %s", group, names.c_str());
    }
    if (!open) continue;
    bool force_view = pending;
    if (!pending && std::string(current->group) != group) {  // the user clicked another group
      const auto it = group_view.find(group);
      state.view = it != group_view.end() ? it->second : views.front()->name;
      force_view = true;
    }
    ImGui::PushID(group);
    if (ImGui::BeginTabBar("##view-tabs", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
      for (const ViewInfo* view : views) {
        const ViewInfo& v = *view;
        const bool force = force_view && state.view == v.name;
        if (ImGui::BeginTabItem(v.title, nullptr, force ? ImGuiTabItemFlags_SetSelected : 0)) {
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s  (--view %s)", v.summary, v.name);
          if (!force_view) state.view = v.name;
          if (state.view == v.name) {
            last_selected = v.name;
            group_view[group] = v.name;
            draw_view(v, state, derived, time, exporting, true);
            drawn = true;
          }
          ImGui::EndTabItem();
        } else if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip("%s  (--view %s)", v.summary, v.name);
        }
      }
      ImGui::EndTabBar();
    }
    // While ImGui catches up with a programmatic switch (a frame or two), the new view is
    // already drawn under the old tabs rather than leaving the area empty.
    if (!drawn) {
      const ViewInfo* target = find_view(state.view);
      draw_view(target ? *target : *current, state, derived, time, exporting, true);
      drawn = true;
    }
    ImGui::PopID();
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

// The parameter panel's content: the app's name, then every parameter.
void draw_panel_content(AppState& state, const std::string& state_error, bool narrow = false) {
  ImGui::TextUnformatted("pe-viz");
  // The subtitle only where it fits beside the name (not at 3× in a narrow panel).
  const char* subtitle = "positional encodings, live";
  if (ImGui::GetItemRectSize().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(subtitle).x <
      ImGui::GetContentRegionAvail().x) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", subtitle);
  }
  draw_parameter_panel(state, state_error, narrow);
}

// The menu bar's first item in the narrow layout: opens and closes the parameter drawer.
void draw_drawer_button() {
  if (ImGui::MenuItem("≡ Parameters", nullptr, g_drawer_open)) g_drawer_open = !g_drawer_open;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The parameter panel (F2)");
}

// The narrow layout (ui/narrow_layout.hpp): the view the whole width, the view choices over
// it on rows that wrap; the open drawer under the view in an upright window (the view stays
// in sight while a slider moves), at its left in a wide one.
void draw_narrow_views(AppState& state, const Derived& derived, double time, const FrameOptions& options,
                       const std::string& state_error) {
  const ImVec2 area = ImGui::GetContentRegionAvail();
  const float em = ImGui::GetFontSize();
  const bool drawer = g_drawer_open && options.show_panel;
  const bool below = area.y >= area.x;
  const float drawer_w = std::min(std::clamp(area.x * 0.45f, 20.0f * em, 26.0f * em), area.x * 0.6f);
  if (drawer && !below) {
    const TouchStyle touch_style(options.touch);
    ImGui::BeginChild("##parameters", {drawer_w, 0}, true);
    draw_panel_content(state, state_error, true);
    ImGui::EndChild();
    ImGui::SameLine();
  }
  ImGui::BeginChild("##views", {0, drawer && below ? std::max(area.y * 0.42f, 8.0f * em) : 0.0f}, false);
  // With the drawer open the view keeps all the room it has (the choices return when it closes).
  if (options.show_tabs && !drawer) {
    const TouchStyle touch_style(options.touch);
    draw_view_chooser(state);
  }
  const ViewInfo* current = find_view(state.view);
  draw_view(current ? *current : all_views()[0], state, derived, time, options.exporting, !drawer, /*narrow=*/true);
  ImGui::EndChild();
  if (drawer && below) {
    const TouchStyle touch_style(options.touch);
    ImGui::BeginChild("##parameters", {0, 0}, true);
    draw_panel_content(state, state_error, true);
    ImGui::EndChild();
  }
}

// The status message on lines of its own under the menu bar (a phone's menu bar has no room
// for it), wrapped at spaces; at most three lines, the rest scrolls.
void draw_status_rows(const StatusLine& status, double now) {
  if (!status_shown(status, now)) return;
  const float width = ImGui::GetContentRegionAvail().x;
  const std::string text = wrapped_at_spaces(status.text, width - ImGui::GetStyle().ScrollbarSize);
  const float lines = std::min(3.0f, ImGui::CalcTextSize(text.c_str()).y / ImGui::GetTextLineHeight() + 0.01f);
  const float height = std::max(lines, 1.0f) * ImGui::GetTextLineHeightWithSpacing();
  ImGui::BeginChild("##status", {0, height + (status.progress >= 0.0f ? ImGui::GetFrameHeightWithSpacing() : 0.0f)}, false);
  StatusLine wrapped = status;
  wrapped.text = text;
  draw_status_line(wrapped, now);
  ImGui::EndChild();
}

}  // namespace

FileActions draw_main_frame(AppState& state, Derived& derived, ImVec2 display, double time_seconds,
                            const FrameOptions& options) {
  FileActions actions;
  Presenter* presenter = options.presenter && options.presenter->active() ? options.presenter : nullptr;
  if (presenter) {
    handle_presenter_keys(*presenter, state, time_seconds);
    presenter->tick(state, time_seconds);
  }
  update_derived(state, derived);
  plot::set_line_scale(state.line_width);
  const std::string state_error = validate_state(state);
  const bool narrow = is_narrow_layout(options.logical_width);
  plot::set_readable_titles(narrow);  // a phone's plot titles wrap rather than shrink to a squint
  // Touch sizes for what the app puts around the views (menus, the drawer, the view buttons,
  // the lesson's buttons); the views keep the sizes they are laid out for.
  std::optional<TouchStyle> touch_style(std::in_place, options.touch);
  if (options.touch) scroll_by_touch_drag();

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
  const bool panel_shown = state.show_panel;
  if (options.status && ImGui::BeginMenuBar()) {
    if (narrow && options.show_panel && !presenter) draw_drawer_button();
    actions = draw_file_menu(state, derived, *options.status, time_seconds, int(display.x), int(display.y));
    if (options.record && ImGui::BeginMenu("File")) {  // appended to the File menu
      if (ImGui::MenuItem("Record animation…", nullptr, false, !options.record->recording())) {
        // Where FFmpeg is missing (a page) the item says so instead of doing nothing.
        if (host::capabilities().video_export) options.record->open(state);
        else show_unavailable(host::video_export_unavailable());
      }
      ImGui::EndMenu();
    }
    if (options.undo) draw_edit_menu(state, *options.undo);
    if (ImGui::BeginMenu("View")) {
      ImGui::MenuItem("Parameter panel", "F2", narrow ? &g_drawer_open : &state.show_panel);
      ImGui::MenuItem("Grid of four views", "F3", &state.grid);
      ImGui::MenuItem("Formula strip", "F4", &state.show_formula);
      if (ImGui::MenuItem("Fullscreen", "F11")) actions.toggle_fullscreen = true;
      ImGui::Separator();
      ImGui::MenuItem("Dark theme", "T", &state.dark_theme);
      if (ImGui::BeginMenu("Projector")) {
        // One click to what a lecture hall needs; each part stays adjustable on its own.
        if (ImGui::MenuItem("Projector preset (2×, light, thick lines, cividis)")) {
          state.ui_scale = 2.0f;
          state.dark_theme = false;
          state.line_width = 3.0f;
          state.colormap = ColormapChoice::Cividis;
          state.show_formula = true;
        }
        if (ImGui::MenuItem("Desk preset (1×, dark, thin lines, RdBu)")) {
          state.ui_scale = 1.0f;
          state.dark_theme = true;
          state.line_width = 1.0f;
          state.colormap = ColormapChoice::RdBu;
        }
        ImGui::EndMenu();
      }
      if (ImGui::MenuItem("Reset zoom of all plots")) plot::clear_state();
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
      ImGui::MenuItem("Keyboard shortcuts", "F1", &state.show_help);
      ImGui::Separator();
      if (ImGui::MenuItem("About pe-viz")) open_about_dialog();
      ImGui::EndMenu();
    }
    handle_shortcuts(state, actions, options.undo, presenter != nullptr);
    if (!narrow) {
      ImGui::SameLine(0, ImGui::GetFontSize() * 2);
      draw_status_line(*options.status, time_seconds);
    }
    ImGui::EndMenuBar();
  }
  touch_style.reset();
  // In the narrow layout F2 opens and closes the drawer; the wide layout's panel stays as set.
  if (narrow && state.show_panel != panel_shown) {
    g_drawer_open = !g_drawer_open;
    state.show_panel = panel_shown;
  }
  if (narrow && options.status) draw_status_rows(*options.status, time_seconds);
  if (options.status && options.record) options.record->draw(state, *options.status, time_seconds);

  if (presenter) presenter = presenter->active() ? presenter : nullptr;  // Esc left the lesson
  // In a lesson the slide takes the parameter panel's place.
  if (!narrow && options.show_panel && state.show_panel && !presenter) {
    // Wide enough for the labels at 1×; at projector scales it yields to the plots.
    const float panel_w = std::min(360.0f * ImGui::GetFontSize() / 16.0f, std::max(300.0f, display.x * 0.3f));
    ImGui::BeginChild("##parameters", {panel_w, 0}, true);
    draw_panel_content(state, state_error);
    ImGui::EndChild();
    ImGui::SameLine();
  }

  const ViewInfo* current = find_view(state.view);
  if (!current) current = &all_views()[0];
  if (presenter) {
    // The slide's one view (no tabs: the lesson chooses) and its text beside or under it.
    const ImVec2 area = ImGui::GetContentRegionAvail();
    const float extent = slide_panel_extent(area);
    const ImVec2 spacing = ImGui::GetStyle().ItemSpacing;
    const bool beside = slide_panel_beside(area);
    ImGui::BeginChild("##views", beside ? ImVec2(area.x - extent - spacing.x, 0) : ImVec2(0, area.y - extent - spacing.y), false);
    draw_view(*current, state, derived, time_seconds, options.exporting, true, narrow);
    ImGui::EndChild();
    if (beside) ImGui::SameLine();
    touch_style.emplace(options.touch);
    const SlideActions pressed = draw_slide_panel(*presenter, beside ? ImVec2(extent, 0) : ImVec2(0, extent), narrow || options.touch);
    touch_style.reset();
    // A swipe across the slide (or anywhere no slider or plot took the finger) turns it.
    const int step = pressed.step != 0 ? pressed.step : options.touch ? take_swipe() : 0;
    if (step != 0) presenter->go(state, step, time_seconds);
    if (pressed.animate) presenter->toggle_animation(time_seconds);
    ImGui::End();
    if (options.status) {
      draw_help_overlay(state);
      draw_about_dialog();
    }
    if (options.undo) options.undo->observe(state, !ImGui::IsAnyItemActive() && !presenter->animating());
    if (pressed.leave) presenter->close();
    // Space and the arrows are the lecturer's: ImGui's keyboard navigation would also press
    // the focused button (the clock's Play) with them. Back on when the lesson ends.
    ImGui::GetIO().ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
    return actions;
  }
  if (options.presenter) ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  if (narrow) {
    draw_narrow_views(state, derived, time_seconds, options, state_error);
  } else {
    ImGui::BeginChild("##views", {0, 0}, false);
    if (options.show_tabs && state.grid) {
      draw_view_grid(state, derived, time_seconds);
    } else if (options.show_tabs) {
      draw_view_tabs(state, derived, time_seconds, options.exporting);
    } else {
      draw_view(*current, state, derived, time_seconds, options.exporting, true);
    }
    ImGui::EndChild();
  }
  ImGui::End();
  if (options.status) {
    draw_help_overlay(state);
    draw_about_dialog();
  }
  // A held slider, a playing clock or a sweeping length is one change still in progress.
  if (options.undo) options.undo->observe(state, !ImGui::IsAnyItemActive() && !state.playing && !state.animate_length);
  // What moves without input keeps the (otherwise sleeping) GUI drawing: a sweeping length,
  // and a text cursor that blinks (ImGui's blink: 0.8 s on, 0.4 s off).
  if (state.animate_length) request_frame();
  if (ImGui::GetIO().WantTextInput) request_frame_within(0.4);
  return actions;
}

float last_view_overflow() { return g_view_overflow; }
bool parameter_drawer_open() { return g_drawer_open; }
void set_parameter_drawer_open(bool open) { g_drawer_open = open; }

}  // namespace app
