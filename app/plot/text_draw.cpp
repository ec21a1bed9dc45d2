#include "text_draw.hpp"

#include <algorithm>

#include "plot_state.hpp"

namespace plot::detail {
namespace {
constexpr float kSuperscriptScale = 0.72f;
}

// A typographic minus (U+2212) reads better than '-' in numbers, when the font has it.
static std::string with_minus_sign(const std::string& s) {
  if (s.find('-') == std::string::npos || ImGui::GetFont()->FindGlyphNoFallback(0x2212) == nullptr) return s;
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    // Only a sign: at the start or after an exponent marker, not inside words.
    if (s[i] == '-' && (i == 0 || s[i - 1] == 'e')) out += "\xE2\x88\x92";
    else out += s[i];
  }
  return out;
}

ImVec2 text_size(const std::string& text, float size_scale) {
  ImFont* font = ImGui::GetFont();
  return font->CalcTextSizeA(em() * size_scale, FLT_MAX, 0.0f, text.c_str(), text.c_str() + text.size());
}

ImVec2 tick_label_size(const Tick& tick) {
  ImVec2 size = text_size(with_minus_sign(tick.label));
  if (!tick.superscript.empty()) {
    const ImVec2 sup = text_size(with_minus_sign(tick.superscript), kSuperscriptScale);
    size.x += sup.x + 1.0f;
    size.y += em() * 0.25f;  // the exponent sits above the base line
  }
  return size;
}

void draw_tick_label(ImDrawList* draw, ImVec2 pos, const Tick& tick, ImU32 color) {
  ImFont* font = ImGui::GetFont();
  const std::string label = with_minus_sign(tick.label);
  if (tick.superscript.empty()) {
    draw->AddText(font, em(), pos, color, label.c_str());
    return;
  }
  const float raise = em() * 0.25f;
  const ImVec2 base_size = text_size(label);
  draw->AddText(font, em(), ImVec2(pos.x, pos.y + raise), color, label.c_str());
  draw->AddText(font, em() * kSuperscriptScale, ImVec2(pos.x + base_size.x + 1.0f, pos.y), color,
                with_minus_sign(tick.superscript).c_str());
}

void draw_vertical_text(ImDrawList* draw, ImVec2 center, const std::string& text, ImU32 color) {
  // Draw horizontally, then rotate the new vertices about the centre (ImGui has no
  // rotated-text API in 1.86; this is the approach ImPlot uses).
  const ImVec2 size = text_size(text);
  // ImGui culls glyphs against the clip rect before we rotate them, which would cut the
  // start of a label that sticks out of the frame while still horizontal. A square clip
  // rect around the centre covers the text both before and after the rotation.
  const float half = std::max(size.x, size.y) * 0.5f + 2.0f;
  const ImVec4 outer = draw->_CmdHeader.ClipRect;  // the window's: the scissor must still cut there
  draw->PushClipRect(ImVec2(center.x - half, center.y - half), ImVec2(center.x + half, center.y + half), false);
  const int first = draw->VtxBuffer.Size;
  draw->AddText(ImGui::GetFont(), em(), ImVec2(center.x - size.x * 0.5f, center.y - size.y * 0.5f), color,
                text.c_str());
  for (int i = first; i < draw->VtxBuffer.Size; ++i) {
    ImDrawVert& v = draw->VtxBuffer[i];
    const float dx = v.pos.x - center.x, dy = v.pos.y - center.y;
    // 90° counter-clockwise on screen (y down): (dx, dy) -> (dy, -dx).
    v.pos = ImVec2(center.x + dy, center.y - dx);
  }
  // The glyphs were culled against the square; the GPU scissors them against the square
  // within the window's rectangle (else a label of a plot scrolled past a child's edge
  // draws over whatever lies beyond it).
  if (draw->VtxBuffer.Size > first && !draw->CmdBuffer.empty()) {
    ImVec4& clip = draw->CmdBuffer.back().ClipRect;
    clip = ImVec4(std::max(clip.x, outer.x), std::max(clip.y, outer.y), std::min(clip.z, outer.z), std::min(clip.w, outer.w));
  }
  draw->PopClipRect();
}

}  // namespace plot::detail
