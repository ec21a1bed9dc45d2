#pragma once
#include "plot/plot.hpp"
#include "state/app_state.hpp"

namespace app {
inline plot::Colormap to_plot(ColormapChoice c) {
  switch (c) {
    case ColormapChoice::Viridis: return plot::Colormap::Viridis;
    case ColormapChoice::Cividis: return plot::Colormap::Cividis;
    case ColormapChoice::RdBu: break;
  }
  return plot::Colormap::RdBu;
}
}  // namespace app
