// The heatmap row a fragment lies in: row = floor(u_row_a + u_row_b · gl_FragCoord.y).
// One definition for every shader that maps pixels to rows (one pass, and the second pass
// of two), so the two paths cannot disagree on a row edge.
uniform float u_row_a;
uniform float u_row_b;

int fragment_row() { return int(floor(u_row_a + u_row_b * gl_FragCoord.y)); }
