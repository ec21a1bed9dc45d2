#pragma once
// Which GL context the app's long-lived GL objects belong to. The platform layer bumps the
// generation whenever a window makes a new context current (tests and tools open one window
// after another in a process); objects made under an older generation died with their
// context and must be made again, never deleted (their names may now be another object's).
namespace render {

void note_new_gl_context();
unsigned gl_context_generation();

}  // namespace render
