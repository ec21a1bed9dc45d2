#pragma once
// Text a reader cannot read whole, found in what ImGui hands the GPU (call after
// ImGui::Render(), before the next NewFrame). Three ways ImGui cuts text:
//  - scissor: a glyph sticks out of its draw command's clip rectangle, and the GPU cuts it
//    there (half a letter at a window's edge: a label longer than its panel);
//  - clipped: ImGui cut the glyph itself (its quad covers less of the glyph than the glyph
//    is): a button, combo preview or frame whose text is wider than the frame;
//  - tab, header: a tab or a table's column header narrower than its label, which ImGui
//    ends with an ellipsis ("Abs…").
// ImGui drops glyphs that start past an edge, so a cut falling exactly between two words
// leaves no trace in the draw data; any other cut shows. Where a window (or one it sits in)
// scrolls, text across the edges it scrolls by is scrolling, not a cut: a line across a
// vertically scrolling pane's top or bottom edge, a wide table's columns past the side of
// a table that scrolls sideways.
// Used by the GUI tests (every view, every slide) and by a page's test hook (the browser
// tests at phone and tablet sizes: platform/host.hpp).
#include <imgui.h>

#include <string>
#include <vector>

namespace app {

struct CutText {
  enum class Kind { Scissor, Clipped, Tab, Header };
  Kind kind = Kind::Scissor;
  std::string window;  // the ImGui window whose draw list holds the text
  std::string text;    // the cut glyphs in draw order (a tab, a header: its whole label)
  ImVec2 at;           // the first cut glyph (a tab, a header: its top-left corner)
};

std::vector<CutText> find_cut_text(const ImDrawData& data);
// "\n  scissor in window 'X' at (x, y): \"text\"" per cut; "" for none.
std::string describe(const std::vector<CutText>& cuts);
// The cuts as a JSON array of {kind, window, text, x, y} (the page's test hook).
std::string cut_text_json(const std::vector<CutText>& cuts);

}  // namespace app
