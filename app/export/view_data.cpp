#include "export/view_data.hpp"

#include <stdexcept>

#include "pe/base/errors.hpp"
#include "views/view.hpp"

namespace app {

std::string view_csv(const std::string& view, const AppState& s, const Derived& d) {
  const ViewInfo* info = find_view(view);
  if (!info) throw pe::InvalidArgument("view", view, "a view with data (see pe-viz --list-views)");
  if (!d.error.empty()) throw std::runtime_error(d.error);
  return info->csv(s, d);
}

}  // namespace app
