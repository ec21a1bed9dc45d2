#include "views/rope_table_common.hpp"

namespace app {
void draw_rope_cos_view(ViewContext& ctx) { draw_rope_table(ctx, /*cosine=*/true); }
}  // namespace app
