#pragma once
// Text cut off by the edge of the window or child that holds it (app/ui/cut_text.hpp's
// "scissor" kind: half a letter at a window's edge). The wide desktop layout is held to this;
// the narrow layout (narrow_layout_test, the browser tests) to every kind of cut.
// Used by text_clipping_test (every view) and presenter_test (lesson slides).
#include <imgui.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ui/cut_text.hpp"

namespace pe_test {

using Clipped = app::CutText;

// The font atlas's glyphs by their top-left UV: which letter a drawn quad is (tests that read
// back the text a frame drew).
inline std::map<std::pair<float, float>, unsigned> glyph_uvs() {
  std::map<std::pair<float, float>, unsigned> uvs;
  for (ImFont* font : ImGui::GetIO().Fonts->Fonts)
    for (const ImFontGlyph& g : font->Glyphs)
      if (g.Visible) uvs[{g.U0, g.V0}] = g.Codepoint;
  return uvs;
}

inline void append_utf8(std::string& s, unsigned c) {
  if (c < 0x80) {
    s += char(c);
  } else if (c < 0x800) {
    s += char(0xC0 | (c >> 6));
    s += char(0x80 | (c & 0x3F));
  } else {
    s += char(0xE0 | (c >> 12));
    s += char(0x80 | ((c >> 6) & 0x3F));
    s += char(0x80 | (c & 0x3F));
  }
}

inline std::vector<Clipped> clipped_text(const ImDrawData& data) {
  std::vector<Clipped> cuts = app::find_cut_text(data);
  std::erase_if(cuts, [](const Clipped& c) { return c.kind != app::CutText::Kind::Scissor; });
  return cuts;
}

// describe(cuts) is app::describe, found by argument-dependent lookup.

}  // namespace pe_test
