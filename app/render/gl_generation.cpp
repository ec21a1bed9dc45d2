#include "gl_generation.hpp"

#include <atomic>

namespace render {
namespace {
std::atomic<unsigned> g_generation{0};
}  // namespace

void note_new_gl_context() { g_generation.fetch_add(1, std::memory_order_relaxed); }
unsigned gl_context_generation() { return g_generation.load(std::memory_order_relaxed); }

}  // namespace render
