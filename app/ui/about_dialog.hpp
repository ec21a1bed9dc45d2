#pragma once
// Help → About: the version, the licence and what pe-viz is for, in the desktop app and in
// the browser (the same menu bar draws both).
#include <string>

namespace app {

// The dialog's text, one paragraph a line (tested without a window).
std::string about_text();
// Asks for the dialog (from the Help menu); draw_about_dialog shows it from the next call.
void open_about_dialog();
// Draws the dialog while it is open. Call once a frame at the top level of the frame.
void draw_about_dialog();

}  // namespace app
