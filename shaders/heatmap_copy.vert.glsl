#version 330 core
// The quad of a CPU-computed encoding heatmap (heatmap_copy.frag.glsl), from gl_VertexID
// as heatmap.vert.glsl, with each corner's texture coordinate: the quad's edges are pixel
// edges and the texture has one texel per pixel, so every pixel centre samples its texel's
// centre (nearest filtering), which llvmpipe does faster than texelFetch at gl_FragCoord.
uniform vec4 u_rect_ndc;  // x0, y0, x1, y1 in normalised device coordinates
uniform vec4 u_rect_uv;   // the same corners in texture coordinates

out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  v_uv = mix(u_rect_uv.xy, u_rect_uv.zw, corner);
  gl_Position = vec4(mix(u_rect_ndc.xy, u_rect_ndc.zw, corner), 0.0, 1.0);
}
