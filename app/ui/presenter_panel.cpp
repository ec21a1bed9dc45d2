#include "ui/presenter_panel.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <string>

#include "ui/narrow_layout.hpp"
#include "ui/slide_text.hpp"

namespace app {
namespace {

constexpr PresenterKey kKeys[] = {
    {"→ / Page Down", "next slide"},
    {"← / Page Up", "previous slide"},
    {"Space", "play / pause the slide's animation"},
    {"S", "show / hide the speaker notes"},
    {"Esc", "leave the lesson (the view keeps its state)"},
    {nullptr, nullptr},
};

constexpr float kMinViewWidthEm = 26.0f;

bool pressed(int key) { return ImGui::IsKeyPressed(key, true); }

// Back and Next share what Play and Leave leave of the row, Next the wider (the one pressed
// most); each is a finger's height. Labels shorten before anything is cut.
SlideActions draw_slide_buttons(const Presenter& presenter, float width) {
  SlideActions actions;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float h = touch_button_height();
  const bool animated = presenter.slide().animation.has_value();
  const char* play = presenter.playing() ? "Pause" : "Play";
  const float pad = 2 * style.FramePadding.x;
  const float side = (animated ? ImGui::CalcTextSize("Pause").x + pad + style.ItemSpacing.x : 0.0f) +
                     ImGui::CalcTextSize("Leave").x + pad + style.ItemSpacing.x;
  const float room = std::max(width - side - style.ItemSpacing.x, 2.0f * h);
  const bool long_labels = ImGui::CalcTextSize("◀ Back").x + pad <= room * 0.4f && ImGui::CalcTextSize("Next ▶").x + pad <= room * 0.6f;
  ImGui::BeginDisabled(presenter.index() == 0);
  if (ImGui::Button(long_labels ? "◀ Back" : "◀", {room * 0.4f, h})) actions.step = -1;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(presenter.index() + 1 >= presenter.count());
  if (ImGui::Button(long_labels ? "Next ▶" : "▶", {room * 0.6f, h})) actions.step = +1;
  ImGui::EndDisabled();
  if (animated) {
    ImGui::SameLine();
    if (ImGui::Button(play, {ImGui::CalcTextSize("Pause").x + pad, h})) actions.animate = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Leave", {0, h})) actions.leave = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Leave the lesson (Esc); the view keeps its state.");
  return actions;
}

}  // namespace

const PresenterKey* presenter_keys() { return kKeys; }

void handle_presenter_keys(Presenter& presenter, AppState& state, double now) {
  if (!presenter.active()) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || io.KeySuper) return;
  const int step = int(pressed(GLFW_KEY_RIGHT) || pressed(GLFW_KEY_PAGE_DOWN)) -
                   int(pressed(GLFW_KEY_LEFT) || pressed(GLFW_KEY_PAGE_UP));
  if (step != 0) presenter.go(state, step, now);
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) presenter.toggle_animation(now);
  if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) presenter.toggle_notes();
  // Esc closes the help overlay first when it is open.
  if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false) && !state.show_help) presenter.close();
}

bool slide_panel_beside(ImVec2 area) {
  const float em = ImGui::GetFontSize();
  return area.x - slide_panel_extent(area) >= kMinViewWidthEm * em && area.x >= area.y * 1.2f;
}

float slide_panel_extent(ImVec2 area) {
  const float em = ImGui::GetFontSize();
  // Beside: 30 % of the width, 18 ... 34 em (36 ... 70 characters a line): at a 2× projector
  // the view keeps the width the parameter panel leaves it, which every view is tested at.
  const float beside = std::clamp(area.x * 0.3f, 18 * em, 34 * em);
  // Beside when the view keeps 26 em (a 2× projector: 832 of 1920 px) in a landscape window.
  if (area.x - beside >= kMinViewWidthEm * em && area.x >= area.y * 1.2f) return beside;
  return std::max(area.y * 0.4f, 8 * em);  // under: 40 % of the height
}

