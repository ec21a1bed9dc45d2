#version 330 core
// heatmap_copy.frag.glsl for a value heatmap with NaN cells: their texels have alpha 0 and
// are left out, as heatmap_values.frag.glsl leaves them (the plot background shows).
uniform sampler2D u_image;

in vec2 v_uv;
out vec4 frag_color;

void main() {
  vec4 color = texture(u_image, v_uv);
  if (color.a == 0.0) discard;
  frag_color = vec4(color.rgb, 1.0);
}
