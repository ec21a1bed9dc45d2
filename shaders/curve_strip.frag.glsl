#version 330 core
// The share of this pixel a stroke of width 2·half covers: the overlap of the pixel's span
// across the stroke, [across − ½, across + ½], with [−half, half]. The same profile the
// atlas's line rows hold (plot/line_texture), computed instead of fetched: on llvmpipe the
// texture fetch was about half of a thin strip's cost.
in float v_across;
in float v_half;
in vec4 v_color;

out vec4 frag_color;

void main() {
  float coverage = clamp(min(v_across + 0.5, v_half) - max(v_across - 0.5, -v_half), 0.0, 1.0);
  frag_color = vec4(v_color.rgb, v_color.a * coverage);
}
