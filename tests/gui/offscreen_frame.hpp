#pragma once
// For GL tests that draw one ImGui frame offscreen and read it back (plot primitives
// against ImGui's own, pixel by pixel): the hidden window whose context and ImGui backend
// they share, and the frame itself. Header-only; each test executable includes it once.
#include <epoxy/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "platform/window.hpp"
#include "render/framebuffer.hpp"

namespace pe_test {

// A gtest environment owning a hidden 64×64 window (EGL without a display).
class OffscreenWindow : public ::testing::Environment {
 public:
  explicit OffscreenWindow(const char* title) : title_(title) {}
  void SetUp() override {
    try {
      window_ = std::make_unique<app::Window>(app::WindowOptions{.width = 64, .height = 64, .visible = false, .title = title_});
    } catch (const std::exception& e) {
      GTEST_FAIL() << "no GL context: " << e.what();
    }
  }
  void TearDown() override { window_.reset(); }

 private:
  const char* title_;
  std::unique_ptr<app::Window> window_;
};

// One frame of width × height: `build` runs between NewFrame and Render (it adds to the
// background list or opens windows), then the frame is drawn over `clear` into a fresh
// framebuffer. Returns its pixels, RGBA, top-down. With `draw` false the draw data never
// reaches GL (a test counting vertices under a made-up texture name): only the clear.
inline std::vector<unsigned char> render_offscreen_frame(int width, int height, ImVec4 clear, const std::function<void()>& build,
                                                         bool draw = true) {
  render::Framebuffer fb(width, height);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = 1.0f / 60.0f;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  build();
  ImGui::Render();
  fb.bind();
  glClearColor(clear.x, clear.y, clear.z, clear.w);
  glClear(GL_COLOR_BUFFER_BIT);
  if (draw) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  std::vector<unsigned char> rgba = fb.read_pixels();
  render::Framebuffer::unbind();
  return rgba;
}

}  // namespace pe_test
