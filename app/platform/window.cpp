#include "platform/window.hpp"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cstring>

#include "platform/frame_pacing.hpp"
#include "platform/gl_context.hpp"
#include "platform/headless_input.hpp"
#include "plot/imgui_theme.hpp"
#include "render/gl_generation.hpp"

#ifdef __EMSCRIPTEN__
// In a browser page the window is the canvas: its pixels follow the page's layout and pixel
// ratio (the content scale), fullscreen is the page's, and the GL is WebGL 2 (GLSL ES 3.00).
#include "platform/web/page.hpp"
constexpr const char* kImGuiGlsl = "#version 300 es";
#else
constexpr const char* kImGuiGlsl = "#version 330 core";
#endif

namespace app {

Window::Window(const WindowOptions& options) : ini_path_(options.ini_path) {
  // Validate the environment before any context exists: a typo is an error, not a fallback.
  const GlBackend backend = options.backend != GlBackend::Auto ? options.backend : gl_backend_from_environment();
  const float faked_scale = options.content_scale > 0.0f ? options.content_scale : content_scale_from_environment();
  context_ = GlContext::create({.width = options.width, .height = options.height, .visible = options.visible,
                                .title = options.title},
                               backend);
  if (!options.visible) target_.emplace(options.width, options.height);
  if (faked_scale > 0.0f) {
    content_scale_ = faked_scale;
    content_scale_fixed_ = true;
  } else if (GLFWwindow* w = handle(); w && options.visible) {
#ifdef __EMSCRIPTEN__
    page::fit_canvas(w);
    content_scale_ = page::device_pixel_ratio();
#else
    // A hidden window's monitor scale would make offscreen output depend on the machine.
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(w, &x, &y);
    content_scale_ = x > 0.0f ? x : 1.0f;
#endif
  }
  if (GLFWwindow* w = handle(); w && options.visible) {
    glfwSetWindowUserPointer(w, this);
#ifndef __EMSCRIPTEN__
    glfwSetWindowContentScaleCallback(w, on_content_scale);
#endif
    // Before ImGui's backend installs its callbacks, so that it chains to this one.
    glfwSetKeyCallback(w, on_key);
    frame_pacing::set_wake_enabled(true);
  }

  render::note_new_gl_context();  // GL objects kept from an earlier window are not this context's
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_path_.empty() ? nullptr : ini_path_.c_str();
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  if (options.visible) ImGui_ImplGlfw_InitForOpenGL(handle(), true);
  else install_headless_key_map();
#ifdef __EMSCRIPTEN__
  if (options.visible) page::install_clipboard(io);
#endif
  ImGui_ImplOpenGL3_Init(kImGuiGlsl);
  set_ui_scale(1.0f);
}

Window::~Window() {
  if (!offscreen()) frame_pacing::set_wake_enabled(false);
  ImGui_ImplOpenGL3_Shutdown();
  if (!offscreen()) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  target_.reset();  // GL objects go while the context is current
  context_.reset();
}

GLFWwindow* Window::handle() const { return context_->glfw_window(); }
GlBackend Window::backend() const { return context_->backend(); }
const std::string& Window::context_description() const { return context_->description(); }

bool Window::should_close() const { return !offscreen() && glfwWindowShouldClose(handle()) != 0; }

void Window::request_close() {
  if (!offscreen()) glfwSetWindowShouldClose(handle(), GLFW_TRUE);
}

void Window::on_content_scale(GLFWwindow* window, float x, float /*y*/) {
  // Moved to a monitor of another scale: fonts are rebuilt before the next frame
  // (AppSession calls set_ui_scale every frame). X and Y scales agree on every platform
  // GLFW supports; ImGui has one font scale anyway.
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(window));
  if (self && !self->content_scale_fixed_ && x > 0.0f) self->content_scale_ = x;
}

void Window::on_key(GLFWwindow* window, int key, int /*scancode*/, int action, int mods) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(window));
  if (self) self->key_latch_.on_key(key, action, mods);
}

bool Window::wait_for_events(double seconds) {
  if (offscreen() || !(seconds > 0.0)) return true;
#ifdef __EMSCRIPTEN__
  // The page cannot block: the browser calls again on its next animation frame.
  return page::take_input();
#else
  glfwWaitEventsTimeout(seconds);
  return true;
#endif
}

void Window::set_title(const std::string& title) {
  // In a page, emscripten's GLFW sets document.title.
  if (!offscreen()) glfwSetWindowTitle(handle(), title.c_str());
}

void Window::begin_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  if (offscreen()) {
    headless_frame_input(ImVec2(float(target_->width()), float(target_->height())));
  } else {
    glfwPollEvents();
#ifdef __EMSCRIPTEN__
    page::fit_canvas(handle());
    if (!content_scale_fixed_) content_scale_ = page::device_pixel_ratio();
#endif
    ImGui_ImplGlfw_NewFrame();
    key_latch_.apply(ImGui::GetIO());
#ifdef __EMSCRIPTEN__
    page::apply_touch(ImGui::GetIO());
#endif
  }
  if (input_hook_) input_hook_(ImGui::GetIO());
  ImGui::NewFrame();
}

