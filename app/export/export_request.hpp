#pragma once
// What to export: kept apart from the renderer so UI code can build requests without
// depending on the session/window.
#include <filesystem>
#include <string>

namespace app {

enum class Background { Theme, White, Transparent };
const char* to_string(Background b);
Background background_from_string(const std::string& s);  // theme | white | transparent; throws

struct ExportRequest {
  std::string view;  // empty: state.view
  int width = 1920, height = 1080;
  Background background = Background::Theme;
  std::filesystem::path path;
};

}  // namespace app
