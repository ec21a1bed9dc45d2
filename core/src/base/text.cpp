#include "pe/base/text.hpp"

namespace pe {

std::string ascii_lower(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return text;
}

std::string lower_extension(const std::filesystem::path& path) { return ascii_lower(path.extension().string()); }

}  // namespace pe
