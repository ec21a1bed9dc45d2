#include "state/legacy_names.hpp"

#include <string_view>

namespace app {

std::string current_mistake_name(const std::string& value) {
  // Old value → today's: the half-split cache read with interleaved pairs, and its mirror
  // image (an interleaved cache with a half-split rotate_half).
  static constexpr std::pair<std::string_view, std::string_view> kRenamed[] = {
      {"seed-004", "half-split-cache"},
      {"seed-001", "interleaved-cache"},
  };
  for (const auto& [old_name, new_name] : kRenamed)
    if (value == old_name) return std::string(new_name);
  return value;
}

const char* const kOldMirroredRotationKey = "seed003_sign";

}  // namespace app
