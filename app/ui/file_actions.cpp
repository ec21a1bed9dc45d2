#include "ui/file_actions.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <GLFW/glfw3.h>

#include <algorithm>

#include "export/view_data.hpp"
#include "pe/base/text.hpp"
#include "platform/frame_pacing.hpp"
#include "export/slide_deck.hpp"
#include "export/view_export.hpp"
#include "state/session_file.hpp"
#include "ui/presenter.hpp"

namespace app {
namespace {

struct DialogState {
  bool open_export = false, open_save = false, open_load = false, open_csv = false, open_lesson = false;
  int size_choice = 0;  // window, 2× window, 1920×1080, 3840×2160, custom
  int custom_w = 2560, custom_h = 1440;
  int background = 0;
  bool all_views = false;
  std::string png_path, session_path = "session.pe-viz.json", csv_path, lesson_path = "lesson.md";
};

DialogState g_dialog;

void set_status(StatusLine& status, std::string text, bool error, double now) {
  status = {std::move(text), error, now};
}

// A modal asking for a path: returns true when `action` was pressed (the popup closes either way).
bool path_dialog(const char* title, std::string& path, const char* action) {
  bool confirmed = false;
  if (ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::InputText("path", &path);
    if (ImGui::Button(action)) {
      confirmed = true;
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
  return confirmed;
}

bool is_markdown_path(const std::string& path) {
  const std::string ext = pe::lower_extension(path);
  return ext == ".md" || ext == ".markdown";
}

bool ctrl_pressed(int key) {
  const ImGuiIO& io = ImGui::GetIO();
  return io.KeyCtrl && ImGui::IsKeyPressed(key, false);
}

}  // namespace

FileActions draw_file_menu(AppState& state, const Derived& derived, StatusLine& status, double now, int window_width,
                           int window_height) {
  FileActions actions;
  if (ctrl_pressed(GLFW_KEY_E)) g_dialog.open_export = true;
  if (ctrl_pressed(GLFW_KEY_S)) g_dialog.open_save = true;
  if (ctrl_pressed(GLFW_KEY_O)) g_dialog.open_load = true;
  if (ctrl_pressed(GLFW_KEY_Q)) actions.quit = true;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Export PNG…", "Ctrl+E")) g_dialog.open_export = true;
    if (ImGui::MenuItem("Save CSV…")) g_dialog.open_csv = true;
    if (ImGui::MenuItem("Copy data (CSV)")) {
      try {
        ImGui::SetClipboardText(view_csv(state.view, state, derived).c_str());
        set_status(status, "Copied the numbers behind " + state.view + " to the clipboard.", false, now);
      } catch (const std::exception& e) {
        set_status(status, std::string("Copy failed: ") + e.what(), true, now);
      }
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Save session…", "Ctrl+S")) g_dialog.open_save = true;
    if (ImGui::MenuItem("Open session…", "Ctrl+O")) g_dialog.open_load = true;
    if (ImGui::MenuItem("Open lesson…")) g_dialog.open_lesson = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) actions.quit = true;
    ImGui::EndMenu();
  }

  if (g_dialog.open_export) {
    ImGui::OpenPopup("Export PNG");
    g_dialog.png_path = default_export_name(state, state.view);
    g_dialog.open_export = false;
  }
  if (g_dialog.open_save) { ImGui::OpenPopup("Save session"); g_dialog.open_save = false; }
  if (g_dialog.open_load) { ImGui::OpenPopup("Open session"); g_dialog.open_load = false; }
  if (g_dialog.open_lesson) { ImGui::OpenPopup("Open lesson"); g_dialog.open_lesson = false; }
  if (g_dialog.open_csv) {
    ImGui::OpenPopup("Save CSV");
    g_dialog.csv_path = state.view + ".csv";
    g_dialog.open_csv = false;
  }

  if (ImGui::BeginPopupModal("Export PNG", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    const std::string window_label = "window (" + std::to_string(window_width) + "×" + std::to_string(window_height) + ")";
    const std::string double_label = "2× window (" + std::to_string(2 * window_width) + "×" + std::to_string(2 * window_height) + ")";
    const char* sizes[] = {window_label.c_str(), double_label.c_str(), "1920×1080", "3840×2160 (4K)", "custom"};
    ImGui::Combo("size", &g_dialog.size_choice, sizes, 5);
    if (g_dialog.size_choice == 4) {
      ImGui::InputInt("width", &g_dialog.custom_w);
      ImGui::InputInt("height", &g_dialog.custom_h);
    }
    ImGui::Combo("background", &g_dialog.background, "theme\0white\0transparent\0");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("background: the theme's colour, white (for papers) or transparent (for slides).");
    if (ImGui::Checkbox("all views, as slides", &g_dialog.all_views))
      g_dialog.png_path = g_dialog.all_views ? std::string("pe-viz-slides") : default_export_name(state, state.view);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Write every view into the folder named by path, with an index.html that shows them as slides.");
    ImGui::InputText(g_dialog.all_views ? "folder" : "path", &g_dialog.png_path);
    ImGui::TextDisabled("The view is redrawn at this size: fonts and lines stay sharp.");
    if (ImGui::Button("Export")) {
      int w = window_width, h = window_height;
      if (g_dialog.size_choice == 1) { w *= 2; h *= 2; }
      if (g_dialog.size_choice == 2) { w = 1920; h = 1080; }
      if (g_dialog.size_choice == 3) { w = 3840; h = 2160; }
      if (g_dialog.size_choice == 4) { w = g_dialog.custom_w; h = g_dialog.custom_h; }
      if (g_dialog.all_views) {
        actions.export_all = slide_deck_requests(state, g_dialog.png_path, w, h, Background(g_dialog.background));
        set_status(status, "Exporting every view into " + g_dialog.png_path + " …", false, now);
      } else {
        actions.export_png = ExportRequest{state.view, w, h, Background(g_dialog.background), g_dialog.png_path};
        set_status(status, "Exporting " + g_dialog.png_path + " …", false, now);
      }
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }

  if (path_dialog("Save CSV", g_dialog.csv_path, "Save")) {
    try {
      write_file_atomic(g_dialog.csv_path, view_csv(state.view, state, derived));
      set_status(status, "Wrote " + g_dialog.csv_path, false, now);
    } catch (const std::exception& e) {
      set_status(status, std::string("CSV not saved: ") + e.what(), true, now);
    }
  }
  if (path_dialog("Save session", g_dialog.session_path, "Save")) {
    try {
      save_session(g_dialog.session_path, state);
      set_status(status, "Saved session " + g_dialog.session_path, false, now);
    } catch (const std::exception& e) {
      set_status(status, std::string("Session not saved: ") + e.what(), true, now);
    }
  }
  if (path_dialog("Open session", g_dialog.session_path, "Open")) {
    try {
      std::vector<std::string> warnings;
      state = load_session(g_dialog.session_path, state, warnings);
      set_status(status, warnings.empty() ? "Opened " + g_dialog.session_path
                                          : "Opened " + g_dialog.session_path + " (" + warnings.front() + ")",
                 false, now);
    } catch (const std::exception& e) {
      // The current state is kept untouched.
      set_status(status, std::string("Session not opened: ") + e.what(), true, now);
    }
  }
  // A lesson file's path, or the name of a built-in lesson (pe-viz lesson --list).
  if (path_dialog("Open lesson", g_dialog.lesson_path, "Open")) actions.open_lesson = g_dialog.lesson_path;
  return actions;
}

bool open_lesson(Presenter& presenter, AppState& state, const std::string& file_or_name, StatusLine& status, double now) {
  try {
    AppState s = state;
    apply_lesson_display(s);
    Presenter next;
    next.open(load_lesson_source(file_or_name), s, now);
    presenter = std::move(next);
    state = std::move(s);
    set_status(status, "Lesson " + file_or_name + ": " + std::to_string(presenter.count()) + " slides (→ next, Esc leaves)",
               false, now);
    return true;
  } catch (const std::exception& e) {
    set_status(status, std::string("Lesson not opened: ") + e.what(), true, now);
    return false;
  }
}

void load_dropped_files(AppState& state, const std::vector<std::string>& paths, StatusLine& status, double now,
                        Presenter* presenter) {
  for (const std::string& path : paths) {
    if (presenter && is_markdown_path(path)) {
      open_lesson(*presenter, state, path, status, now);
      continue;
    }
    try {
      // A .gguf: its header and RoPE factor tensors only (pe::load_gguf_config), never the weights.
      if (is_gguf_path(path)) load_gguf_file(state, path);
      else load_config_file(state, path);
      set_status(status, "Loaded " + path, false, now);
    } catch (const std::exception& e) {
      state.config_error = e.what();
      set_status(status, "Not loaded: " + std::string(e.what()), true, now);
    }
  }
}

constexpr double kStatusSeconds = 8.0;  // how long a message stays

void draw_status_line(const StatusLine& status, double now) {
  if (status.progress >= 0.0f) {
    ImGui::ProgressBar(status.progress, ImVec2(ImGui::GetFontSize() * 12.0f, 0.0f));
    ImGui::SameLine();
  } else if (status.text.empty() || (!status.error && now - status.shown_at > kStatusSeconds)) {
    return;
  }
  // The message disappears by itself: the sleeping GUI must draw the frame without it.
  if (status.progress < 0.0f && !status.error) request_frame_within(kStatusSeconds - (now - status.shown_at) + 0.01);
  ImGui::PushStyleColor(ImGuiCol_Text, status.error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.5f, 0.85f, 0.5f, 1.0f));
  ImGui::TextUnformatted(status.text.c_str());
  ImGui::PopStyleColor();
}

}  // namespace app
