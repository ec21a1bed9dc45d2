#pragma once
// Whether a name is a view's (`view`, `compare_view`, `grid_views` must be). The state
// layer checks names without knowing what a view is: the views layer, which sits above,
// defines this from its registry (app/views/view_name_check.cpp) — the one list of views.
#include <string>

namespace app {

bool is_view_name(const std::string& name);
// Whether that view embeds another (compare), so it cannot be embedded itself.
bool view_hosts_views(const std::string& name);

}  // namespace app
