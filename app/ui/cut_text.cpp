#include "ui/cut_text.hpp"

#include <imgui_internal.h>  // ImGuiWindow (scrollbars, parents), tab bars

#include <cmath>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

namespace app {
namespace {

constexpr float kTolerance = 1.5f;  // pixels: anti-aliased glyph edges touching a border
constexpr float kUvTolerance = 1e-6f;

struct Glyph {
  unsigned codepoint;
  ImVec2 uv0, uv1;
};

// Every loaded glyph by the top-left and by the bottom-right corner of its atlas rectangle:
// a glyph ImGui clipped keeps one of the two.
struct GlyphIndex {
  std::map<std::pair<float, float>, Glyph> by_uv0, by_uv1;
};

GlyphIndex index_glyphs() {
  GlyphIndex index;
  for (ImFont* font : ImGui::GetIO().Fonts->Fonts)
    for (const ImFontGlyph& g : font->Glyphs)
      if (g.Visible) {
        const Glyph glyph{g.Codepoint, {g.U0, g.V0}, {g.U1, g.V1}};
        index.by_uv0.emplace(std::make_pair(g.U0, g.V0), glyph);
        index.by_uv1.emplace(std::make_pair(g.U1, g.V1), glyph);
      }
  return index;
}

bool same(ImVec2 a, ImVec2 b) { return std::abs(a.x - b.x) <= kUvTolerance && std::abs(a.y - b.y) <= kUvTolerance; }

void append_utf8(std::string& s, unsigned c) {
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

// The window or one of the windows it sits in scrolls vertically (sideways): it shows a
// scrollbar (a window merely wider than its content but without one cannot be scrolled).
bool scrolls_vertically(const ImGuiWindow* window) {
  for (; window; window = window->ParentWindow)
    if (window->ScrollbarY) return true;
  return false;
}

bool scrolls_sideways(const ImGuiWindow* window) {
  for (; window; window = window->ParentWindow)
    if (window->ScrollbarX) return true;
  return false;
}

// The glyph a quad shows, and whether the quad shows all of it.
struct QuadGlyph {
  const Glyph* glyph = nullptr;
  bool whole = false;
  bool cut_vertically = false;
};

QuadGlyph glyph_of(const GlyphIndex& index, const ImDrawVert& tl, const ImDrawVert& br) {
  if (const auto g = index.by_uv0.find({tl.uv.x, tl.uv.y}); g != index.by_uv0.end()) {
    const bool whole = same(br.uv, g->second.uv1);
    return {&g->second, whole, !whole && std::abs(br.uv.y - g->second.uv1.y) > kUvTolerance};
  }
  if (const auto g = index.by_uv1.find({br.uv.x, br.uv.y}); g != index.by_uv1.end())
    return {&g->second, false, std::abs(tl.uv.y - g->second.uv0.y) > kUvTolerance};
  return {};
}

void find_cut_glyphs(const ImDrawList& list, const GlyphIndex& index, std::vector<CutText>& found) {
  const ImTextureID font_texture = ImGui::GetIO().Fonts->TexID;
  const ImGuiWindow* owner = list._OwnerName ? ImGui::FindWindowByName(list._OwnerName) : nullptr;
  const bool scrolls = scrolls_vertically(owner), scrolls_x = scrolls_sideways(owner);
  CutText scissor{CutText::Kind::Scissor, list._OwnerName ? list._OwnerName : "?", {}, {}};
  CutText clipped{CutText::Kind::Clipped, scissor.window, {}, {}};
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback || cmd.TextureId != font_texture) continue;
    const ImVec4 clip = cmd.ClipRect;
    // Glyph quads are two triangles over four vertices: top-left, top-right, bottom-right.
    for (unsigned k = 0; k + 5 < cmd.ElemCount; k += 6) {
      const unsigned a = list.IdxBuffer[int(cmd.IdxOffset + k)] + cmd.VtxOffset;
      if (a + 2 >= unsigned(list.VtxBuffer.Size)) continue;
      const ImDrawVert& tl = list.VtxBuffer[int(a)];
      const ImDrawVert& br = list.VtxBuffer[int(a + 2)];
      const QuadGlyph q = glyph_of(index, tl, br);
      if (!q.glyph) continue;
      // Entirely outside is not "cut": the scissor hides it completely (scrolled away).
      const bool disjoint = br.pos.x <= clip.x || tl.pos.x >= clip.z || br.pos.y <= clip.y || tl.pos.y >= clip.w;
      if (disjoint) continue;
      const bool inside_sideways = tl.pos.x >= clip.x - kTolerance && br.pos.x <= clip.z + kTolerance;
      const bool inside_vertically = tl.pos.y >= clip.y - kTolerance && br.pos.y <= clip.w + kTolerance;
      if ((!inside_sideways && !scrolls_x) || (!inside_vertically && !scrolls)) {
        if (scissor.text.empty()) scissor.at = tl.pos;
        append_utf8(scissor.text, q.glyph->codepoint);
      } else if (inside_sideways && inside_vertically && !q.whole && !(q.cut_vertically && scrolls)) {
        if (clipped.text.empty()) clipped.at = tl.pos;
        append_utf8(clipped.text, q.glyph->codepoint);
      }
    }
  }
  if (!scissor.text.empty()) found.push_back(scissor);
  if (!clipped.text.empty()) found.push_back(clipped);
}

// Tabs drawn this frame that ImGui had to make narrower than their labels.
void find_cut_tabs(std::vector<CutText>& found) {
  ImGuiContext& g = *GImGui;
  for (int n = 0; n < g.TabBars.GetMapSize(); ++n) {
    ImGuiTabBar* bar = g.TabBars.TryGetMapData(n);
    if (!bar || bar->CurrFrameVisible != g.FrameCount) continue;
    for (const ImGuiTabItem& tab : bar->Tabs) {
      if (tab.LastFrameVisible != g.FrameCount || tab.Width + 0.5f >= tab.ContentWidth) continue;
      std::string name = bar->GetTabName(&tab);
      if (const auto hidden = name.find("##"); hidden != std::string::npos) name.resize(hidden);
      found.push_back({CutText::Kind::Tab, "tab bar", name, {bar->BarRect.Min.x + tab.Offset, bar->BarRect.Min.y}});
    }
  }
}

// Table headers drawn this frame whose labels ImGui ended with an ellipsis: the label
// reaches further than its column (ImGui records both per column).
void find_cut_headers(std::vector<CutText>& found) {
  ImGuiContext& g = *GImGui;
  for (int n = 0; n < g.Tables.GetMapSize(); ++n) {
    ImGuiTable* table = g.Tables.TryGetMapData(n);
    if (!table || table->LastFrameActive != g.FrameCount) continue;
    for (int c = 0; c < table->ColumnsCount; ++c) {
      const ImGuiTableColumn& column = table->Columns[c];
      if (!column.IsVisibleX || column.ContentMaxXHeadersIdeal <= column.ContentMaxXHeadersUsed + 0.5f) continue;
      const char* name = ImGui::TableGetColumnName(table, c);
      found.push_back({CutText::Kind::Header, table->OuterWindow ? table->OuterWindow->Name : "?", name ? name : "?",
                       {column.WorkMinX, table->OuterRect.Min.y}});
    }
  }
}

const char* kind_name(CutText::Kind kind) {
  switch (kind) {
    case CutText::Kind::Scissor: return "scissor";
    case CutText::Kind::Clipped: return "clipped";
    case CutText::Kind::Tab: return "tab";
    case CutText::Kind::Header: return "header";
  }
  return "?";
}

}  // namespace

std::vector<CutText> find_cut_text(const ImDrawData& data) {
  const GlyphIndex index = index_glyphs();
  std::vector<CutText> found;
  for (int l = 0; l < data.CmdListsCount; ++l) find_cut_glyphs(*data.CmdLists[l], index, found);
  find_cut_tabs(found);
  find_cut_headers(found);
  return found;
}

std::string describe(const std::vector<CutText>& cuts) {
  std::string s;
  for (const CutText& c : cuts)
    s += std::string("\n  ") + kind_name(c.kind) + " in window '" + c.window + "' at (" + std::to_string(int(c.at.x)) + ", " +
         std::to_string(int(c.at.y)) + "): \"" + c.text + "\"";
  return s;
}

std::string cut_text_json(const std::vector<CutText>& cuts) {
  nlohmann::json list = nlohmann::json::array();
  for (const CutText& c : cuts)
    list.push_back({{"kind", kind_name(c.kind)}, {"window", c.window}, {"text", c.text}, {"x", c.at.x}, {"y", c.at.y}});
  return list.dump();
}

}  // namespace app
