// Projector readiness: every view, in the dark and the light theme, at UI scale 1× and 2×,
// renders in the window without GL errors and without text cut off by the edge of the
// window or panel that holds it.
//
// "Cut off" is read from what ImGui hands the GPU: a glyph quad (its top-left UV is a
// glyph's in the font atlas) that sticks out of its draw command's clip rectangle is
// cut by the scissor — half a letter at a window edge. Deliberate clipping (ellipsis in
// buttons, tab labels) is done on the CPU by ImGui and never leaves the rectangle.
// ImGui drops glyphs that start past the edge, so a cut falling exactly between two words
// is invisible here; any other cut shows as the glyph straddling the edge.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <imgui.h>
#include <imgui_internal.h>

#include "clipped_text.hpp"
#include "test_support.hpp"
#include "plot/space_wrap.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class TextClippingTest : public SessionTest {};

TEST_F(TextClippingTest, DetectorFindsTextCutByAWindowEdge) {
  // The detector itself must be able to fail: a label wider than its window is reported.
  app::AppSession& s = session();
  s.frame(0.0);
  for (int f = 0; f < 2; ++f) {  // a new window is laid out in its first frame, drawn in the second
    ImGui::NewFrame();
    ImGui::SetNextWindowPos({10, 10});
    ImGui::SetNextWindowSize({120, 80});
    ImGui::Begin("narrow test window", nullptr, ImGuiWindowFlags_NoDecoration);
    // No spaces: ImGui culls glyphs that start past the edge, so a cut that falls exactly
    // on a word gap leaves no trace in the draw data (a limit of this detector).
    ImGui::TextUnformatted("Supercalifragilisticexpialidocious-and-more");
    ImGui::End();
    ImGui::Render();
  }
  const auto cut = clipped_text(*ImGui::GetDrawData());
  ASSERT_FALSE(cut.empty());
  EXPECT_EQ(cut[0].window, "narrow test window");
}

TEST_F(TextClippingTest, WrappingBreaksAtSpacesAndKeepsNumbersWhole) {
  session().frame(0.0);
  ImGui::NewFrame();
  const std::string text = "p = 0.75 p-RoPE stops rotating 57.6%; slowest 57.6%, fastest 7.7%";
  const float narrow = ImGui::CalcTextSize("p = 0.75 p-R").x;
  const std::string w = app::wrapped_at_spaces(text, narrow);
  ImGui::EndFrame();
  // ImGui's own wrap at this width breaks after "0." (punctuation); ours only at spaces.
  EXPECT_EQ(w.find(".\n"), std::string::npos) << w;
  std::string joined = w;
  for (char& c : joined)
    if (c == '\n') c = ' ';
  EXPECT_EQ(joined, text) << "only spaces become line breaks";
  EXPECT_GE(std::count(w.begin(), w.end(), '\n'), 4) << w;
  for (std::size_t a = 0, b; a < w.size(); a = b + 1) {  // every line fits, unless one word is wider
    b = std::min(w.find('\n', a), w.size());
    const std::string line = w.substr(a, b - a);
    if (line.find(' ') != std::string::npos) {
      EXPECT_LE(ImGui::CalcTextSize(line.c_str()).x, narrow) << line;
    }
  }
}

// A lecture hall's projector is 1920×1080 (at 2× that is 960×540 of layout); a desk
// window is the default 1600×1000 at 1×.
// Windows whose items reach past their right edge without a horizontal scrollbar: a widget
// wholly past the edge leaves no glyph to find cut (ImGui drops them), so the cursor's reach
// in the last frame (ContentSize) is what shows it.
std::string items_past_right_edge() {
  std::string found;
  for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (!w->WasActive || w->Hidden || (w->Flags & ImGuiWindowFlags_HorizontalScrollbar)) continue;
    const float room = w->ContentRegionRect.GetWidth();
    if (w->ContentSize.x > room + 1.0f)
      found += "\n  '" + std::string(w->Name) + "': items reach " + std::to_string(int(w->ContentSize.x)) + " px of " +
               std::to_string(int(room));
  }
  return found;
}

TEST_F(TextClippingTest, EveryViewInBothThemesAtScale1And2HasNoCutTextOrGlErrors) {
  struct Setup { float scale; int width, height; };
  // 1280×800: a laptop's browser window, where compare's row of B controls once ran past
  // the right edge ("scaling B" showing "defau").
  for (const Setup setup :
       {Setup{1.0f, kWindowWidth, kWindowHeight}, Setup{1.0f, 1280, 800}, Setup{1.0f, 1920, 1080}, Setup{2.0f, 1920, 1080}}) {
    const float scale = setup.scale;
    session().window().set_size(setup.width, setup.height);
    for (const bool dark : {true, false}) {
      for (const auto& v : app::all_views()) {
        SCOPED_TRACE(std::string(v.name) + (dark ? " dark " : " light ") + std::to_string(int(scale)) + "× " +
                     std::to_string(setup.width) + "×" + std::to_string(setup.height));
        app::AppState st = known_state(v.name);
        st.ui_scale = scale;
        st.dark_theme = dark;
        session().state() = st;
        render::drain_gl_errors();
        // A scale change settles (font atlas) in frame 1; a view taller than its window gets
        // its scrollbar a frame after ImGui measured it (from the last frame's content).
        for (int f = 0; f < 4; ++f) session().frame(0.0);
        const auto cut = clipped_text(*ImGui::GetDrawData());
        EXPECT_TRUE(cut.empty()) << "text cut off:" << describe(cut);
        // A scrollbar that appears narrows the window a frame after the items were laid out:
        // what still reaches past the edge a few frames on is a row that does not wrap.
        std::string past = items_past_right_edge();
        for (int f = 0; f < 8 && !past.empty(); ++f) {
          session().frame(0.0);
          past = items_past_right_edge();
        }
        EXPECT_TRUE(past.empty()) << "past the right edge:" << past;
        const auto errors = render::drain_gl_errors();
        EXPECT_TRUE(errors.empty()) << errors.size() << " GL errors, first: " << (errors.empty() ? "" : errors[0]);
      }
    }
  }
  session().window().set_size(kWindowWidth, kWindowHeight);
  for (int f = 0; f < 2; ++f) session().frame(0.0);
}

}  // namespace
