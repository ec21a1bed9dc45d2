#version 330 core
// First pass of the two-pass value heatmap (see heatmap_encoding_rows.frag.glsl).
uniform float u_x_origin;

out vec4 frag_color;

#include "colormap.glsl"
#include "heatmap_values_color.glsl"

void main() { frag_color = values_color(u_x_origin + gl_FragCoord.x, int(gl_FragCoord.y)); }
