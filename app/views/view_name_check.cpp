// The registry answers state's question (state/view_names.hpp), so state never includes
// views/ and the names live in one place (view_registry.cpp).
#include "state/view_names.hpp"
#include "views/view.hpp"

namespace app {

bool is_view_name(const std::string& name) { return find_view(name) != nullptr; }

bool view_hosts_views(const std::string& name) {
  const ViewInfo* v = find_view(name);
  return v && v->hosts_views;
}

}  // namespace app
