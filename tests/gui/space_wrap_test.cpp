// Notes, captions and table cells wrap at spaces only (plot/space_wrap): read back from what
// ImGui hands the GPU — the glyph quads of each drawn line — a line never ends inside a
// number ("0." / "75"), at every width from a phone's to a projector's. ImGui's own
// TextWrapped does break there (the check below can fail). Also: no view or panel calls
// ImGui::TextWrapped directly any more, and Help → About shows the version and the licence.
// No GL: a headless ImGui context and its draw data.
#include <gtest/gtest.h>

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "clipped_text.hpp"
#include "headless_imgui.hpp"
#include "plot/space_wrap.hpp"
#include "state/version.hpp"
#include "ui/about_dialog.hpp"
#include "views/view.hpp"

namespace {

namespace fs = std::filesystem;

// ASCII only: the default font has no Greek; every glyph must be drawn as itself.
const char* const kNote =
    "The slowest pair turns 0.0076 degrees per position; its wavelength is 47117.3 positions, so p = 0.75 "
    "keeps 57.6% of the pairs, and the norm 1.00995 becomes 1.00541, 0.94670, 0.78272 at p = 1, 3, 100. "
    "Llama 3 uses theta = 500000.0 (5e+05), Code Llama 1e6; at 2.5x the factor is 1.139, scores 1.296.";

// The drawn lines of window `name`, each as its glyphs' characters in order (spaces draw no
// glyph, so a line is its words run together). ImGui emits glyphs in reading order: a glyph
// left of the one before starts a new line.
std::vector<std::string> drawn_lines(const ImDrawData& data, const std::string& name) {
  const auto uvs = pe_test::glyph_uvs();
  std::vector<std::string> lines;
  float last_x = 1e9f;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    if (!list._OwnerName || name != list._OwnerName) continue;
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      for (unsigned k = 0; k + 2 < cmd.ElemCount; k += 3) {
        const unsigned a = list.IdxBuffer[int(cmd.IdxOffset + k)] + cmd.VtxOffset;
        const ImDrawVert& tl = list.VtxBuffer[int(a)];
        const auto g = uvs.find({tl.uv.x, tl.uv.y});
        if (g == uvs.end()) continue;
        if (tl.pos.x < last_x - 0.5f) lines.emplace_back();
        lines.back() += char(g->second);
        last_x = tl.pos.x;
        k += 3;  // a glyph is one quad: its second triangle
      }
    }
  }
  return lines;
}

// Where the drawn lines break `text` that ImGui would not: each break must fall on a space.
// Returns the breaks that do not, as "…left|right…".
std::vector<std::string> breaks_inside_words(const std::string& text, const std::vector<std::string>& lines) {
  std::string glyphs;  // text without spaces, and where each of its characters came from
  std::vector<std::size_t> from;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] != ' ') glyphs += text[i], from.push_back(i);
  std::string joined;
  for (const auto& l : lines) joined += l;
  EXPECT_EQ(joined, glyphs) << "every character drawn, in order";
  std::vector<std::string> bad;
  std::size_t at = 0;
  for (std::size_t k = 0; k + 1 < lines.size() && at + lines[k].size() < from.size(); ++k) {
    at += lines[k].size();
    const std::size_t i = from[at];  // the first character of the next line
    if (i == 0 || text[i - 1] != ' ')
      bad.push_back(text.substr(i >= 8 ? i - 8 : 0, std::min<std::size_t>(i, 8)) + "|" + text.substr(i, 8));
  }
  return bad;
}

class SpaceWrapTest : public ::testing::Test {
 protected:
  pe_test::HeadlessImGui imgui;
  void SetUp() override { ImGui::GetIO().DisplaySize = ImVec2(2000, 3000); }

  // One frame drawing `draw` in a window whose content region is `width` px wide; its lines.
  template <class Draw>
  std::vector<std::string> lines_at(float width, Draw draw) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({width + 2 * ImGui::GetStyle().WindowPadding.x, 2800});
    ImGui::Begin("wrap test", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoScrollbar);
    draw();
    ImGui::End();
    ImGui::Render();
    return drawn_lines(*ImGui::GetDrawData(), "wrap test");
  }
};

// The widest word of `text`: narrower lines must break some word (ImGui's fallback).
float widest_word(const std::string& text) {
  float widest = 0.0f;
  for (std::size_t a = 0, b; a < text.size(); a = b + 1) {
    b = std::min(text.find(' ', a), text.size());
    widest = std::max(widest, ImGui::CalcTextSize(text.data() + a, text.data() + b).x);
  }
  return widest;
}

