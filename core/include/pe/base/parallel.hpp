#pragma once
// Two threads for a loop whose iterations write disjoint results: the calling thread and
// one helper. Views recompute curves while a slider is dragged on the machines this must
// run well on (two cores, software GL): while a frame is being built the rasteriser's
// threads wait, so a second core is free for exactly that work.
#include "pe/base/module_guard.hpp"

#include <functional>

namespace pe {

// body(first, last) over [0, n) in two parts when n >= 2·min_part (the second part on a
// helper thread), else body(0, n) in place. The split point is a multiple of `align` (>= 1),
// so a recurrence that re-anchors every `align` iterations gives the same numbers either way.
// An exception from either part reaches the caller (the first part's when both throw). In a
// page without threads (emscripten) everything runs in place.
void in_two_parts(long long n, long long min_part, long long align, const std::function<void(long long, long long)>& body);

}  // namespace pe
