// Small text helpers shared by core and the app.
#pragma once

#include "pe/base/module_guard.hpp"
#include <filesystem>
#include <string>

namespace pe {

// A–Z to a–z, every other byte as it is (UTF-8 stays intact). Unlike std::tolower, the
// result does not depend on the process locale: names, keys and file extensions compare
// the same everywhere.
std::string ascii_lower(std::string text);
// A path's extension in lower case, dot included ("x.MP4" → ".mp4"; none → "").
std::string lower_extension(const std::filesystem::path& path);

}  // namespace pe
