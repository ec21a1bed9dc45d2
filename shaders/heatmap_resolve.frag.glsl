#version 330 core
// Second pass of a two-pass heatmap: each pixel takes its row's colour for its column from
// the first pass (RGBA8, exact: the first pass rounded it as the framebuffer would have).
// Alpha 0 there means nothing is drawn.
uniform sampler2D u_colors;
uniform int u_x_origin;      // framebuffer x of the texture's column 0
uniform int u_row_count;

out vec4 frag_color;

#include "heatmap_row.glsl"

void main() {
  int row = fragment_row();
  if (row < 0 || row >= u_row_count) discard;
  vec4 color = texelFetch(u_colors, ivec2(int(gl_FragCoord.x) - u_x_origin, row), 0);
  if (color.a == 0.0) discard;
  frag_color = vec4(color.rgb, 1.0);
}
