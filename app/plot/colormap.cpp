#include "colormap.hpp"

#include <algorithm>
#include <cmath>

namespace plot {
namespace {

constexpr Rgb hex(unsigned rgb) {
  return {static_cast<float>((rgb >> 16) & 0xff) / 255.0f, static_cast<float>((rgb >> 8) & 0xff) / 255.0f,
          static_cast<float>(rgb & 0xff) / 255.0f};
}

constexpr std::array<Rgb, 11> kRdBu = {hex(0x67001f), hex(0xb2182b), hex(0xd6604d), hex(0xf4a582),
                                      hex(0xfddbc7), hex(0xf7f7f7), hex(0xd1e5f0), hex(0x92c5de),
                                      hex(0x4393c3), hex(0x2166ac), hex(0x053061)};

constexpr std::array<Rgb, 16> kViridis = {
    hex(0x440154), hex(0x481A6C), hex(0x472F7D), hex(0x414487), hex(0x39568C), hex(0x31688E),
    hex(0x2A788E), hex(0x23888E), hex(0x1F988B), hex(0x22A884), hex(0x35B779), hex(0x54C568),
    hex(0x7AD151), hex(0xA5DB36), hex(0xD2E21B), hex(0xFDE725)};

constexpr std::array<Rgb, 16> kCividis = {
    hex(0x00204D), hex(0x002C6A), hex(0x0F386E), hex(0x31446B), hex(0x46506B), hex(0x575C6D),
    hex(0x666970), hex(0x757575), hex(0x848279), hex(0x958F78), hex(0xA69D75), hex(0xB8AB70),
    hex(0xCBBA69), hex(0xDDC95F), hex(0xF1D951), hex(0xFFEA46)};

static_assert(kViridis.size() <= kMaxColormapPoints && kCividis.size() <= kMaxColormapPoints);

}  // namespace

const char* to_string(Colormap c) {
  switch (c) {
    case Colormap::RdBu: return "RdBu";
    case Colormap::Viridis: return "viridis";
    case Colormap::Cividis: return "cividis";
  }
  return "?";
}

std::span<const Rgb> colormap_table(Colormap c) {
  switch (c) {
    case Colormap::RdBu: return kRdBu;
    case Colormap::Viridis: return kViridis;
    case Colormap::Cividis: return kCividis;
  }
  return kViridis;
}

std::array<unsigned, kMaxColormapPoints> colormap_packed_rgb(Colormap c) {
  std::array<unsigned, kMaxColormapPoints> packed{};
  const auto table = colormap_table(c);
  auto byte = [](float v) { return static_cast<unsigned>(std::lround(v * 255.0f)); };  // v is k / 255: exact
  for (std::size_t i = 0; i < table.size(); ++i) packed[i] = byte(table[i][0]) << 16 | byte(table[i][1]) << 8 | byte(table[i][2]);
  return packed;
}

double colormap_position(double v, double vmin, double vmax) {
  if (!(vmax > vmin)) return 0.5;
  return (v - vmin) / (vmax - vmin);
}

Rgb colormap_rgb(Colormap c, double t) {
  const auto table = colormap_table(c);
  if (std::isnan(t)) t = 0.5;
  t = std::clamp(t, 0.0, 1.0);
  // Same arithmetic as the shader's colormap(): segment index then linear blend.
  const double x = t * static_cast<double>(table.size() - 1);
  const size_t i = std::min(static_cast<size_t>(x), table.size() - 2);
  const double f = x - static_cast<double>(i);
  Rgb out{};
  for (int k = 0; k < 3; ++k) out[k] = static_cast<float>(table[i][k] + (table[i + 1][k] - table[i][k]) * f);
  return out;
}

ImU32 colormap_color(Colormap c, double t) {
  const Rgb rgb = colormap_rgb(c, t);
  auto byte = [](float v) { return static_cast<ImU32>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return IM_COL32(byte(rgb[0]), byte(rgb[1]), byte(rgb[2]), 255);
}

}  // namespace plot
