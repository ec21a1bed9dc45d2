#version 330 core
// Heatmap of CPU-computed values (R32F texture, one texel per cell, nearest cell).
uniform sampler2D u_values;
uniform ivec2 u_size;        // columns, rows
uniform float u_column_a;    // column = floor(u_column_a + u_column_b · gl_FragCoord.x)
uniform float u_column_b;
uniform float u_row_a;       // row = floor(u_row_a + u_row_b · gl_FragCoord.y)
uniform float u_row_b;

out vec4 frag_color;

#include "colormap.glsl"

void main() {
  int column = int(floor(u_column_a + u_column_b * gl_FragCoord.x));
  int row = int(floor(u_row_a + u_row_b * gl_FragCoord.y));
  if (column < 0 || row < 0 || column >= u_size.x || row >= u_size.y) discard;
  float value = texelFetch(u_values, ivec2(column, row), 0).r;
  if (isnan(value)) discard;  // missing cells show the plot background
  float t = u_vmax > u_vmin ? (value - u_vmin) / (u_vmax - u_vmin) : 0.5;
  frag_color = vec4(colormap(t), 1.0);
}
