#include "marker_texture.hpp"

#include <algorithm>
#include <cmath>

namespace plot {
namespace {

constexpr int kSteps = 4;                  // radii per pixel
constexpr int kMinSteps = kSteps;          // 1 px: smaller markers are ImGui's few triangles anyway
constexpr int kMaxSteps = 16 * kSteps;     // 16 px: the projector preset's points (1.5 pt × 3 × 2 × 1.8)
constexpr int kDiscs = kMaxSteps - kMinSteps + 1;
constexpr int kTexelsPerPixel = 4;
constexpr int kMargin = 1;  // a zero texel round each disc: the filter never reads a neighbour

struct Disc {
  int rect = -1;
  ImVec2 uv0, uv1;
};

struct Baked {
  const ImFontAtlas* atlas = nullptr;
  bool ready = false;
  Disc discs[kDiscs];
};

Baked g_baked;

int steps(float radius) { return int(std::lround(double(radius) * kSteps)); }

// The quad reaches half a pixel past the ramp's outer end (r + ½): radius + 1 each way.
float half_side(int s) { return float(s) / float(kSteps) + 1.0f; }
int disc_texels(int s) { return int(std::lround(2.0f * half_side(s) * kTexelsPerPixel)); }

}  // namespace

float quantized_marker_radius(float radius) { return float(steps(radius)) / float(kSteps); }

void reserve_marker_texture(ImFontAtlas& atlas) {
  g_baked = {};
  g_baked.atlas = &atlas;
  for (int k = 0; k < kDiscs; ++k) {
    const int side = disc_texels(k + kMinSteps) + 2 * kMargin;
    g_baked.discs[k].rect = atlas.AddCustomRectRegular(side, side);
  }
}

void bake_marker_texture(ImFontAtlas& atlas) {
  if (g_baked.atlas != &atlas || atlas.TexPixelsAlpha8 == nullptr) return;
  for (int k = 0; k < kDiscs; ++k) {
    Disc& disc = g_baked.discs[k];
    const ImFontAtlasCustomRect* r = disc.rect >= 0 ? atlas.GetCustomRectByIndex(disc.rect) : nullptr;
    if (r == nullptr || !r->IsPacked()) return;
    const float radius = float(k + kMinSteps) / float(kSteps);
    const int n = disc_texels(k + kMinSteps);
    const float centre = float(n) * 0.5f;  // in texels from the disc's corner (a texel edge)
    for (int y = 0; y < r->Height; ++y) {
      unsigned char* row = atlas.TexPixelsAlpha8 + (r->Y + y) * atlas.TexWidth + r->X;
      for (int x = 0; x < r->Width; ++x) {
        const float dx = (float(x - kMargin) + 0.5f - centre) / kTexelsPerPixel;
        const float dy = (float(y - kMargin) + 0.5f - centre) / kTexelsPerPixel;
        const float a = std::clamp(radius + 0.5f - std::sqrt(dx * dx + dy * dy), 0.0f, 1.0f);
        row[x] = static_cast<unsigned char>(std::lround(255.0f * a));
      }
    }
    disc.uv0 = ImVec2(float(r->X + kMargin) * atlas.TexUvScale.x, float(r->Y + kMargin) * atlas.TexUvScale.y);
    disc.uv1 = ImVec2(float(r->X + kMargin + n) * atlas.TexUvScale.x, float(r->Y + kMargin + n) * atlas.TexUvScale.y);
  }
  g_baked.ready = true;
}

namespace detail {

void add_marker(ImDrawList* draw, ImVec2 centre, float radius, ImU32 color) {
  const int s = steps(radius);
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  const bool ours = g_baked.ready && g_baked.atlas == atlas && s >= kMinSteps && s <= kMaxSteps &&
                    (draw->Flags & ImDrawListFlags_AntiAliasedFill) && draw->_CmdHeader.TextureId == atlas->TexID;
  if (!ours) {
    draw->AddCircleFilled(centre, radius, color, 12);
    return;
  }
  if ((color & IM_COL32_A_MASK) == 0) return;
  const Disc& disc = g_baked.discs[s - kMinSteps];
  const float h = half_side(s);
  draw->PrimReserve(6, 4);
  draw->PrimRectUV(ImVec2(centre.x - h, centre.y - h), ImVec2(centre.x + h, centre.y + h), disc.uv0, disc.uv1, color);
}

}  // namespace detail
}  // namespace plot
