#version 330 core
// Heatmap of CPU-computed values (R32F texture, one texel per cell, nearest cell).

out vec4 frag_color;

#include "colormap.glsl"
#include "heatmap_row.glsl"
#include "heatmap_values_color.glsl"

void main() {
  int row = fragment_row();
  if (row < 0 || row >= u_size.y) discard;
  vec4 color = values_color(gl_FragCoord.x, row);
  if (color.a == 0.0) discard;
  frag_color = color;
}
