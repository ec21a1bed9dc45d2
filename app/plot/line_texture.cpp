#include "line_texture.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "curve_strips.hpp"
#include "strip_geometry.hpp"

namespace plot {
namespace {

constexpr int kSteps = 8;                 // rows per pixel of width
constexpr int kMinEighths = kSteps;       // 1 px: thinner strokes keep ImGui's thin-line path
constexpr int kMaxEighths = 16 * kSteps;  // 16 px: wider ones are few and short
constexpr int kRows = kMaxEighths - kMinEighths + 1;
// 16 texels per pixel across the stroke puts every corner of the coverage profile (at
// ±(w/2 ± 1/2) from the centre, w a multiple of 1/8) on a texel centre, so the bilinear
// filter reproduces the profile exactly between them, at any subpixel offset.
constexpr int kTexelsPerPixel = 2 * kSteps;
constexpr int kRowTexels = 2 * (kTexelsPerPixel * (16 / 2 + 1) + 2);  // 16 px + 1 px each side + margin
constexpr float kCentre = kRowTexels / 2 + 0.5f;                      // the stroke's centre: a texel centre

struct Baked {
  const ImFontAtlas* atlas = nullptr;
  int rect = -1;
  bool ready = false;
  float u0[kRows] = {}, u1[kRows] = {}, v[kRows] = {};
};

Baked g_baked;

// The share of a pixel whose centre is `s` pixels from the middle of a stroke of width w
// that the stroke covers: the overlap of [s − 1/2, s + 1/2] with [−w/2, w/2].
float coverage(float s, float w) {
  return std::max(0.0f, std::min(s + 0.5f, w * 0.5f) - std::max(s - 0.5f, -w * 0.5f));
}

int eighths(float thickness) { return int(std::lround(double(thickness) * kSteps)); }

}  // namespace

float quantized_line_width(float thickness) { return float(eighths(thickness)) / float(kSteps); }

void reserve_line_texture(ImFontAtlas& atlas) {
  g_baked = {};
  g_baked.atlas = &atlas;
  g_baked.rect = atlas.AddCustomRectRegular(kRowTexels, kRows);
}

void bake_line_texture(ImFontAtlas& atlas) {
  if (g_baked.atlas != &atlas || g_baked.rect < 0 || atlas.TexPixelsAlpha8 == nullptr) return;
  const ImFontAtlasCustomRect* r = atlas.GetCustomRectByIndex(g_baked.rect);
  if (r == nullptr || !r->IsPacked()) return;
  for (int row = 0; row < kRows; ++row) {
    const float w = float(row + kMinEighths) / float(kSteps);
    unsigned char* texels = atlas.TexPixelsAlpha8 + (r->Y + row) * atlas.TexWidth + r->X;
    for (int t = 0; t < kRowTexels; ++t) {
      const float s = (float(t) + 0.5f - kCentre) / float(kTexelsPerPixel);
      texels[t] = static_cast<unsigned char>(std::lround(255.0f * coverage(s, w)));
    }
    // The strip reaches one pixel past the stroke each side (the profile is zero from half
    // a pixel out); v through the texel centres, so the filter never mixes in another row.
    const float reach = (w * 0.5f + 1.0f) * float(kTexelsPerPixel);
    g_baked.u0[row] = (float(r->X) + kCentre - reach) * atlas.TexUvScale.x;
    g_baked.u1[row] = (float(r->X) + kCentre + reach) * atlas.TexUvScale.x;
    g_baked.v[row] = (float(r->Y + row) + 0.5f) * atlas.TexUvScale.y;
  }
  g_baked.ready = true;
}

namespace detail {

void add_polyline(ImDrawList* draw, const ImVec2* points, int count, ImU32 color, float thickness) {
  const int e = eighths(thickness);
  const bool strip = e > kMinEighths && e <= kMaxEighths && (draw->Flags & ImDrawListFlags_AntiAliasedLines);
  // The shaded strip first (plot/curve_strips: the same profile, computed), every width.
  if (strip && add_curve_strip(draw, points, count, color, float(e) / float(kSteps))) return;
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  const bool ours = strip && g_baked.ready && g_baked.atlas == atlas && e % kSteps != 0 &&
                    draw->_CmdHeader.TextureId == atlas->TexID;
  if (!ours) {
    draw->AddPolyline(points, count, color, ImDrawFlags_None, e % kSteps == 0 && e > 0 ? float(e / kSteps) : thickness);
    return;
  }
  if (count < 2 || (color & IM_COL32_A_MASK) == 0) return;
  const int row = e - kMinEighths;
  const float half = float(e) / float(2 * kSteps) + 1.0f;  // half the width, plus the ramp

  static thread_local std::vector<ImVec2> miters;
  strip_miters(points, count, miters);
  draw->PrimReserve(6 * (count - 1), 2 * count);
  const ImDrawIdx base = static_cast<ImDrawIdx>(draw->_VtxCurrentIdx);
  const ImVec2 uv0(g_baked.u0[row], g_baked.v[row]), uv1(g_baked.u1[row], g_baked.v[row]);
  ImDrawVert* vtx = draw->_VtxWritePtr;
  for (int i = 0; i < count; ++i) {
    const ImVec2 m = miters[std::size_t(i)];
    vtx[0].pos = ImVec2(points[i].x + m.x * half, points[i].y + m.y * half);
    vtx[0].uv = uv0;
    vtx[0].col = color;
    vtx[1].pos = ImVec2(points[i].x - m.x * half, points[i].y - m.y * half);
    vtx[1].uv = uv1;
    vtx[1].col = color;
    vtx += 2;
  }
  draw->_VtxWritePtr = vtx;
  ImDrawIdx* idx = draw->_IdxWritePtr;
  for (int i = 0; i + 1 < count; ++i) {
    const ImDrawIdx a = static_cast<ImDrawIdx>(base + 2 * i);
    idx[0] = a;
    idx[1] = static_cast<ImDrawIdx>(a + 2);
    idx[2] = static_cast<ImDrawIdx>(a + 3);
    idx[3] = a;
    idx[4] = static_cast<ImDrawIdx>(a + 3);
    idx[5] = static_cast<ImDrawIdx>(a + 1);
    idx += 6;
  }
  draw->_IdxWritePtr = idx;
  draw->_VtxCurrentIdx += unsigned(2 * count);
}

}  // namespace detail
}  // namespace plot
