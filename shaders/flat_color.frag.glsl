#version 330 core
// A translucent rectangle's one colour (plot/rect_fills): what ImGui's shader computes for a
// filled rectangle (vertex colour × the atlas's white texel, 1.0) without the texture fetch.
uniform vec4 u_color;

out vec4 frag_color;

void main() { frag_color = u_color; }
