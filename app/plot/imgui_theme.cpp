#include "plot/imgui_theme.hpp"

#include <imgui.h>

#include <filesystem>
#include <string>

#include "plot/line_texture.hpp"
#include "plot/marker_texture.hpp"

namespace plot {
namespace {

constexpr const char* kFontDirs[] = {"/usr/share/fonts/truetype/dejavu/", "/usr/share/fonts/dejavu/"};

TextFonts g_text_fonts;

// A DejaVu face from the directory the regular face came from, or `fallback` when missing.
ImFont* add_face(const std::string& dir, const char* file, float pixel_size, ImFont* fallback) {
  const std::string path = dir + file;
  if (!std::filesystem::exists(path)) return fallback;
  // No horizontal oversampling, glyphs on whole pixels: a third of the atlas area of
  // ImGui's default (OversampleH 3), as sharp at the size the atlas is rasterised for.
  ImFontConfig config;
  config.OversampleH = 1;
  config.PixelSnapH = true;
  ImFont* font = ImGui::GetIO().Fonts->AddFontFromFileTTF(path.c_str(), pixel_size, &config, math_glyph_ranges());
  return font ? font : fallback;
}

}  // namespace

const TextFonts& text_fonts() { return g_text_fonts; }

const unsigned short* math_glyph_ranges() {
  static const ImWchar ranges[] = {
      0x0020, 0x00FF,  // Basic Latin + Latin-1 (· × ± ²)
      0x0300, 0x036F,  // Combining diacritics (the tilde of q̃, k̃: zero advance, drawn over the letter)
      0x0370, 0x03FF,  // Greek (θ Δ π λ α β)
      0x1D00, 0x1DBF,  // Phonetic extensions: modifier letters (ᵀ in Qᵀ, ᵢ)
      0x2100, 0x214F,  // Letterlike symbols (ℝ)
      0x2000, 0x206F,  // General punctuation (– — ‖ …)
      0x2070, 0x209F,  // Super/subscripts
      0x2190, 0x21FF,  // Arrows
      0x2200, 0x22FF,  // Mathematical operators (≤ ≥ ≈ √ ∞ ∑ −)
      0x2308, 0x230B,  // Ceiling and floor brackets (⌈ ⌉ ⌊ ⌋: Liu et al.'s critical dimension, query scaling)
      0x25A0, 0x25FF,  // Geometric shapes (▶ ■)
      0x27E8, 0x27E9,  // ⟨ ⟩
      0,
  };
  return ranges;
}

namespace {

// The DejaVu faces (or ImGui's built-in font); false when DejaVu is missing.
bool add_fonts(float pixel_size, bool text_faces) {
  ImGuiIO& io = ImGui::GetIO();
  for (const char* dir : kFontDirs) {
    const std::string regular = std::string(dir) + "DejaVuSans.ttf";
    if (!std::filesystem::exists(regular)) continue;
    // The first font added is ImGui's default: every view draws with it.
    ImFont* font = io.Fonts->AddFontFromFileTTF(regular.c_str(), pixel_size, nullptr, math_glyph_ranges());
    if (!font) continue;
    // Lesson slides' Markdown styles (presenter mode); a missing face falls back to regular.
    g_text_fonts = {font, font, font, font, font, font};
    if (!text_faces) return true;
    g_text_fonts.bold = add_face(dir, "DejaVuSans-Bold.ttf", pixel_size, font);
    g_text_fonts.italic = add_face(dir, "DejaVuSans-Oblique.ttf", pixel_size, font);
    g_text_fonts.bold_italic = add_face(dir, "DejaVuSans-BoldOblique.ttf", pixel_size, g_text_fonts.bold);
    g_text_fonts.mono = add_face(dir, "DejaVuSansMono.ttf", pixel_size, font);
    // Slide headings: 1.5× the body, the h1 of a typical slide template, rasterised at its size.
    g_text_fonts.heading = add_face(dir, "DejaVuSans-Bold.ttf", pixel_size * 1.5f, g_text_fonts.bold);
    return true;
  }
  // ImGui's built-in font has no Greek: θ shows as '?'. Still usable.
  ImFontConfig config;
  config.SizePixels = pixel_size;
  ImFont* font = io.Fonts->AddFontDefault(&config);
  g_text_fonts = {font, font, font, font, font, font};
  return false;
}

}  // namespace

bool build_font_atlas(float pixel_size, bool text_faces) {
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  atlas.Clear();
  const bool found = add_fonts(pixel_size, text_faces);
  // Built here rather than when the backend first asks for the pixels: the plots' line
  // profiles and marker discs are written into the 8-bit atlas before it becomes RGBA.
  plot::reserve_line_texture(atlas);
  plot::reserve_marker_texture(atlas);
  atlas.Build();
  plot::bake_line_texture(atlas);
  plot::bake_marker_texture(atlas);
  return found;
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

}  // namespace plot
