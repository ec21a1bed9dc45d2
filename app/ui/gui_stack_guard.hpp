#pragma once
// Restores Dear ImGui's stacks to a snapshot after an exception unwound through drawing
// code (a view that threw mid-plot): ends the tables, tab bars and windows it opened,
// pops its IDs, groups, widths, colours, style vars and fonts. ImGui's own
// ErrorCheckEndWindowRecover also closes tab bars that belong to the caller, so this
// does it with the snapshot's bounds instead.
struct ImGuiTable;
struct ImGuiTabBar;

namespace app {

class GuiStackSnapshot {
 public:
  GuiStackSnapshot();        // records the current sizes
  void restore() const;      // closes everything opened since, innermost first

 private:
  int windows_ = 0, ids_ = 0, groups_ = 0, colors_ = 0, style_vars_ = 0, fonts_ = 0, item_widths_ = 0, wrap_pos_ = 0;
  ImGuiTable* table_ = nullptr;
  ImGuiTabBar* tab_bar_ = nullptr;
};

}  // namespace app
