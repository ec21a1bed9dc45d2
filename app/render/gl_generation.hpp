#pragma once
// Which GL context the app's long-lived GL objects belong to. The platform layer bumps the
// generation whenever a window makes a new context current (tests and tools open one window
// after another in a process); objects made under an older generation died with their
// context and must be made again, never deleted (their names may now be another object's).
#include <vector>

namespace render {

void note_new_gl_context();
unsigned gl_context_generation();

// The current context's T (default-constructed on first use in that context). Never
// destroyed: GL objects must not be deleted after their context is gone, and one made in an
// older context must not be deleted in a newer one. The list of them is never destroyed
// either, so they stay reachable (no leak report at exit).
template <class T>
T& per_context() {
  static auto* instances = new std::vector<T*>();
  static unsigned generation = 0;
  if (instances->empty() || generation != gl_context_generation()) {
    instances->push_back(new T());
    generation = gl_context_generation();
  }
  return *instances->back();
}

}  // namespace render
