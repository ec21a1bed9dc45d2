#pragma once
// The browser page around the canvas, for the platform layer's own use (platform/window.cpp
// in the browser build): its pixel ratio, the canvas's size, input since the last frame,
// fullscreen. Everything above the platform goes through platform/host.hpp.
struct GLFWwindow;
struct ImGuiIO;

namespace app::page {

// window.devicePixelRatio (2 on a typical laptop panel; browser zoom changes it), 0.5 ... 4.
float device_pixel_ratio();
// Gives the canvas as many pixels as its CSS box covers on the screen (CSS size × pixel
// ratio), through GLFW so that its idea of the window's size follows. Cheap when unchanged.
void fit_canvas(GLFWwindow* window);
// Whether the reader did anything (keys, mouse, touch, wheel, a resize, a drop, a paste)
// since the last call.
bool take_input();
// The finger as ImGui's mouse (call after the GLFW backend's NewFrame, which read the
// mouse): the page takes touches before emscripten's GLFW, which would press the left button
// where the mouse last was and never follow the finger (3.1.6). One press or release per
// frame; once the finger is lifted the pointer is nowhere, so nothing stays hovered. Tap
// distances grow with the pixel ratio (a finger is not a mouse). Nothing while the pointer is
// a mouse.
void apply_touch(ImGuiIO& io);
// The Fullscreen API on the whole page (the browser needs a recent key press or click).
void toggle_fullscreen();
bool fullscreen();
// ImGui's clipboard through the page's (emscripten's GLFW has none): copying writes the
// system clipboard; pasting reads what the browser's paste event brought.
void install_clipboard(ImGuiIO& io);

}  // namespace app::page
