// Colormap shared by the heatmap fragment shaders (#include "colormap.glsl", expanded by
// render::shader_source_with_includes). Same arithmetic as plot::colormap_rgb on the CPU.
uniform vec3 u_colormap[16];
uniform int u_colormap_size;
uniform float u_vmin;
uniform float u_vmax;

vec3 colormap(float t) {
  float x = clamp(t, 0.0, 1.0) * float(u_colormap_size - 1);
  int i = min(int(x), u_colormap_size - 2);
  return mix(u_colormap[i], u_colormap[i + 1], x - float(i));
}
