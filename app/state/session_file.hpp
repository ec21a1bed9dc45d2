#pragma once
// Sessions: every parameter and view choice as JSON with a version field. Unknown keys
// are ignored with a warning; malformed files are refused with line and reason; files
// are written atomically (temp file + rename) so a crash never eats a saved session.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "state/app_state.hpp"

namespace app {

inline constexpr int kSessionVersion = 1;

class SessionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string session_to_json(const AppState& state);
// Parses text into a copy of `base` (missing keys keep base's values). Throws SessionError
// naming the line/column or the key; `warnings` gets one line per ignored key.
AppState session_from_json(const std::string& text, const AppState& base, std::vector<std::string>& warnings);

void save_session(const std::filesystem::path& path, const AppState& state);  // atomic; throws SessionError
AppState load_session(const std::filesystem::path& path, const AppState& base, std::vector<std::string>& warnings);

// Writes `contents` to `path` via a temporary file in the same directory and rename(2)
// (platform/atomic_file.hpp). Throws std::runtime_error naming the path and the system's
// reason; refuses to replace a read-only file.
void write_file_atomic(const std::filesystem::path& path, const std::string& contents);

}  // namespace app
