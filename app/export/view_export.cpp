#include "export/view_export.hpp"

#include <cstdio>

#include <epoxy/gl.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "pe/base/errors.hpp"
#include "plot/plot.hpp"
#include "render/framebuffer.hpp"
#include "render/gl_errors.hpp"
#include "export/png_writer.hpp"
#include "views/view.hpp"

namespace app {
namespace {

// How far the view of the last export frame ran past the bottom of the image.
float g_export_overflow = 0.0f;

// Compact number for file names: 10000, 500000, 1e+06 -> "1e6", 2.5 -> "2.5".
std::string compact(double v) {
  std::ostringstream s;
  s << v;
  std::string out = s.str();
  const auto e = out.find("e+");
  if (e != std::string::npos) {
    std::string exponent = out.substr(e + 2);
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    out = out.substr(0, e) + "e" + exponent;
  }
  return out;
}

}  // namespace

// Restores what an export changes (view, theme, scale) even when it throws.
class ExportStateGuard {
 public:
  ExportStateGuard(ExportSession& s) : session_(s), view_(s.state().view), dark_(s.state().dark_theme),
                                    scale_(s.window().ui_scale()), colors_(ImGui::GetStyle()) {}
  ~ExportStateGuard() {
    session_.state().view = view_;
    session_.state().dark_theme = dark_;
    ImGui::GetStyle() = colors_;
    session_.window().set_dark_theme(dark_);
    session_.window().set_render_scale(scale_);
    render::Framebuffer::unbind();
  }

 private:
  ExportSession& session_;
  std::string view_;
  bool dark_;
  float scale_;
  ImGuiStyle colors_;
};

const char* to_string(Background b) {
  switch (b) {
    case Background::White: return "white";
    case Background::Transparent: return "transparent";
    case Background::Theme: break;
  }
  return "theme";
}

Background background_from_string(const std::string& s) {
  if (s == "theme") return Background::Theme;
  if (s == "white") return Background::White;
  if (s == "transparent") return Background::Transparent;
  throw pe::InvalidArgument("background", s, "theme, white or transparent");
}

std::string default_export_name(const AppState& s, const std::string& view) {
  std::string name = view + "_theta" + compact(s.rope.theta) + "_d" + std::to_string(s.rope.head_dim) + "_L" +
                     std::to_string(s.length);
  if (s.rope.scaling.type != pe::RopeType::Default)
    name += std::string("_") + pe::to_string(s.rope.scaling.type) + "x" + compact(s.rope.scaling.factor);
  return name + ".png";
}

float export_scale(int width, int height, float ui_scale) {
  return std::clamp(std::min(float(width) / 1600.0f, float(height) / 1000.0f) * ui_scale, 0.5f, 8.0f);
}

OffscreenRenderer::OffscreenRenderer(ExportSession& session, const std::string& view, int width, int height,
                                     Background background)
    : session_(session), width_(width), height_(height), background_(background) {
  if (!find_view(view)) throw pe::InvalidArgument("view", view, "a name from `pe-viz --list-views`");
  const int max_size = render::Framebuffer::max_size();
  if (width < 16 || height < 16 || width > max_size || height > max_size)
    throw pe::InvalidArgument("size", std::to_string(width) + "x" + std::to_string(height),
                              "16 ... " + std::to_string(max_size) + " pixels per side (GL max texture size)");
  render::drain_gl_errors();
  guard_ = std::make_unique<ExportStateGuard>(session);
  AppState& state = session.state();
  state.view = view;
  if (background == Background::White) state.dark_theme = false;
  session.window().set_dark_theme(state.dark_theme);
  session.window().set_render_scale(export_scale(width, height, state.ui_scale));
  if (background == Background::Transparent) {
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 0.0f;
    ImGui::GetStyle().Colors[ImGuiCol_ChildBg].w = 0.0f;
  }
  if (background == Background::White) {
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg] = ImVec4(1, 1, 1, 1);
  }
  fbo_ = std::make_unique<render::Framebuffer>(width, height);
  view_ = view;
}

OffscreenRenderer::~OffscreenRenderer() = default;

std::vector<unsigned char> OffscreenRenderer::render(int passes) {
  AppState& state = session_.state();
  state.view = view_;
  // A PNG cannot scroll: when the view runs past the bottom with the GUI's plot heights,
  // the layout passes run again with lower minimums (the plots share what room there is,
  // as they did before minimums existed) until it fits or the minimum is gone.
  constexpr float kLevels[] = {plot::kMinPlotDataLines, 1.5f, 0.5f, 0.0f};
  struct RestoreGuiMinimum {
    float lines = plot::min_data_lines();
    ~RestoreGuiMinimum() { plot::set_min_data_lines(lines); }
  } restore;
  if (min_data_lines_ < 0.0f) min_data_lines_ = kLevels[0];
  const int layout_passes = std::max(passes, 1);
  for (int pass = 0;; ++pass) {
    plot::set_min_data_lines(min_data_lines_);
    session_.window().begin_offscreen_frame(float(width_), float(height_));
    plot::set_pixel_scale(session_.window().ui_scale());
    g_export_overflow = session_.draw_export_frame({float(width_), float(height_)});
    ImGui::Render();
    // Only the last pass's pixels are kept: the earlier ones settle the layout (CPU side),
    // and heatmaps draw in render callbacks, so nothing needs rasterizing before the last.
    if (pass + 1 < layout_passes) continue;
    if (g_export_overflow >= 1.0f && min_data_lines_ > 0.0f) {
      min_data_lines_ = *std::find_if(std::begin(kLevels), std::end(kLevels), [&](float l) { return l < min_data_lines_; });
      pass = -1;
      continue;
    }
    break;
  }
  fbo_->bind();
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  if (background_ == Background::Transparent) glClearColor(0, 0, 0, 0);
  else glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  Window::render_draw_data();
  glFinish();
  std::vector<unsigned char> pixels = fbo_->read_pixels();
  const auto errors = render::drain_gl_errors();
  if (!errors.empty()) throw std::runtime_error("OpenGL error while exporting " + view_ + ": " + errors.front());
  if (background_ != Background::Transparent)
    for (std::size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;
  return pixels;
}

std::vector<unsigned char> render_view_pixels(ExportSession& session, const std::string& view, int width, int height,
                                              Background background) {
  // Auto-fit axes use the previous frame's data, and the data sampled per pixel depends on
  // the layout, which depends on the fitted tick labels. Three passes reach the fixed point,
  // so an export depends only on the state and the size, never on what was drawn before.
  return OffscreenRenderer(session, view, width, height, background).render(kFixedPointPasses);
}

double export_view_png(ExportSession& session, const ExportRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const std::string view = request.view.empty() ? session.state().view : request.view;
  const auto pixels = render_view_pixels(session, view, request.width, request.height, request.background);
  write_png_atomic(request.path, request.width, request.height, pixels);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string export_cut_warning(const std::string& view, int width, int height) {
  const float cut = g_export_overflow;
  if (cut < 1.0f) return {};
  char text[256];
  std::snprintf(text, sizeof text,
                "%s does not fit %dx%d at this UI scale even with its plots squeezed; its last %.0f px are cut off",
                view.c_str(), width, height, double(cut));
  return text;
}

}  // namespace app
