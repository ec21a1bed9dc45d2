#version 330 core
// A plot curve's strip (plot/curve_strips): display coordinates to NDC exactly as the ImGui
// backend's orthographic projection; `across` is the signed distance from the stroke's
// centre line in pixels (±reach at the strip's two edges), interpolated across it.
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_across_half;  // (across, half the stroke's width)
layout(location = 2) in vec4 a_color;        // ImGui's RGBA8, normalised

uniform vec2 u_display_pos;
uniform vec2 u_display_size;

out float v_across;
out float v_half;
out vec4 v_color;

void main() {
  vec2 p = (a_position - u_display_pos) / u_display_size;
  gl_Position = vec4(2.0 * p.x - 1.0, 1.0 - 2.0 * p.y, 0.0, 1.0);
  v_across = a_across_half.x;
  v_half = a_across_half.y;
  v_color = a_color;
}
