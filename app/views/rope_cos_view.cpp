#include "views/rope_table_common.hpp"

namespace app {
namespace {

void draw_rope_cos_view(ViewContext& ctx) { draw_rope_table(ctx, /*cosine=*/true); }
std::string rope_cos_csv(const AppState& s, const Derived& d) { return rope_table_csv(s, d, /*cosine=*/true); }
std::vector<std::string> rope_cos_formula(const AppState& s, const Derived& d) { return rope_angle_formula(s, d, /*sine=*/false); }

}  // namespace

const ViewInfo& rope_cos_view() {
  static const ViewInfo info{
      .name = "rope-cos",
      .title = "RoPE cos",
      .summary = "RoPE cos(p·θ_i) table and cos curves of chosen pairs",
      .group = "RoPE",
      .draw = draw_rope_cos_view,
      .csv = rope_cos_csv,
      .formula = rope_cos_formula,
      .animatable = kRopeTableAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