TEST_F(SpaceWrapTest, NotesNeverBreakInsideANumberAtAnyWidth) {
  int widths = 0, multi_line = 0;
  ImGui::NewFrame();  // fonts set up for measuring
  const float narrowest = std::ceil(widest_word(kNote)) + 1.0f;
  ImGui::EndFrame();
  for (float w = narrowest; w <= 900.0f; w += 7.0f, ++widths) {
    for (int how = 0; how < 3; ++how) {
      // how 2: a wrap position pushed inside a wider window, as the comparison chart's caption.
      const auto lines = lines_at(how == 2 ? w * 1.7f : w, [&] {
        if (how == 0) app::text_wrapped("%s", kNote);
        else if (how == 1) app::teaching_note(kNote);
        else {
          ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
          app::text_wrapped_unformatted(kNote);
          ImGui::PopTextWrapPos();
        }
      });
      if (lines.size() > 3) ++multi_line;
      const auto bad = breaks_inside_words(kNote, lines);
      EXPECT_TRUE(bad.empty()) << "width " << w << " (" << how << "): a line breaks at " << bad.front();
    }
  }
  EXPECT_GT(multi_line, widths) << "the widths must make the note wrap";
}

TEST_F(SpaceWrapTest, ImGuisOwnWrapBreaksNumbersSoTheCheckCanFail) {
  int broken = 0;
  ImGui::NewFrame();
  const float narrowest = std::ceil(widest_word(kNote)) + 1.0f;
  ImGui::EndFrame();
  for (float w = narrowest; w <= 900.0f; w += 7.0f) {
    const auto lines = lines_at(w, [] { ImGui::TextWrapped("%s", kNote); });
    broken += breaks_inside_words(kNote, lines).empty() ? 0 : 1;
  }
  EXPECT_GT(broken, 0) << "ImGui::TextWrapped breaks after '.' and ','; the check must see it";
}

TEST_F(SpaceWrapTest, AWordWiderThanTheLineIsStillDrawnWhole) {
  // No space to break at: ImGui's own wrap takes over, and nothing is lost.
  const std::string long_word = "0.000000000000000000000000000000000000123456789";
  const auto lines = lines_at(80.0f, [&] { app::text_wrapped_unformatted(long_word); });
  std::string joined;
  for (const auto& l : lines) joined += l;
  EXPECT_EQ(joined, long_word);
}

TEST(SpaceWrapSources, NoViewOrPanelCallsImGuisTextWrapped) {
  // Everything in app/ wraps through plot/space_wrap: a new ImGui::TextWrapped would bring
  // the split numbers back.
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(PE_SOURCE_DIR) / "app")) {
    const fs::path& p = entry.path();
    if (!entry.is_regular_file() || (p.extension() != ".cpp" && p.extension() != ".hpp")) continue;
    if (p.parent_path().filename() == "plot" && p.stem() == "space_wrap") continue;
    std::ifstream in(p);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
      if (line.find("ImGui::TextWrapped(") != std::string::npos) found.push_back(p.string() + ":" + std::to_string(n));
  }
  std::string list;
  for (const auto& f : found) list += "\n  " + f;
  EXPECT_TRUE(found.empty()) << "use app::text_wrapped / text_wrapped_unformatted (plot/space_wrap.hpp):" << list;
}

TEST_F(SpaceWrapTest, HelpAboutShowsTheVersionTheLicenceAndThePurpose) {
  const std::string text = app::about_text();
  EXPECT_EQ(text.rfind(std::string("pe-viz ") + PE_VIZ_VERSION, 0), 0u) << text;
  EXPECT_NE(text.find("MIT"), std::string::npos) << text;
  EXPECT_NE(text.find("positions"), std::string::npos) << text;
  app::open_about_dialog();
  std::string drawn;
  for (int frame = 0; frame < 3; ++frame) {  // opened in the first, laid out, then drawn
    ImGui::NewFrame();
    app::draw_about_dialog();
    ImGui::Render();
  }
  for (const auto& l : drawn_lines(*ImGui::GetDrawData(), "About pe-viz")) drawn += l;
  EXPECT_NE(drawn.find(std::string("pe-viz") + PE_VIZ_VERSION), std::string::npos) << drawn;
  EXPECT_NE(drawn.find("MITlicence"), std::string::npos) << drawn;
}

}  // namespace