void Window::begin_offscreen_frame(float width, float height) {
  ImGui_ImplOpenGL3_NewFrame();
  if (offscreen()) {
    headless_frame_input(ImVec2(width, height));
  } else {
    ImGui_ImplGlfw_NewFrame();  // keeps the backend's clock and buttons in step
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {width, height};
    io.DisplayFramebufferScale = {1.0f, 1.0f};
    io.MousePos = {-FLT_MAX, -FLT_MAX};  // no hover read-outs or crosshairs in exports
  }
  ImGui::NewFrame();
}

void Window::render_draw_data() { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }

void Window::end_frame() {
  ImGui::Render();
  if (target_) {
    target_->bind();
  } else {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, framebuffer_width(), framebuffer_height());
  }
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::swap() {
  if (!offscreen()) glfwSwapBuffers(handle());
}

int Window::framebuffer_width() const {
  if (target_) return target_->width();
  int w = 0, h = 0;
  glfwGetFramebufferSize(handle(), &w, &h);
  return w;
}

int Window::framebuffer_height() const {
  if (target_) return target_->height();
  int w = 0, h = 0;
  glfwGetFramebufferSize(handle(), &w, &h);
  return h;
}

void Window::set_size(int width, int height) {
  if (!target_) {
    glfwSetWindowSize(handle(), width, height);
    return;
  }
  if (width == target_->width() && height == target_->height()) return;
  target_.emplace(width, height);
}

std::vector<unsigned char> Window::read_pixels() const {
  std::vector<unsigned char> top_down;
  if (target_) {
    top_down = target_->read_pixels();
  } else {
    const int w = framebuffer_width(), h = framebuffer_height();
    std::vector<unsigned char> bottom_up(std::size_t(w) * std::size_t(h) * 4);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
    // GL's origin is bottom-left; PNG rows go top-down.
    top_down.resize(bottom_up.size());
    const std::size_t row = std::size_t(w) * 4;
    for (int y = 0; y < h; ++y)
      std::memcpy(top_down.data() + std::size_t(y) * row, bottom_up.data() + std::size_t(h - 1 - y) * row, row);
  }
  for (std::size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;  // window pixels are opaque
  return top_down;
}

void Window::remembered_size(int& width, int& height) const {
  if (target_) {
    width = target_->width();
    height = target_->height();
    return;
  }
  glfwGetWindowSize(handle(), &width, &height);
  // GLFW_SCALE_TO_MONITOR multiplied the requested size by c / f (c on X11, 1 on macOS
  // and Wayland); divide it out so the next start asks for the same size again.
  const float grown = content_scale_ / framebuffer_scale();
  if (grown > 0.0f && !content_scale_fixed_) {
    width = int(float(width) / grown + 0.5f);
    height = int(float(height) / grown + 0.5f);
  }
}

float Window::logical_width() const {
  int w = 0, h = 0;
  if (target_) w = target_->width();
  else glfwGetWindowSize(handle(), &w, &h);
  return float(w) * framebuffer_scale() / std::max(content_scale_, 0.01f);
}

float Window::framebuffer_scale() const {
  if (target_) return 1.0f;
  int w = 0, h = 0, fw = 0, fh = 0;
  glfwGetWindowSize(handle(), &w, &h);
  glfwGetFramebufferSize(handle(), &fw, &fh);
  return w > 0 && fw > 0 ? float(fw) / float(w) : 1.0f;  // minimised windows report 0
}

void Window::apply_font_scale(const FontScale& scale) {
  if (scale == applied_) return;
  applied_ = scale;
  unicode_font_ = plot::build_font_atlas(scale.atlas_pixels, text_faces_);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGui::GetIO().FontGlobalScale = scale.global;
  plot::apply_style(dark_, scale.layout);
}

void Window::set_ui_scale(float scale) { apply_font_scale(window_font_scale(scale, content_scale_, framebuffer_scale())); }

void Window::set_text_faces(bool wanted) {
  if (wanted == text_faces_) return;
  text_faces_ = wanted;
  const FontScale scale = applied_;
  applied_ = FontScale{};  // forces the rebuild at the same scale
  apply_font_scale(scale);
}

void Window::set_render_scale(float scale) { apply_font_scale(render_font_scale(scale)); }

#ifdef __EMSCRIPTEN__
bool Window::fullscreen() const { return page::fullscreen(); }

void Window::toggle_fullscreen() {
  if (!offscreen()) page::toggle_fullscreen();
}
#else
bool Window::fullscreen() const { return handle() && glfwGetWindowMonitor(handle()) != nullptr; }

void Window::toggle_fullscreen() {
  if (offscreen()) return;  // nothing on a monitor to make fullscreen
  if (fullscreen()) {
    glfwSetWindowMonitor(handle(), nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], GLFW_DONT_CARE);
    return;
  }
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (!mode) return;  // no monitor (Xvfb without RandR): stay windowed
  glfwGetWindowPos(handle(), &windowed_[0], &windowed_[1]);
  glfwGetWindowSize(handle(), &windowed_[2], &windowed_[3]);
  glfwSetWindowMonitor(handle(), monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}
#endif

void Window::set_dark_theme(bool dark) {
  if (dark == dark_) return;
  dark_ = dark;
  plot::apply_style(dark_, applied_.layout);
}

}  // namespace app
