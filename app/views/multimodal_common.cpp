#include "views/multimodal_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "pe/base/errors.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {

// The config's own pairs per axis, padded to (t, h, w): a 2-axis axial config has no t.
std::vector<long long> config_sections(const pe::MultiAxisRope& m) {
  std::vector<long long> s = m.sections;
  while (s.size() < 3) s.insert(s.begin(), 0);
  return s;
}

long long sum(const std::vector<long long>& v) {
  long long n = 0;
  for (long long x : v) n += x;
  return n;
}

std::string model_name(const pe::RopeConfig& r) {
  if (!r.title.empty()) return r.title;
  return r.name.empty() ? "this config" : r.name;
}

}  // namespace

std::vector<long long> automatic_sections(long long pairs) {
  const long long t = pairs / 4;
  const long long h = (pairs - t) / 2;
  return {t, h, pairs - t - h};
}

std::string sections_text(const std::vector<long long>& sections) {
  std::string s = "[";
  for (std::size_t a = 0; a < sections.size(); ++a) s += (a ? ", " : "") + std::to_string(sections[a]);
  return s + "]";
}

MultimodalSetup multimodal_setup(const AppState& s, const Derived& d) {
  MultimodalSetup m;
  m.pairs = d.rope.inv_freq.size();
  const auto& multi = s.rope.multimodal.multi_axis;
  if (multi) {
    m.config_has_layout = true;
    m.config_scheme = multi->scheme;
    if (multi->scheme == pe::MultiAxisScheme::Vision2D) m.variant = multi->vision_variant;
  }
  m.scheme = m.config_scheme;
  if (s.scheme != "auto") {
    try {
      m.scheme = pe::multi_axis_scheme_from_string(s.scheme);
    } catch (const pe::InvalidArgument&) {
      // validate_state names it; the views keep drawing the config's scheme meanwhile.
    }
  }
  if (!s.sections.empty()) {
    try {
      require_sections_fit(s);
      m.sections = s.sections;
      m.sections_origin = "sections " + sections_text(s.sections) + " (set here)";
      return m;
    } catch (const pe::InvalidArgument& e) {
      m.sections_error = e.what();
    }
  }
  if (multi && multi->scheme != pe::MultiAxisScheme::Vision2D && sum(multi->sections) == m.pairs) {
    m.sections = config_sections(*multi);
    if (multi->scheme == pe::MultiAxisScheme::Ernie3D)  // written (h, w, t) in ERNIE's config
      m.sections_origin = "mrope_section " + sections_text({multi->sections[1], multi->sections[2], multi->sections[0]}) +
                          " (h, w, t) of " + model_name(s.rope) + " = t, h, w " + sections_text(multi->sections);
    else
      m.sections_origin = std::string(multi->scheme == pe::MultiAxisScheme::Axial ? "axes_dims_rope / 2 = " : "mrope_section ") +
                          sections_text(multi->sections) + " of " + model_name(s.rope);
    return m;
  }
  m.sections = automatic_sections(m.pairs);
  if (multi && multi->scheme != pe::MultiAxisScheme::Vision2D)
    m.sections_origin = "automatic " + sections_text(m.sections) + ": the config's " + sections_text(multi->sections) +
                        " is for " + std::to_string(sum(multi->sections)) + " pairs, d = " + std::to_string(s.rope.head_dim) +
                        " rotates " + std::to_string(m.pairs);
  else
    m.sections_origin = "automatic " + sections_text(m.sections) + " (" + model_name(s.rope) +
                        " has no mrope_section; Qwen2-VL's proportions, [16, 24, 24] of 64 pairs)";
  return m;
}

pe::MultiAxisLayout scheme_layout(pe::MultiAxisScheme scheme, const MultimodalSetup& m, const AppState& s, const Derived& d) {
  const auto& multi = s.rope.multimodal.multi_axis;
  // The config's own layout exactly as core builds it, when that is what is asked for.
  const bool own = m.config_has_layout && scheme == m.config_scheme &&
                   (scheme == pe::MultiAxisScheme::Vision2D || m.sections == config_sections(*multi));
  try {
    if (own && multi->scheme != pe::MultiAxisScheme::Vision2D) return pe::multi_axis_layout(s.rope, s.length);
    switch (scheme) {
      case pe::MultiAxisScheme::MRope:
      case pe::MultiAxisScheme::MRopeInterleaved: {
        pe::MultiAxisLayout l = pe::mrope_layout(d.rope.inv_freq, m.sections, scheme);
        l.convention = s.rope.convention;
        return l;
      }
      case pe::MultiAxisScheme::Ernie3D:  // adjacent pairs, whatever the configuration's convention
        return pe::mrope_layout(d.rope.inv_freq, m.sections, scheme);
      case pe::MultiAxisScheme::Vision2D:
        if (own && 2 * m.pairs == s.rope.head_dim) return pe::multi_axis_layout(s.rope, s.length);
        // A vision encoder's ladder over the rotating dims (its head_dim), with the config's θ.
        return pe::vision_2d_layout(m.variant, 2 * m.pairs, s.rope.theta);
      case pe::MultiAxisScheme::Axial: {
        std::vector<long long> dims;
        for (std::size_t a = 0; a < 3; ++a) {
          if (a == 0 && m.sections[0] == 0) continue;  // no t axis: a 2D axial grid
          if (m.sections[a] == 0)
            throw pe::InvalidArgument("sections", sections_text(m.sections),
                                      "axial RoPE gives every axis its own ladder: at least one pair on h and on w");
          dims.push_back(2 * m.sections[a]);
        }
        return pe::axial_layout(dims, s.rope.theta);
      }
    }
  } catch (const pe::InvalidArgument& e) {
    // Core names its own argument (head_dim); here the user's knob is d.
    if (e.parameter() == "head_dim") throw pe::InvalidArgument("dim", e.value(), e.allowed());
    throw;
  }
  throw pe::InvalidArgument("scheme", "unknown", "mrope, mrope-interleaved, vision-2d or axial");
}

