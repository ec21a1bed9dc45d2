#pragma once
// Where the desktop keeps pe-viz's own files: the last session (the host's saved session,
// platform/desktop/host.cpp) and the window's size. A page keeps its session in the
// browser's local storage instead (platform/web/host.cpp).
#include <filesystem>

namespace app {

// ~/.config/pe-viz (XDG_CONFIG_HOME respected); created on demand; empty if unknown.
std::filesystem::path config_dir();
// The same directory, not created (it may not exist).
std::filesystem::path config_dir_location();
std::filesystem::path autosave_path();

}  // namespace app
