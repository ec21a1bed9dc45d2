#version 330 core
// A quad over the heatmap rectangle, generated from gl_VertexID (no vertex buffer):
// draw 4 vertices as GL_TRIANGLE_STRIP.
uniform vec4 u_rect_ndc;  // x0, y0, x1, y1 in normalised device coordinates

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  gl_Position = vec4(mix(u_rect_ndc.xy, u_rect_ndc.zw, corner), 0.0, 1.0);
}
