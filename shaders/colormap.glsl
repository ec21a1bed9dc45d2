// Colormap shared by the heatmap fragment shaders (#include "colormap.glsl", expanded by
// render::shader_source_with_includes). Same arithmetic as plot::colormap_rgb on the CPU.
//
// The control points come as 8-bit sRGB packed 0xRRGGBB (plot::colormap_packed_rgb) and are
// turned into floats here by k / 255.0, a correctly rounded division: the very floats of the
// CPU table (k / 255.0f), so every pixel is what a vec3 table gave (colormap_shader_test).
// Why not the vec3 table: llvmpipe reads an array at a per-pixel index lane by lane, and six
// such reads (r, g, b at i and i + 1) were a third of a heatmap's per-pixel cost; two words
// and six divisions cost less.
uniform uint u_colormap[16];
uniform int u_colormap_size;
uniform float u_vmin;
uniform float u_vmax;

vec3 colormap_point(uint rgb) {
  return vec3(float((rgb >> 16) & 255u), float((rgb >> 8) & 255u), float(rgb & 255u)) / 255.0;
}

vec3 colormap(float t) {
  float x = clamp(t, 0.0, 1.0) * float(u_colormap_size - 1);
  int i = min(int(x), u_colormap_size - 2);
  return mix(colormap_point(u_colormap[i]), colormap_point(u_colormap[i + 1]), x - float(i));
}
