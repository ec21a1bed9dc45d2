#include "platform/display_scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "pe/base/errors.hpp"

namespace app {

FontScale window_font_scale(float ui_scale, float content_scale, float framebuffer_scale) {
  const float u = std::clamp(ui_scale, 1.0f, 3.0f);
  const float c = std::clamp(content_scale, 0.5f, 4.0f);
  const float f = std::clamp(framebuffer_scale, 0.5f, 4.0f);
  return {.atlas_pixels = kBaseFontPixels * u * c, .layout = u * c / f, .global = 1.0f / f};
}

FontScale render_font_scale(float scale) {
  const float s = std::clamp(scale, 0.5f, 8.0f);
  return {.atlas_pixels = kBaseFontPixels * s, .layout = s, .global = 1.0f};
}

float content_scale_from_environment() {
  const char* text = std::getenv("PE_VIZ_CONTENT_SCALE");
  if (!text || !*text) return 0.0f;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  while (end && *end == ' ') ++end;
  if (!end || *end != '\0' || !std::isfinite(value) || value < 0.5 || value > 4.0)
    throw pe::InvalidArgument("PE_VIZ_CONTENT_SCALE", text, "a number 0.5 ... 4");
  return float(value);
}

}  // namespace app
