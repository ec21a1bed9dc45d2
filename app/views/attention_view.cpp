// Attention patterns softmax(QKᵀ/√d + causal mask) for the same seeded tokens under each
// position method, side by side.
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "pe/analysis.hpp"
#include "views/view.hpp"

namespace app {

namespace {
constexpr long long kMaxAttentionDim = 1024;
}  // namespace

void draw_attention_view(ViewContext& ctx) {
  const AppState& s = ctx.state;
  constexpr auto& kMethods = kAttentionMethods;
  struct Pattern { pe::TableF values; std::string error; };
  static std::array<Pattern, kMethods.size()> patterns;
  static std::string key;
  static unsigned long long version = 0;
  const long long n = std::clamp<long long>(s.length, 1, kAttentionLength);  // patterns are n² cells: keep them legible
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  if (s.rope.head_dim > kMaxAttentionDim) {
    teaching_note("Attention patterns are drawn for d ≤ 1024 (the seeded d × d projections grow as d²); lower d to see them.");
    return;
  }
  // Keyed on everything the patterns depend on: RoPE's (scaled) frequencies via the
  // derived version, the convention, seed and ALiBi head.
  const std::string new_key = std::to_string(n) + "|" + std::to_string(ctx.derived.version) + "|" +
                              pe::to_string(s.rope.convention) + "|" + std::to_string(s.seed) + "|" +
                              std::to_string(s.heads) + "|" + std::to_string(s.head);
  if (new_key != key) {
    key = new_key;
    ++version;
    const pe::AttentionParams params = attention_params(s, ctx.derived);
    for (std::size_t m = 0; m < kMethods.size(); ++m) {
      try {
        patterns[m] = {pe::attention_pattern(kMethods[m], params), {}};
      } catch (const std::exception& e) {
        patterns[m] = {{}, e.what()};
      }
    }
  }
  // 3 × 2 grid: five patterns and a colour bar with each method's mean attention distance.
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float note_h = ImGui::GetTextLineHeightWithSpacing() * 2.2f;
  const float w = std::min((ctx.size.x - spacing * 2) / 3.0f, (ImGui::GetContentRegionAvail().y - note_h - spacing) / 2.0f);
  constexpr double kVmax = 0.25;  // most weights are small: a shared, clipped scale keeps panels comparable
  for (std::size_t m = 0; m < kMethods.size(); ++m) {
    if (m % 3 != 0) ImGui::SameLine();
    const std::string title = pe::to_string(kMethods[m]);
    ImGui::BeginGroup();
    if (!patterns[m].error.empty()) {
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
      ImGui::TextWrapped("%s: %s", title.c_str(), patterns[m].error.c_str());
      ImGui::PopTextWrapPos();
    } else {
      // Mean |i − j| under the attention weights: how far each method looks on average.
      const auto& v = patterns[m].values;
      double distance = 0;
      for (Eigen::Index i = 0; i < v.rows(); ++i)
        for (Eigen::Index j = 0; j <= i; ++j) distance += double(v(i, j)) * double(i - j);
      distance /= double(std::max<Eigen::Index>(v.rows(), 1));
      char plot_title[96];
      std::snprintf(plot_title, sizeof plot_title, "%s — mean distance %.1f", title.c_str(), distance);
      if (plot::begin_plot(("##attention-" + title).c_str(), {w, w}, {.title = plot_title, .legend = false, .equal_aspect = true})) {
        plot::setup_axes({.label = "key j", .min = -0.5, .max = double(n) - 0.5, .format = "%.0f"},
                         {.label = "query i", .min = -0.5, .max = double(n) - 0.5, .invert = true, .format = "%.0f"});
        plot::plot_value_heatmap(title.c_str(), {.values = {v.data(), std::size_t(v.size())}, .rows = int(n), .columns = int(n),
                                                 .x0 = -0.5, .x1 = double(n) - 0.5, .y0 = -0.5, .y1 = double(n) - 0.5,
                                                 .colormap = plot::Colormap::Viridis, .vmin = 0.0, .vmax = kVmax,
                                                 .version = version * 8 + m, .y_down = true});
        if (plot::is_plot_hovered()) {
          const long long i = std::llround(plot::mouse_y()), j = std::llround(plot::mouse_x());
          if (i >= 0 && i < n && j >= 0 && j < n) plot::hover_text("query %lld → key %lld: weight %.5f", i, j, double(v(i, j)));
        }
        plot::end_plot();
      }
    }
    ImGui::EndGroup();
  }
  ImGui::SameLine();
  ImGui::BeginGroup();
  plot::colorbar("weight (clipped at 0.25)", 0.0, kVmax, plot::Colormap::Viridis, {0.0f, w});
  ImGui::EndGroup();
  teaching_note("Same random tokens in every panel; only the position method differs. Rows sum to 1, the upper triangle is masked "
                "(causal). ALiBi's bias makes attention local (see the mean distances). With unrelated random q and k, RoPE adds no "
                "locality of its own: its decay appears only for aligned q and k (relative-score view).");
}

}  // namespace app
