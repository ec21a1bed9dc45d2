#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "views/view.hpp"

namespace app {

void show_state_error(const Derived& derived) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
  ImGui::TextWrapped("Cannot draw this view: %s", derived.error.c_str());
  ImGui::PopStyleColor();
  ImGui::TextWrapped("Change the parameter named above; the other views keep working.");
}

void teaching_note(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

ImVec2 split_height(ImVec2 size, float top_fraction) {
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  return {size.x, (size.y - gap) * top_fraction};
}

void plot_position_curve(const char* label, double (*f)(double p, const void* user), const void* user,
                         long long length, const plot::LineStyle& style) {
  const double x0 = std::max(0.0, std::ceil(plot::visible_x_min()));
  const double x1 = std::min(double(length - 1), std::floor(plot::visible_x_max()));
  const double pixels = std::abs(plot::to_pixels(plot::visible_x_max(), 0).x - plot::to_pixels(plot::visible_x_min(), 0).x);
  if (x1 >= x0 && x1 - x0 + 1 <= pixels) {
    std::vector<double> xs, ys;
    for (double p = x0; p <= x1; p += 1.0) {
      xs.push_back(p);
      ys.push_back(f(p, user));
    }
    plot::plot_line(label, xs, ys, style);
  } else {
    plot::plot_function(label, [&](double p) { return f(p, user); }, style);
  }
}

}  // namespace app
