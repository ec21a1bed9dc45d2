#include "ui/gui_stack_guard.hpp"

#include <imgui.h>
#include <imgui_internal.h>

namespace app {

GuiStackSnapshot::GuiStackSnapshot() {
  ImGuiContext& g = *GImGui;
  ImGuiWindow* w = g.CurrentWindow;
  windows_ = g.CurrentWindowStack.Size;
  ids_ = w->IDStack.Size;
  groups_ = g.GroupStack.Size;
  colors_ = g.ColorStack.Size;
  style_vars_ = g.StyleVarStack.Size;
  fonts_ = g.FontStack.Size;
  item_widths_ = w->DC.ItemWidthStack.Size;
  wrap_pos_ = w->DC.TextWrapPosStack.Size;
  table_ = g.CurrentTable;
  tab_bar_ = g.CurrentTabBar;
}

void GuiStackSnapshot::restore() const {
  ImGuiContext& g = *GImGui;
  for (;;) {
    if (g.CurrentTable && g.CurrentTable != table_ && g.CurrentTable->OuterWindow == g.CurrentWindow) {
      ImGui::EndTable();
    } else if (g.CurrentTabBar && g.CurrentTabBar != tab_bar_) {
      ImGui::EndTabBar();
    } else if (g.CurrentWindowStack.Size > windows_) {
      // End() checks that the window's own pushes were popped: unwind to its Begin() sizes.
      ImGuiWindow* w = g.CurrentWindow;
      const ImGuiStackSizes& begin = g.CurrentWindowStack.back().StackSizesOnBegin;
      while (w->IDStack.Size > begin.SizeOfIDStack && w->IDStack.Size > 1) ImGui::PopID();
      while (g.GroupStack.Size > begin.SizeOfGroupStack) ImGui::EndGroup();
      if (g.ColorStack.Size > begin.SizeOfColorStack) ImGui::PopStyleColor(g.ColorStack.Size - begin.SizeOfColorStack);
      if (g.StyleVarStack.Size > begin.SizeOfStyleVarStack) ImGui::PopStyleVar(g.StyleVarStack.Size - begin.SizeOfStyleVarStack);
      while (g.FontStack.Size > begin.SizeOfFontStack) ImGui::PopFont();
      if (w->Flags & ImGuiWindowFlags_ChildWindow) ImGui::EndChild();
      else ImGui::End();
    } else {
      break;
    }
  }
  ImGuiWindow* w = g.CurrentWindow;
  while (w->IDStack.Size > ids_) ImGui::PopID();
  while (g.GroupStack.Size > groups_) ImGui::EndGroup();
  while (w->DC.ItemWidthStack.Size > item_widths_) ImGui::PopItemWidth();
  while (w->DC.TextWrapPosStack.Size > wrap_pos_) ImGui::PopTextWrapPos();
  if (g.ColorStack.Size > colors_) ImGui::PopStyleColor(g.ColorStack.Size - colors_);
  if (g.StyleVarStack.Size > style_vars_) ImGui::PopStyleVar(g.StyleVarStack.Size - style_vars_);
  while (g.FontStack.Size > fonts_) ImGui::PopFont();
}

}  // namespace app
