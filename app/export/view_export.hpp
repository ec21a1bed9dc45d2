#pragma once
// PNG export of a view at any size: the view is redrawn offscreen into a framebuffer of
// that size with the same drawing code, fonts rebuilt for the size, then written atomically.
#include <filesystem>
#include <functional>
#include <string>

#include "export/export_request.hpp"
#include "platform/app_session.hpp"

namespace app {

// e.g. "rope-cos_theta10000_d64_L128.png" (plus _<scaling>x<factor> when scaled).
std::string default_export_name(const AppState& state, const std::string& view);

// The UI scale a view gets at that size: sizes keep the proportions of a 1600×1000 window.
float export_scale(int width, int height, float ui_scale);

// Renders and writes the PNG. Throws pe::InvalidArgument for a bad size or view and
// std::runtime_error for a GL error or an unwritable path (the message names it). Returns the pixels' time to render+write in ms.
double export_view_png(AppSession& session, const ExportRequest& request);

// Renders to top-down RGBA without writing (for tests and the --all deck).
std::vector<unsigned char> render_view_pixels(AppSession& session, const std::string& view, int width, int height,
                                              Background background);

}  // namespace app
