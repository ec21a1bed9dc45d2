#include "views/relative_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "state/relative_params.hpp"
#include "plot/space_wrap.hpp"

namespace app {

std::string relative_error(const AppState& s) {
  try {
    validate_relative(s);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

bool show_relative_error(const AppState& s) {
  const std::string error = relative_error(s);
  if (error.empty()) return false;
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
  text_wrapped("Cannot draw this view: %s", error.c_str());
  ImGui::PopStyleColor();
  text_wrapped("Change the parameter named above (the panel shows it beside its control); the other views keep working.");
  return true;
}

std::vector<long long> cell_positions(long long n, long long cells) {
  std::vector<long long> out;
  if (n <= cells) {
    out.resize(std::size_t(std::max<long long>(n, 0)));
    for (long long k = 0; k < n; ++k) out[std::size_t(k)] = k;
    return out;
  }
  out.resize(std::size_t(cells));
  for (long long k = 0; k < cells; ++k)
    out[std::size_t(k)] = std::min<long long>(n - 1, (long long)std::floor((double(k) + 0.5) * double(n) / double(cells)));
  return out;
}

void plot_bars(const char* label, std::span<const double> heights, double floor, double cap, const plot::LineStyle& style) {
  std::vector<double> xs, lo, hi;
  xs.reserve(heights.size() * 3);
  lo.reserve(heights.size() * 3);
  hi.reserve(heights.size() * 3);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < heights.size(); ++k) {
    if (std::isnan(heights[k])) continue;  // no bar
    const double h = std::isfinite(heights[k]) ? heights[k] : cap;
    for (double dx : {-0.4, 0.4}) {
      xs.push_back(double(k) + dx);
      lo.push_back(floor);
      hi.push_back(std::max(h, floor));
    }
    // A break between bars: plot_shaded skips a quad with a non-finite end.
    xs.push_back(double(k) + 0.5);
    lo.push_back(nan);
    hi.push_back(nan);
  }
  plot::plot_shaded(label, xs, lo, hi, style);
}

ImVec4 illustrative_text_color() {
  // Amber: dark enough on white, bright enough on the dark theme.
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  const bool light = bg.x + bg.y + bg.z > 1.5f;
  return light ? ImVec4(0.62f, 0.38f, 0.0f, 1.0f) : ImVec4(1.0f, 0.75f, 0.3f, 1.0f);
}

float illustrative_note_height(const char* text) {
  const float wrap = std::max(1.0f, ImGui::GetContentRegionAvail().x);
  return ImGui::CalcTextSize(wrapped_at_spaces(text, wrap).c_str(), nullptr, false, wrap).y + ImGui::GetStyle().ItemSpacing.y;
}

void illustrative_note(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, illustrative_text_color());
  text_wrapped_unformatted(text);
  ImGui::PopStyleColor();
}

}  // namespace app
