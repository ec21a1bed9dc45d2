#include "platform/config_dir.hpp"

#include <cstdlib>
#include <system_error>

namespace app {

std::filesystem::path config_dir_location() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && *xdg) return std::filesystem::path(xdg) / "pe-viz";
  if (home && *home) return std::filesystem::path(home) / ".config" / "pe-viz";
  return {};
}

std::filesystem::path config_dir() {
  const std::filesystem::path dir = config_dir_location();
  if (dir.empty()) return dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return ec ? std::filesystem::path() : dir;
}

std::filesystem::path autosave_path() {
  const auto dir = config_dir();
  return dir.empty() ? dir : dir / "last-session.json";
}

}  // namespace app
