#include "ui/file_actions.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <filesystem>

#include "export/view_data.hpp"
#include "pe/base/text.hpp"
#include "platform/frame_pacing.hpp"
#include "export/slide_deck.hpp"
#include "export/builtin_lessons.hpp"
#include "export/view_export.hpp"
#include "platform/host.hpp"
#include "state/session_file.hpp"
#include "ui/presenter.hpp"
#include "ui/weights_drop.hpp"
#include "views/model_family.hpp"

namespace app {
namespace {

struct DialogState {
  bool open_export = false, open_save = false, open_load = false, open_csv = false, open_lesson = false;
  int size_choice = 0;  // window, 2× window, 1920×1080, 3840×2160, custom
  int custom_w = 2560, custom_h = 1440;
  int background = 0;
  bool all_views = false;
  std::string png_path, session_path = "session.pe-viz.json", csv_path, lesson_path = "lesson.md";
  // What a page cannot do, said where it was asked for (a modal over the menu).
  std::string unavailable;
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

// A page has no paths: what would be written to a file is downloaded under that file's name.
void download_text(const std::string& name, const std::string& text, const std::string& mime) {
  host::offer_download(name, {reinterpret_cast<const unsigned char*>(text.data()), text.size()}, mime);
}

void save_csv(const AppState& state, const Derived& derived, StatusLine& status, double now) {
  const std::string name = state.view + ".csv";
  try {
    download_text(name, view_csv(state.view, state, derived), "text/csv");
    set_status(status, "Downloading " + name, false, now);
  } catch (const std::exception& e) {
    set_status(status, std::string("CSV not saved: ") + e.what(), true, now);
  }
}

void save_session_download(const AppState& state, StatusLine& status, double now) {
  download_text(g_dialog.session_path, session_to_json(state), "application/json");
  set_status(status, "Downloading " + g_dialog.session_path + " (open it again with File → Open session…)", false, now);
}

// A page's File → Open lesson…: the built-in lessons by name, or a Markdown file of one's own.
void lesson_chooser(FileActions& actions) {
  if (!ImGui::BeginPopupModal("Open lesson", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  for (const BuiltinLesson& l : builtin_lessons()) {
    if (ImGui::Selectable((l.title + "  (" + l.name + ")").c_str())) {
      actions.open_lesson = l.name;
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::Separator();
  if (ImGui::Button("Choose a lesson file (.md)…")) {
    host::pick_files(".md,.markdown", "lesson");
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace

FileActions draw_file_menu(AppState& state, const Derived& derived, StatusLine& status, double now, int window_width,
                           int window_height) {
  FileActions actions;
  // Where files have no paths (a page), saving downloads and opening asks the browser.
  const host::Capabilities& can = host::capabilities();
  if (ctrl_pressed(GLFW_KEY_E)) g_dialog.open_export = true;
  if (ctrl_pressed(GLFW_KEY_S)) g_dialog.open_save = true;
  if (ctrl_pressed(GLFW_KEY_O)) g_dialog.open_load = true;
  if (ctrl_pressed(GLFW_KEY_Q) && can.quit) actions.quit = true;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Export PNG…", "Ctrl+E")) g_dialog.open_export = true;
    if (ImGui::MenuItem(can.file_paths ? "Save CSV…" : "Download CSV")) {
      if (can.file_paths) g_dialog.open_csv = true;
      else save_csv(state, derived, status, now);
    }
    if (ImGui::MenuItem("Copy data (CSV)")) {
      try {
        host::copy_text(view_csv(state.view, state, derived));
        set_status(status, "Copied the numbers behind " + state.view + " to the clipboard.", false, now);
      } catch (const std::exception& e) {
        set_status(status, std::string("Copy failed: ") + e.what(), true, now);
      }
    }
    if (can.page_url && ImGui::MenuItem("Copy link")) actions.copy_link = true;
    if (can.page_url && ImGui::IsItemHovered())
      ImGui::SetTooltip("A link that opens this view with these parameters (the address bar keeps it too).");
    ImGui::Separator();
    if (ImGui::MenuItem(can.file_paths ? "Save session…" : "Download session", "Ctrl+S")) g_dialog.open_save = true;
    if (ImGui::MenuItem("Open session…", "Ctrl+O")) g_dialog.open_load = true;
    if (ImGui::MenuItem("Open lesson…")) g_dialog.open_lesson = true;
    // Picked together, config.json and model.safetensors land in one folder, as a model's do.
    if (!can.file_paths && ImGui::MenuItem("Open model files (config.json, .gguf, .safetensors)…"))
      host::pick_files(".json,.gguf,.safetensors", "model");
    if (can.quit) {
      ImGui::Separator();
      if (ImGui::MenuItem("Quit", "Ctrl+Q")) actions.quit = true;
    }
    ImGui::EndMenu();
  }
  if (!can.file_paths) {
    // No dialogs asking for paths: a download, the browser's file picker.
    if (g_dialog.open_save) save_session_download(state, status, now);
    if (g_dialog.open_load) host::pick_files(".json", "session");
    g_dialog.open_save = g_dialog.open_load = false;
  }
  if (!g_dialog.unavailable.empty()) ImGui::OpenPopup("Not available here");
  if (ImGui::BeginPopupModal("Not available here", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(g_dialog.unavailable.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button("OK")) {
      g_dialog.unavailable.clear();
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
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
    if (can.file_paths) {
      if (ImGui::Checkbox("all views, as slides", &g_dialog.all_views))
        g_dialog.png_path = g_dialog.all_views ? std::string("pe-viz-slides") : default_export_name(state, state.view);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Write every view into the folder named by path, with an index.html that shows them as slides.");
      ImGui::InputText(g_dialog.all_views ? "folder" : "path", &g_dialog.png_path);
    } else {
      ImGui::InputText("file name", &g_dialog.png_path);
    }
    ImGui::TextDisabled("The view is redrawn at this size: fonts and lines stay sharp. Enter exports.");
    if (!can.file_paths) {
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
      ImGui::TextDisabled("%s", host::folder_export_unavailable().c_str());
      ImGui::PopTextWrapPos();
    }
    // Enter confirms, as in any dialog (unless a text field takes it).
    const bool enter = !ImGui::IsAnyItemActive() &&
                       (ImGui::IsKeyPressed(GLFW_KEY_ENTER, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_ENTER, false));
    if (ImGui::Button("Export") || enter) {
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
  if (path_dialog("Open session", g_dialog.session_path, "Open")) open_session_file(state, g_dialog.session_path, status, now);
  // A lesson file's path, or the name of a built-in lesson (pe-viz lesson --list).
  if (!can.file_paths) lesson_chooser(actions);
  else if (path_dialog("Open lesson", g_dialog.lesson_path, "Open")) actions.open_lesson = g_dialog.lesson_path;
  return actions;
}

void open_session_file(AppState& state, const std::string& path, StatusLine& status, double now) {
  const std::string name = std::filesystem::path(path).filename().string();
  try {
    std::vector<std::string> warnings;
    state = load_session(path, state, warnings);
    set_status(status, warnings.empty() ? "Opened " + name : "Opened " + name + " (" + warnings.front() + ")", false, now);
  } catch (const std::exception& e) {
    // The current state is kept untouched.
    set_status(status, std::string("Session not opened: ") + e.what(), true, now);
  }
}

void show_unavailable(const std::string& message) { g_dialog.unavailable = message; }

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
  // A sharded checkpoint's files dropped together (a page has no folders): its index is what
  // is read; the shards are its parts, not models of their own.
  const bool with_index = std::any_of(paths.begin(), paths.end(), [](const std::string& p) {
    const std::string index = ".safetensors.index.json";
    return p.size() > index.size() && p.compare(p.size() - index.size(), index.size(), index) == 0;
  });
  for (const std::string& path : paths) {
    if (with_index && pe::lower_extension(path) == ".safetensors") continue;
    if (presenter && is_markdown_path(path)) {
      open_lesson(*presenter, state, path, status, now);
      continue;
    }
    if (open_dropped_weights(state, path, status, now)) continue;  // weights: the frequency-usage view (ui/weights_drop)
    try {
      // A .gguf: its header and RoPE factor tensors only (pe::load_gguf_config), never the weights.
      if (is_gguf_path(path)) load_gguf_file(state, path);
      else load_config_file(state, path);
      open_family_view(state);  // GPT-2 opens in `learned`, BLOOM in `alibi` …
      set_status(status, "Loaded " + path + (state.model_encoding.rotates() ? std::string()
                                                 : std::string(" (positions: ") + pe::to_string(state.model_encoding.family) + ")"),
                 false, now);
    } catch (const std::exception& e) {
      state.config_error = e.what();
      set_status(status, "Not loaded: " + std::string(e.what()), true, now);
    }
  }
}

constexpr double kStatusSeconds = 8.0;  // how long a message stays

bool status_shown(const StatusLine& status, double now) {
  return status.progress >= 0.0f || (!status.text.empty() && (status.error || now - status.shown_at <= kStatusSeconds));
}

void draw_status_line(const StatusLine& status, double now) {
  if (status.progress >= 0.0f) {
    ImGui::ProgressBar(status.progress, ImVec2(ImGui::GetFontSize() * 12.0f, 0.0f));
    ImGui::SameLine();
  } else if (!status_shown(status, now)) {
    return;
  }
  // The message disappears by itself: the sleeping GUI must draw the frame without it.
  if (status.progress < 0.0f && !status.error) request_frame_within(kStatusSeconds - (now - status.shown_at) + 0.01);
  ImGui::PushStyleColor(ImGuiCol_Text, status.error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.5f, 0.85f, 0.5f, 1.0f));
  ImGui::TextUnformatted(status.text.c_str());
  ImGui::PopStyleColor();
  // A message longer than the menu bar is cut at the window's edge: hovering shows it whole.
  if (ImGui::IsItemHovered() && ImGui::GetItemRectMax().x > ImGui::GetWindowPos().x + ImGui::GetWindowSize().x) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36.0f);
    ImGui::TextUnformatted(status.text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

}  // namespace app
