#include "platform/imgui_theme.hpp"

#include <imgui.h>

#include <filesystem>

namespace app {
namespace {

constexpr const char* kFontPaths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
};

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

bool build_font_atlas(float pixel_size) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  for (const char* path : kFontPaths) {
    if (!std::filesystem::exists(path)) continue;
    if (io.Fonts->AddFontFromFileTTF(path, pixel_size, nullptr, math_glyph_ranges())) return true;
  }
  // ImGui's built-in font has no Greek: θ shows as '?'. Still usable.
  ImFontConfig config;
  config.SizePixels = pixel_size;
  io.Fonts->AddFontDefault(&config);
  return false;
}

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

}  // namespace app
