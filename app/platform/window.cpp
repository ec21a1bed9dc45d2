#include "platform/window.hpp"

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <cfloat>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace app {
namespace {

std::string g_glfw_error;

void on_glfw_error(int code, const char* description) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "");
}

constexpr const char* kFontPaths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
};

void apply_style(bool dark, float scale) {
  ImGuiStyle style;
  if (dark) ImGui::StyleColorsDark(&style); else ImGui::StyleColorsLight(&style);
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.TabRounding = 3.0f;
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

}  // namespace

const unsigned short* math_glyph_ranges() {
  static const ImWchar ranges[] = {
      0x0020, 0x00FF,  // Basic Latin + Latin-1 (· × ± ²)
      0x0370, 0x03FF,  // Greek (θ Δ π λ α β)
      0x1D00, 0x1DBF,  // Phonetic extensions: modifier letters (ᵀ in Qᵀ, ᵢ)
      0x2100, 0x214F,  // Letterlike symbols (ℝ)
      0x2000, 0x206F,  // General punctuation (– — ‖ …)
      0x2070, 0x209F,  // Super/subscripts
      0x2190, 0x21FF,  // Arrows
      0x2200, 0x22FF,  // Mathematical operators (≤ ≥ ≈ √ ∞ ∑ −)
      0x25A0, 0x25FF,  // Geometric shapes (▶ ■)
      0x27E8, 0x27E9,  // ⟨ ⟩
      0,
  };
  return ranges;
}

Window::Window(const WindowOptions& options) : ini_path_(options.ini_path) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    throw std::runtime_error(
        "cannot open a window (" + g_glfw_error +
        "). No display? Run the GUI under a desktop session, or headless with "
        "`xvfb-run -a pe-viz ...` (also for `pe-viz export` and `pe-viz bench`); `pe-viz dump` needs no display.");
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  window_ = glfwCreateWindow(options.width, options.height, options.title, nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("cannot create an OpenGL 3.3 core window (" + g_glfw_error +
                             "). pe-viz needs OpenGL 3.3; under Xvfb, Mesa's llvmpipe provides it.");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(options.visible ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_path_.empty() ? nullptr : ini_path_.c_str();
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  set_ui_scale(1.0f);
}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void Window::begin_frame() {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void Window::begin_offscreen_frame(float width, float height) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = {width, height};
  io.DisplayFramebufferScale = {1.0f, 1.0f};
  io.MousePos = {-FLT_MAX, -FLT_MAX};  // no hover read-outs or crosshairs in exports
  ImGui::NewFrame();
}

void Window::render_draw_data() { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }

void Window::end_frame() {
  ImGui::Render();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, framebuffer_width(), framebuffer_height());
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::swap() { glfwSwapBuffers(window_); }

int Window::framebuffer_width() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return w;
}

int Window::framebuffer_height() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return h;
}

void Window::rebuild_fonts(float pixel_size) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  unicode_font_ = false;
  for (const char* path : kFontPaths) {
    if (!std::filesystem::exists(path)) continue;
    if (io.Fonts->AddFontFromFileTTF(path, pixel_size, nullptr, math_glyph_ranges())) {
      unicode_font_ = true;
      break;
    }
  }
  if (!unicode_font_) {
    // ImGui's built-in font has no Greek: θ shows as '?'. Still usable.
    ImFontConfig config;
    config.SizePixels = pixel_size;
    io.Fonts->AddFontDefault(&config);
  }
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void Window::set_ui_scale(float scale) { set_render_scale(scale < 1.0f ? 1.0f : (scale > 3.0f ? 3.0f : scale)); }

void Window::set_render_scale(float scale) {
  scale = scale < 0.5f ? 0.5f : (scale > 8.0f ? 8.0f : scale);
  if (scale == ui_scale_) return;
  ui_scale_ = scale;
  rebuild_fonts(16.0f * scale);
  apply_style(dark_, scale);
}

bool Window::fullscreen() const { return glfwGetWindowMonitor(window_) != nullptr; }

void Window::toggle_fullscreen() {
  if (fullscreen()) {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], GLFW_DONT_CARE);
    return;
  }
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (!mode) return;  // no monitor (Xvfb without RandR): stay windowed
  glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
  glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
  glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

void Window::set_dark_theme(bool dark) {
  if (dark == dark_) return;
  dark_ = dark;
  apply_style(dark_, ui_scale_);
}

}  // namespace app
