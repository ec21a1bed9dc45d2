// The value heatmap's colour at framebuffer x `frag_x` (a pixel centre) in `row`; alpha 0
// where nothing is drawn (outside the columns, or a NaN cell: the plot background shows).
// Shared by the one-pass shader and the per-row pass of the two-pass path.
uniform sampler2D u_values;
uniform ivec2 u_size;        // columns, rows
uniform float u_column_a;    // column = floor(u_column_a + u_column_b · frag_x)
uniform float u_column_b;

vec4 values_color(float frag_x, int row) {
  int column = int(floor(u_column_a + u_column_b * frag_x));
  if (column < 0 || column >= u_size.x) return vec4(0.0);
  float value = texelFetch(u_values, ivec2(column, row), 0).r;
  if (isnan(value)) return vec4(0.0);
  float t = u_vmax > u_vmin ? (value - u_vmin) / (u_vmax - u_vmin) : 0.5;
  return vec4(colormap(t), 1.0);
}
