#version 330 core
// Heatmap of CPU-computed values (R32F texture, one texel per cell, nearest cell).
uniform float u_row_a;       // row = floor(u_row_a + u_row_b · gl_FragCoord.y)
uniform float u_row_b;

out vec4 frag_color;

#include "colormap.glsl"
#include "heatmap_values_color.glsl"

void main() {
  int row = int(floor(u_row_a + u_row_b * gl_FragCoord.y));
  if (row < 0 || row >= u_size.y) discard;
  vec4 color = values_color(gl_FragCoord.x, row);
  if (color.a == 0.0) discard;
  frag_color = color;
}
