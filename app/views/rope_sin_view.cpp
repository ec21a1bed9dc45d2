#include "views/rope_table_common.hpp"

namespace app {
void draw_rope_sin_view(ViewContext& ctx) { draw_rope_table(ctx, /*cosine=*/false); }
}  // namespace app
