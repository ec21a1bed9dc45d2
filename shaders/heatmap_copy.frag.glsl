#version 330 core
// An encoding heatmap computed on the CPU (plot/heatmap_pixels.hpp): each framebuffer pixel
// of the quad takes its texel, one texel per pixel (heatmap_copy.vert.glsl). The quad covers
// exactly the pixels that have a heatmap row, so nothing is discarded (on llvmpipe a discard
// doubled a copy's cost).
uniform sampler2D u_image;

in vec2 v_uv;
out vec4 frag_color;

void main() { frag_color = vec4(texture(u_image, v_uv).rgb, 1.0); }
