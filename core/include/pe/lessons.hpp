#pragma once
// pe/lessons: lesson files (Markdown slides with settings) and their animations.
// Uses: base.
#include "pe/lessons/animation.hpp"
#include "pe/lessons/lesson_file.hpp"
