#include "views/rope_table_common.hpp"

namespace app {
namespace {

void draw_rope_sin_view(ViewContext& ctx) { draw_rope_table(ctx, /*cosine=*/false); }
std::string rope_sin_csv(const AppState& s, const Derived& d) { return rope_table_csv(s, d, /*cosine=*/false); }
std::vector<std::string> rope_sin_formula(const AppState& s, const Derived& d) { return rope_angle_formula(s, d, /*sine=*/true); }

}  // namespace

const ViewInfo& rope_sin_view() {
  static const ViewInfo info{
      .name = "rope-sin",
      .title = "RoPE sin",
      .summary = "RoPE sin(p·θ_i) table and sin curves of chosen pairs",
      .group = "RoPE",
      .draw = draw_rope_sin_view,
      .csv = rope_sin_csv,
      .formula = rope_sin_formula,
      .animatable = kRopeTableAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