SlideActions draw_slide_panel(const Presenter& presenter, ImVec2 size, bool buttons) {
  SlideActions actions;
  if (!presenter.active()) return actions;
  ImGui::BeginChild("##slide", size, true, ImGuiWindowFlags_NoScrollbar);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::GetContentRegionAvail().x;
  // Where we are: "3 / 12" and a bar, and the keys that move on.
  const std::string counter = std::to_string(presenter.index() + 1) + " / " + std::to_string(presenter.count());
  ImGui::TextUnformatted(counter.c_str());
  ImGui::SameLine();
  const float progress = float(presenter.index() + 1) / float(presenter.count());
  ImGui::ProgressBar(progress, {ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 0.5f}, "");
  const pe::LessonSlide& slide = presenter.slide();
  if (slide.animation) {
    const std::string label = presenter.playing() ? "playing (Space: pause)" : "Space: play the animation";
    ImGui::ProgressBar(float(presenter.animation_progress()), {width, 0}, label.c_str());
  }
  ImGui::Separator();
  // A slide with more text than fits shrinks it (to 75 %, as presentation programs do)
  // before it scrolls. Notes, when shown, go under the text in a tall panel (beside the
  // view) and beside it in a wide one (under the view).
  const float hint_h = (buttons ? touch_button_height() + style.ItemSpacing.y : ImGui::GetTextLineHeightWithSpacing()) +
                       style.ItemSpacing.y;
  const float text_h = std::max(ImGui::GetContentRegionAvail().y - hint_h, 1.0f);
  const bool notes = presenter.notes_shown();
  const ImVec2 panel = ImGui::GetWindowSize();
  const bool notes_beside = panel.x > panel.y * 1.5f;
  const float body_w = (notes && notes_beside ? width * 0.6f : width) - style.ScrollbarSize;
  // Under the text, the notes get what the slide's text leaves, at least a quarter: the
  // slide, not the notes, is what the room reads.
  const float body_room = notes && !notes_beside ? text_h * 0.75f : text_h;
  const float body_scale = fitting_text_scale(slide.body, body_w, body_room);
  const float body_h = text_blocks_height(slide.body, body_w, body_scale);
  const float stacked_h = std::clamp(body_h + style.WindowPadding.y, text_h * 0.4f, text_h * 0.75f);
  const ImVec2 text_size = !notes ? ImVec2(0, text_h)
                           : notes_beside ? ImVec2(width * 0.6f, text_h)
                                          : ImVec2(0, stacked_h);
  ImGui::BeginChild("##slide-text", text_size, false);
  draw_text_blocks(slide.body, ImGui::GetContentRegionAvail().x - style.ScrollbarSize, body_scale);
  ImGui::EndChild();
  if (notes) {
    if (notes_beside) ImGui::SameLine();
    ImGui::BeginChild("##notes", {0, notes_beside ? text_h : std::max(ImGui::GetContentRegionAvail().y - hint_h, 1.0f)}, true);
    ImGui::TextDisabled("Speaker notes (S hides)");
    if (slide.notes.empty()) {
      ImGui::TextDisabled("(none for this slide)");
    } else {
      const float notes_w = ImGui::GetContentRegionAvail().x - style.ScrollbarSize;
      const float notes_room = ImGui::GetContentRegionAvail().y - style.WindowPadding.y;
      draw_text_blocks(slide.notes, notes_w, fitting_text_scale(slide.notes, notes_w, notes_room));
    }
    ImGui::EndChild();
  }
  if (buttons) {
    actions = draw_slide_buttons(presenter, width);
  } else {
    // The keys, as short as fits: a lecturer new to the mode finds them here.
    const char* hints[] = {"→ next   ← back   Space animate   S notes   Esc leave", "→ ← Space S Esc"};
    const char* hint = ImGui::CalcTextSize(hints[0]).x <= width ? hints[0] : hints[1];
    ImGui::TextDisabled("%s", hint);
  }
  ImGui::EndChild();
  return actions;
}

}  // namespace app
