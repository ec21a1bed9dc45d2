#include "held_fences.hpp"

#include <algorithm>

namespace render {

HeldFences::~HeldFences() {
  // Owners live as long as their context (see gl_generation): deleting here is harmless.
  for (const auto& [frame, sync] : held_) glDeleteSync(sync);
}

void HeldFences::hold(long long frame) {
  std::erase_if(held_, [frame](const auto& entry) {
    if (frame - entry.first < 2 && frame >= entry.first) return false;
    glDeleteSync(entry.second);
    return true;
  });
  if (GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0)) held_.emplace_back(frame, sync);
}

}  // namespace render
