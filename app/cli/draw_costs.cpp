#include "draw_costs.hpp"

#include <epoxy/gl.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "plot/curve_strips.hpp"

namespace app {
namespace {

// Pixels of one command's triangles (or its rectangle, for a callback other than a curve
// strip's, whose triangles are counted).
double command_pixels(const ImDrawList& list, const ImDrawCmd& cmd) {
  const ImVec4 c = cmd.ClipRect;
  if (cmd.UserCallback) {
    if (cmd.UserCallback == ImDrawCallback_ResetRenderState) return 0;
    if (const auto strip = plot::strip_command_stats(cmd)) return strip->pixels;
    return double(std::max(0.0f, c.z - c.x)) * double(std::max(0.0f, c.w - c.y));
  }
  const auto at = [&](unsigned e) {
    const ImVec2 p = list.VtxBuffer[int(cmd.VtxOffset + list.IdxBuffer[int(cmd.IdxOffset + e)])].pos;
    return ImVec2(std::clamp(p.x, c.x, std::max(c.x, c.z)), std::clamp(p.y, c.y, std::max(c.y, c.w)));
  };
  double px = 0;
  for (unsigned e = 0; e + 2 < cmd.ElemCount; e += 3) {
    const ImVec2 a = at(e), b = at(e + 1), d = at(e + 2);
    px += 0.5 * std::abs(double(b.x - a.x) * double(d.y - a.y) - double(d.x - a.x) * double(b.y - a.y));
  }
  return px;
}

// Median of seven replays of `dd`, in ms.
double time_replay(ImDrawData& dd) {
  std::vector<double> t;
  for (int k = 0; k < 7; ++k) {
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    const auto a = std::chrono::steady_clock::now();
    ImGui_ImplOpenGL3_RenderDrawData(&dd);
    glFinish();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
  }
  std::nth_element(t.begin(), t.begin() + 3, t.end());
  return t[3];
}

}  // namespace

double covered_megapixels(const ImDrawData& dd) {
  double px = 0;
  for (int l = 0; l < dd.CmdListsCount; ++l)
    for (const ImDrawCmd& cmd : dd.CmdLists[l]->CmdBuffer) px += command_pixels(*dd.CmdLists[l], cmd);
  return px / 1e6;
}

double drawn_vertices(const ImDrawData& dd) {
  double vertices = dd.TotalVtxCount;
  for (int l = 0; l < dd.CmdListsCount; ++l)
    for (const ImDrawCmd& cmd : dd.CmdLists[l]->CmdBuffer)
      if (const auto strip = plot::strip_command_stats(cmd)) vertices += strip->vertices;
  return vertices;
}

void print_draw_costs(ImDrawData& dd, std::FILE* out, double command_floor_ms) {
  // Every replay pays llvmpipe's set-up of a scene and the glFinish round trip (about
  // 0.3 ms here): a command's own cost is its time less that.
  std::fprintf(out, "    whole frame replayed: %.2f ms, %.2f Mpx\n", time_replay(dd), covered_megapixels(dd));
  for (int l = 0; l < dd.CmdListsCount; ++l) {
    ImDrawList* list = dd.CmdLists[l];
    ImDrawData one = dd;
    one.CmdLists = &list;
    one.CmdListsCount = 1;
    one.TotalVtxCount = list->VtxBuffer.Size;
    one.TotalIdxCount = list->IdxBuffer.Size;
    double px = 0;
    for (const ImDrawCmd& cmd : list->CmdBuffer) px += command_pixels(*list, cmd);
    const double ms = time_replay(one);
    std::fprintf(out, "    list %-28s %5.2f ms %4d cmds %6d vtx %6.3f Mpx\n", list->_OwnerName ? list->_OwnerName : "(unnamed)",
                 ms, list->CmdBuffer.Size, list->VtxBuffer.Size, px / 1e6);
    if (ms <= 1.0) continue;
    // One command at a time: a copy of the list whose command buffer holds just that one.
    ImDrawList* copy = list->CloneOutput();
    one.CmdLists = &copy;
    for (int c = 0; c < list->CmdBuffer.Size; ++c) {
      const ImDrawCmd cmd = list->CmdBuffer[c];
      copy->CmdBuffer.resize(0);
      copy->CmdBuffer.push_back(cmd);
      const double cm = time_replay(one);
      if (cm < command_floor_ms) continue;
      std::fprintf(out, "      cmd %3d %-9s %6u indices, clip %4.0f,%4.0f to %4.0f,%4.0f %6.3f Mpx: %5.2f ms\n", c,
                   cmd.UserCallback ? "callback" : "triangles", cmd.ElemCount, cmd.ClipRect.x, cmd.ClipRect.y,
                   cmd.ClipRect.z, cmd.ClipRect.w, command_pixels(*list, cmd) / 1e6, cm);
    }
    IM_DELETE(copy);
  }
}

}  // namespace app
