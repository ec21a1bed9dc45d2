#version 330 core
// An encoding heatmap computed on the CPU (plot/encoding_pixels.hpp): each framebuffer pixel
// of the quad takes its texel, one texel per pixel. The quad covers exactly the pixels that
// have a heatmap row, so nothing is discarded (on llvmpipe a discard doubled a copy's cost).
uniform sampler2D u_image;
uniform ivec2 u_origin;  // framebuffer pixel (x, y from the bottom) of texel (0, 0)

out vec4 frag_color;

void main() {
  frag_color = vec4(texelFetch(u_image, ivec2(gl_FragCoord.xy) - u_origin, 0).rgb, 1.0);
}
