// The encoding heatmap's colour at framebuffer x `frag_x` (a pixel centre) in `row`,
// shared by the one-pass shader and the per-row pass of the two-pass path (see
// app/plot/heatmap_renderer.cpp), so both compute every pixel with the same operations.
//
// Row texel (phase, step_hi, step_lo, factor):
//   angle(n) = 2π · (phase + n·step_hi + n·step_lo)   (all in turns, reduced mod 1)
// with n the pixel-column index (mean/point mode) or the integer-position offset (cell
// mode). n·step_hi is exact in float32 (step_hi has 10 fractional bits, n < 2^14), so the
// angle keeps ~1e-6 rad accuracy even at positions ~10^6 where p·θ itself would not fit.
// factor = sin(h)/h turns the centre value into the exact mean over the pixel's span.
uniform sampler2D u_rows;
uniform int u_function;      // 0: cos, 1: sin, 2: sinusoidal (even rows sin, odd rows cos)
uniform int u_cell_mode;     // 1: n = nearest integer position offset; 0: n = column index
uniform int u_column0;       // framebuffer column with n = 0
uniform float u_cell_offset; // cell mode: position of column u_column0's centre minus the base
uniform float u_cell_dx;     // cell mode: positions per framebuffer column

vec4 encoding_color(float frag_x, int row) {
  vec4 p = texelFetch(u_rows, ivec2(row, 0), 0);
  int column = int(frag_x) - u_column0;
  int n = column;
  if (u_cell_mode == 1) n = int(floor(u_cell_offset + u_cell_dx * float(column) + 0.5));
  float fn = float(n);
  float turns = p.x + fract(fn * p.y) + fract(fn * p.z);
  turns = fract(turns + 0.5) - 0.5;  // [-1/2, 1/2): sin/cos are most accurate near 0
  float angle = 6.283185307179586 * turns;
  bool use_cos = u_function == 0 || (u_function == 2 && (row & 1) == 1);
  float value = (use_cos ? cos(angle) : sin(angle)) * p.w;
  float t = u_vmax > u_vmin ? (value - u_vmin) / (u_vmax - u_vmin) : 0.5;
  return vec4(colormap(t), 1.0);
}
