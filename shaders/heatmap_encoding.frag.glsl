#version 330 core
// Encoding heatmap evaluated per pixel from per-row parameters (see
// app/plot/encoding_sampling.hpp): no L × d table exists anywhere.
uniform int u_row_count;

out vec4 frag_color;

#include "colormap.glsl"
#include "heatmap_row.glsl"
#include "heatmap_encoding_color.glsl"

void main() {
  int row = fragment_row();
  if (row < 0 || row >= u_row_count) discard;
  frag_color = encoding_color(gl_FragCoord.x, row);
}