const char* axis_name(int axis) { return axis == pe::kAxisT ? "t" : axis == pe::kAxisH ? "h" : "w"; }
const char* axis_role(int axis) { return axis == pe::kAxisT ? "time / text" : axis == pe::kAxisH ? "row" : "column"; }

ImU32 axis_color(int axis, int alpha) {
  // Okabe & Ito's colour-blind-safe palette: orange, blue, reddish purple.
  switch (axis) {
    case pe::kAxisT: return IM_COL32(230, 159, 0, alpha);
    case pe::kAxisH: return IM_COL32(40, 130, 215, alpha);
    default: return IM_COL32(204, 121, 167, alpha);
  }
}

const char* scheme_title(pe::MultiAxisScheme scheme) {
  switch (scheme) {
    case pe::MultiAxisScheme::MRope: return "M-RoPE, contiguous sections (Qwen2-VL, Qwen2.5-VL)";
    case pe::MultiAxisScheme::MRopeInterleaved: return "M-RoPE, interleaved (Qwen3-VL)";
    case pe::MultiAxisScheme::Vision2D: return "vision 2D (the vision encoders)";
    case pe::MultiAxisScheme::Axial: return "axial (FLUX, DiT)";
    case pe::MultiAxisScheme::Ernie3D: return "3D RoPE, h / w alternating, t slowest (ERNIE 4.5 VL)";
  }
  return "";
}

pe::MultiAxisScheme next_scheme(pe::MultiAxisScheme scheme, int delta) {
  const int n = int(std::size(kMultiAxisSchemes));
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (kMultiAxisSchemes[i] == scheme) k = i;
  return kMultiAxisSchemes[((k + delta) % n + n) % n];
}

pe::VectorChoice qk_choice(const std::string& qk) {
  if (qk == "identical") return pe::VectorChoice::Identical;
  if (qk == "random") return pe::VectorChoice::RandomPair;
  if (qk == "mean-random") return pe::VectorChoice::MeanOfRandomPairs;
  return pe::VectorChoice::MeanOfIdentical;
}

double wavelength(double inv_freq) { return 2.0 * std::numbers::pi / inv_freq; }

void fill_cells(const char* label, const std::vector<Cell>& cells, ImU32 color, bool in_legend) {
  // plot_shaded fills between consecutive samples and skips a step whose ends are not
  // finite: each cell is two samples, followed by a NaN one that breaks the band.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> xs, lo, hi;
  xs.reserve(cells.size() * 3);
  lo.reserve(cells.size() * 3);
  hi.reserve(cells.size() * 3);
  // A run of cells that touch (one's right edge is the next one's left, same rows) is one
  // quad: the same pixels, since two quads sharing an edge cover exactly the pixel centres
  // of their union, and a fraction of the triangles (mrope-layout's contiguous schemes at
  // d = 1024: 512 cells a strip -> 3; llvmpipe pays for each triangle's 4×4 blocks).
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const Cell& c = cells[k];
    double x1 = c[1];
    while (k + 1 < cells.size() && cells[k + 1][0] == x1 && cells[k + 1][2] == c[2] && cells[k + 1][3] == c[3]) x1 = cells[++k][1];
    xs.insert(xs.end(), {c[0], x1, x1});
    lo.insert(lo.end(), {c[2], c[2], nan});
    hi.insert(hi.end(), {c[3], c[3], nan});
  }
  plot::plot_shaded(label, xs, lo, hi, {.color = color, .in_legend = in_legend});
}

bool centred_label(double x, double y, const char* text, ImU32 color, float max_width_px) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  if (size.x > max_width_px) return false;
  const ImVec2 at = plot::to_pixels(x, y);
  const ImVec2 lo = plot::to_pixels(plot::visible_x_min(), plot::visible_y_min());
  const ImVec2 hi = plot::to_pixels(plot::visible_x_max(), plot::visible_y_max());
  const float x0 = std::min(lo.x, hi.x), x1 = std::max(lo.x, hi.x), y0 = std::min(lo.y, hi.y), y1 = std::max(lo.y, hi.y);
  if (at.x - size.x * 0.5f < x0 || at.x + size.x * 0.5f > x1 || at.y - size.y * 0.5f < y0 || at.y + size.y * 0.5f > y1)
    return false;
  const float s = plot::pixel_scale();
  plot::plot_text(x, y, text, color, {-size.x * 0.5f / s, -size.y * 0.5f / s});
  return true;
}

ImU32 text_color_on(ImU32 background) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(background);
  const float luminance = 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
  return luminance > 0.5f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

std::string fitting_note(const std::vector<std::string>& versions, float budget) {
  for (const std::string& v : versions)
    if (!v.empty() && teaching_note_height(v.c_str()) <= budget) return v;
  return "";
}

float plot_height_for(float data_lines) {
  // Title, tick labels and axis label take about 3.4 lines of the plot's height.
  return ImGui::GetTextLineHeightWithSpacing() * (3.4f + data_lines);
}

void error_text(const std::string& message) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
  text_wrapped_unformatted(message.c_str());
  ImGui::PopStyleColor();
}

bool plot_clicked() {
  if (!plot::is_plot_hovered() || !ImGui::IsMouseReleased(ImGuiMouseButton_Left)) return false;
  const float slop = 4.0f * plot::pixel_scale();
  return ImGui::GetIO().MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] <= slop * slop;
}

}  // namespace app
