#pragma once
// Text cut off by the edge of the window or child that holds it, read from what ImGui hands
// the GPU: a glyph quad (its top-left UV is a glyph's in the font atlas) that sticks out of
// its draw command's clip rectangle is cut by the scissor — half a letter at a window edge.
// Deliberate clipping (ellipsis in buttons, tab labels) is done on the CPU by ImGui and
// never leaves the rectangle. ImGui drops glyphs that start past the edge, so a cut falling
// exactly between two words is invisible here; any other cut shows as the glyph straddling
// the edge. Used by text_clipping_test (every view) and presenter_test (lesson slides).
#include <imgui.h>
#include <imgui_internal.h>  // ImGuiWindow::ScrollbarY

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pe_test {

struct Clipped {
  std::string window;  // the ImGui window (draw list owner) whose edge cuts the text
  std::string text;    // the cut glyphs, in draw order
  ImVec2 at;           // first cut glyph
};

// Glyph top-left UVs of every loaded font → codepoint.
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
  const auto uvs = glyph_uvs();
  const ImTextureID font_texture = ImGui::GetIO().Fonts->TexID;
  constexpr float kTolerance = 1.5f;  // pixels: anti-aliased glyph edges touching the border
  std::vector<Clipped> found;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    Clipped hit{list._OwnerName ? list._OwnerName : "?", {}, {}};
    // A window that scrolls vertically (the parameter panel at 2×) shows a line across its
    // top or bottom edge whenever the scroll position falls mid-line: that is scrolling, not
    // cut text. Across a side edge it is still cut.
    const ImGuiWindow* owner = list._OwnerName ? ImGui::FindWindowByName(list._OwnerName) : nullptr;
    const bool scrolls_vertically = owner && owner->ScrollbarY;
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback || cmd.TextureId != font_texture) continue;
      const ImVec4 clip = cmd.ClipRect;
      for (unsigned k = 0; k + 2 < cmd.ElemCount; k += 3) {
        const unsigned a = list.IdxBuffer[int(cmd.IdxOffset + k)] + cmd.VtxOffset;
        const ImDrawVert& tl = list.VtxBuffer[int(a)];
        const auto g = uvs.find({tl.uv.x, tl.uv.y});
        if (g == uvs.end() || a + 2 >= unsigned(list.VtxBuffer.Size)) continue;
        const ImDrawVert& br = list.VtxBuffer[int(a + 2)];
        const bool inside = tl.pos.x >= clip.x - kTolerance && tl.pos.y >= clip.y - kTolerance &&
                            br.pos.x <= clip.z + kTolerance && br.pos.y <= clip.w + kTolerance;
        // Entirely outside is not "cut": the scissor hides it completely (scrolled away).
        const bool disjoint = br.pos.x <= clip.x || tl.pos.x >= clip.z || br.pos.y <= clip.y || tl.pos.y >= clip.w;
        const bool inside_sideways = tl.pos.x >= clip.x - kTolerance && br.pos.x <= clip.z + kTolerance;
        if (!inside && !disjoint && !(scrolls_vertically && inside_sideways)) {
          if (hit.text.empty()) hit.at = tl.pos;
          append_utf8(hit.text, g->second);
        }
        k += 3;  // the quad's second triangle
      }
    }
    if (!hit.text.empty()) found.push_back(hit);
  }
  return found;
}

inline std::string describe(const std::vector<Clipped>& cs) {
  std::string s;
  for (const auto& c : cs)
    s += "\n  in window '" + c.window + "' at (" + std::to_string(int(c.at.x)) + ", " + std::to_string(int(c.at.y)) +
         "): \"" + c.text + "\"";
  return s;
}

}  // namespace pe_test
