#pragma once
// Touch gestures ImGui 1.86 has no notion of. A finger reaches ImGui as the left mouse
// button (platform/web bridges the page's touch events), so a drag on a slider moves it and a
// drag on a plot pans it; these add what a finger expects where no widget is under it.
// Called only for touch (FrameOptions::touch): a desktop mouse keeps ImGui's behaviour.
namespace app {

// A drag that starts on a window's background (no widget under the finger) scrolls that
// window, or the nearest one it sits in that can scroll: the parameter drawer, a long view,
// a slide's text, a wide table sideways. Call at the start of a frame, before the windows are submitted.
void scroll_by_touch_drag();

// A quick horizontal swipe that no widget took (it started on a background, not on a
// slider or a plot): +1 for a swipe to the left (next, as a page turns), −1 to the right,
// 0 otherwise. Call once per frame after the widgets were submitted.
int take_swipe();

}  // namespace app
