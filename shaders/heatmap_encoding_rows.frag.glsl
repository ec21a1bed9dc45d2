#version 330 core
// First pass of the two-pass encoding heatmap: one fragment per (pixel column, row) into
// an RGBA8 texture, row r at y = r, column 0 at framebuffer x u_x_origin; the second pass
// (heatmap_resolve) spreads each row over its pixel rows.
uniform float u_x_origin;

out vec4 frag_color;

#include "colormap.glsl"
#include "heatmap_encoding_color.glsl"

void main() { frag_color = encoding_color(u_x_origin + gl_FragCoord.x, int(gl_FragCoord.y)); }
