// Transformer-XL's relative attention (Dai et al. 2019, §3.3; kimiyoung/transformer-xl
// mem_transformer.py): its sinusoid R of the distance (sines, then cosines; clamped at
// clamp_len) and the four terms (a) content, (b) content-dependent position, (c) global
// content bias u, (d) global position bias v, over the (query, key) pairs. Numbers from core
// (pe/relative/transformer_xl.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/encodings/sinusoidal.hpp"
#include "pe/relative/transformer_xl.hpp"
#include "views/colormap_choice.hpp"
#include "views/relative_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

constexpr long long kMapLength = 48;  // the seeded term maps: at most this many tokens
constexpr long long kMapDim = 64;     // ... of at most this head dimension (illustrative)
constexpr double kBase = 10000.0;     // Transformer-XL's PositionalEmbedding: 1 / 10000^(2k/D)

struct XlData {
  long long n = 0, dim = 0, clamp = 0;
  pe::TransformerXlMaps maps;
  std::vector<float> values[4];  // a … d, masked (j > i) as NaN
  double vmax = 1;
  unsigned long long version = 0;
};

long long map_dim(const AppState& s) { return std::max<long long>(2, std::min(s.rope.head_dim, kMapDim) / 2 * 2); }

std::shared_ptr<const XlData> compute(const AppState& s) {
  static unsigned long long next_version = 0;
  auto d = std::make_shared<XlData>();
  d->version = ++next_version;
  d->n = std::min(s.length, kMapLength);
  d->dim = map_dim(s);
  d->clamp = s.clamp_len;
  d->maps = pe::transformer_xl_term_maps(d->n, d->dim, d->clamp, s.seed);
  const pe::TableD* tables[4] = {&d->maps.a, &d->maps.b, &d->maps.c, &d->maps.d};
  double m = 0;
  for (int t = 0; t < 4; ++t) {
    d->values[t].resize(std::size_t(d->n * d->n));
    for (long long i = 0; i < d->n; ++i)
      for (long long j = 0; j < d->n; ++j) {
        const double v = (*tables[t])(i, j);
        d->values[t][std::size_t(i * d->n + j)] = j > i ? std::numeric_limits<float>::quiet_NaN() : float(v);
        if (j <= i) m = std::max(m, std::abs(v));
      }
  }
  d->vmax = std::max(m, 1e-12);
  return d;
}

const XlData& data_for(const AppState& s) {
  static std::shared_ptr<const XlData> cached;
  static std::string key;
  const std::string k = std::to_string(s.length) + "|" + std::to_string(map_dim(s)) + "|" + std::to_string(s.clamp_len) + "|" +
                        std::to_string(s.seed);
  if (!cached || k != key) {
    cached = compute(s);
    key = k;
  }
  return *cached;
}

// R over distances 0 … L − 1 on the GPU (per-pixel means at any L): sines in rows 0 … D/2 − 1,
// cosines below; past clamp_len every distance reads R_clamp_len, drawn as one flat band.
void draw_r(const AppState& s, ImVec2 size) {
  const long long dim = s.rope.head_dim, pairs = dim / 2, length = s.length;
  static std::vector<float> freq_f;
  static long long freq_dim = 0;
  if (freq_dim != dim) {
    const Eigen::ArrayXd f = pe::sinusoidal_frequencies(dim, kBase);
    freq_f.assign(f.data(), f.data() + f.size());
    freq_dim = dim;
  }
  const long long clamp = s.clamp_len > 0 ? std::min(s.clamp_len, length - 1) : length - 1;
  const float bar_w = plot::colorbar_width("R", -1.0, 1.0);
  const std::string title = s.clamp_len > 0 ? formatted("R of the distance (clamped at %lld)", s.clamp_len) : std::string("R of the distance");
  if (plot::begin_plot("##xl-r", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "distance i − j", .min = -0.5, .max = double(length) - 0.5},
                     {.label = "sin | cos dims", .min = -0.5, .max = double(dim) - 0.5, .format = "%.0f"});
    plot::plot_encoding_heatmap("sin", {.function = plot::EncodingFunction::RopeSin, .frequencies = freq_f, .rows = int(pairs), .x0 = 0,
                                        .x1 = double(clamp), .y0 = 0, .y1 = double(pairs - 1), .colormap = to_plot(s.colormap),
                                        .pixel_mean = s.pixel_mean});
    plot::plot_encoding_heatmap("cos", {.function = plot::EncodingFunction::RopeCos, .frequencies = freq_f, .rows = int(pairs), .x0 = 0,
                                        .x1 = double(clamp), .y0 = double(pairs), .y1 = double(dim - 1), .colormap = to_plot(s.colormap),
                                        .pixel_mean = s.pixel_mean});
    if (clamp < length - 1) {
      static std::vector<float> flat;
      static unsigned long long flat_version = 0;
      static std::string flat_key;
      const std::string key = std::to_string(dim) + "|" + std::to_string(clamp);
      if (key != flat_key) {
        const Eigen::VectorXd r = pe::transformer_xl_r(clamp, dim);
        flat.assign(std::size_t(dim), 0.0f);
        for (long long c = 0; c < dim; ++c) flat[std::size_t(c)] = float(r[c]);
        flat_key = key;
        ++flat_version;
      }
      plot::plot_value_heatmap("clamped", {.values = flat, .rows = int(dim), .columns = 1, .x0 = double(clamp) + 0.5,
                                           .x1 = double(length) - 0.5, .y0 = -0.5, .y1 = double(dim) - 0.5,
                                           .colormap = to_plot(s.colormap), .vmin = -1.0, .vmax = 1.0, .version = flat_version});
      plot::plot_vline("clamp_len", double(clamp) + 0.5, {.color = kTrainingColor, .thickness = 2.0f});
    }
    if (plot::is_plot_hovered()) {
      const long long n = std::clamp<long long>(std::llround(plot::mouse_x()), 0, length - 1);
      const long long c = std::clamp<long long>(std::llround(plot::mouse_y()), 0, dim - 1);
      const Eigen::VectorXd r = pe::transformer_xl_r(n, dim, s.clamp_len);
      plot::hover_text("distance %lld, dim %lld = %s(%lld·f_%lld): R = %.6g", n, c, c < pairs ? "sin" : "cos",
                       s.clamp_len > 0 ? std::min(n, s.clamp_len) : n, c % pairs, r[c]);
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("R", -1.0, 1.0, to_plot(s.colormap), {bar_w, size.y});
}

const char* const kTermNames[4] = {"(a) q·k content", "(b) q·r content–position", "(c) u·k global content", "(d) v·r global position"};

void draw_query_terms(const AppState& s, const XlData& d, ImVec2 size) {
  const long long i = std::clamp<long long>(s.position, 0, d.n - 1);
  const std::string title = formatted("Terms of query %lld against distance (÷√%lld)", i, d.dim);
  if (plot::begin_plot("##xl-terms", size, {.title = title.c_str()})) {
    plot::setup_axes({.label = "distance i − j", .min = -0.5, .max = double(std::max<long long>(i, 1)) + 0.5}, {.label = "term"});
    std::vector<double> xs(std::size_t(i + 1));
    for (long long k = 0; k <= i; ++k) xs[std::size_t(k)] = double(k);
    const pe::TableD* tables[4] = {&d.maps.a, &d.maps.b, &d.maps.c, &d.maps.d};
    for (int t = 0; t < 4; ++t) {
      std::vector<double> ys(std::size_t(i + 1));
      for (long long k = 0; k <= i; ++k) ys[std::size_t(k)] = (*tables[t])(i, i - k);
      plot::plot_line(kTermNames[t], xs, ys, {.thickness = t == 3 ? 2.5f : 1.5f, .markers = i < 16});
    }
    if (plot::is_plot_hovered()) {
      const long long k = std::clamp<long long>(std::llround(plot::mouse_x()), 0, i);
      const long long j = i - k;
      plot::hover_text("key %lld (distance %lld): a %.6g, b %.6g, c %.6g, d %.6g; logit %.6g", j, k, d.maps.a(i, j), d.maps.b(i, j),
                       d.maps.c(i, j), d.maps.d(i, j), d.maps.a(i, j) + d.maps.b(i, j) + d.maps.c(i, j) + d.maps.d(i, j));
    }
    plot::end_plot();
  }
}

void draw_maps(const XlData& d, ImVec2 size, bool two_by_two) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float bar_w = plot::colorbar_width("term", -d.vmax, d.vmax);
  // Four in a row; two by two on a phone (each map twice as wide, the rows as tall as the row was).
  const int per_row = two_by_two ? 2 : 4;
  const float w = (size.x - bar_w - float(per_row) * spacing) / float(per_row);
  const double n = double(d.n);
  const pe::TableD* tables[4] = {&d.maps.a, &d.maps.b, &d.maps.c, &d.maps.d};
  const char* short_names[4] = {"(a) q·k", "(b) q·r", "(c) u·k", "(d) v·r"};
  for (int t = 0; t < 4; ++t) {
    if (t % per_row != 0) ImGui::SameLine();
    const std::string id = "##xl-map-" + std::to_string(t);
    if (plot::begin_plot(id.c_str(), {w, size.y}, {.title = short_names[t], .legend = false})) {
      plot::setup_axes({.label = "key j", .min = -0.5, .max = n - 0.5, .format = "%.0f"},
                       {.label = "query i", .min = -0.5, .max = n - 0.5, .invert = true, .format = "%.0f"});
      plot::plot_value_heatmap(short_names[t], {.values = d.values[t], .rows = int(d.n), .columns = int(d.n), .x0 = -0.5, .x1 = n - 0.5,
                                                .y0 = -0.5, .y1 = n - 0.5, .colormap = plot::Colormap::RdBu, .vmin = -d.vmax,
                                                .vmax = d.vmax, .version = d.version * 4 + unsigned(t), .y_down = true});
      if (plot::is_plot_hovered()) {
        const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, d.n - 1);
        const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, d.n - 1);
        if (j <= i) plot::hover_text("%s, query %lld, key %lld: %.6g", kTermNames[t], i, j, (*tables[t])(i, j));
        else plot::hover_text("query %lld, key %lld: masked (a later key)", i, j);
      }
      plot::end_plot();
    }
    if (t == per_row - 1) {  // the colour bar ends the first row
      ImGui::SameLine();
      plot::colorbar("term", -d.vmax, d.vmax, plot::Colormap::RdBu, {bar_w, size.y});
    }
  }
}

}  // namespace

void draw_transformer_xl_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  if (show_relative_error(s)) return;
  const XlData& d = data_for(s);
  const char* const note =
      "Position enters only through R of the distance i − j: (b) and (d) depend on it, (a) and (c) do not. (c) is one number per key "
      "(columns), (d) one per distance (diagonals). Maps: seeded q, k, u, v, W_R — not trained.";
  const float note_h = teaching_note_height(note);
  constexpr float kWeights[] = {0.5f, 0.5f};
  constexpr bool kTitled[] = {true, true};
  const std::vector<float> h = stacked_plot_heights(ImGui::GetContentRegionAvail().y - note_h, kWeights, kTitled);
  const PlotColumns columns = plot_columns(ctx, 0.5f);  // stacked on a phone
  const float left_w = columns.left_w, right_w = columns.right_w;
  draw_r(s, {left_w, h[0]});
  columns.next();
  draw_query_terms(s, d, {right_w, h[0]});
  draw_maps(d, {ctx.size.x, h[1]}, columns.stacked);
  teaching_note(note);
}

namespace {

std::string transformer_xl_csv(const AppState& s, const Derived&) {
  if (const std::string e = relative_error(s); !e.empty()) throw std::runtime_error(e);
  const XlData& d = data_for(s);
  std::ostringstream out;
  out << "# seeded (illustrative) q, k, u, v, W_R; d_head " << d.dim << ", clamp_len " << s.clamp_len << "; each term over sqrt(d)\n";
  out << "query,key,distance,a,b,c,d,logit\n";
  for (long long i = 0; i < d.n; ++i)
    for (long long j = 0; j <= i; ++j) {
      const double a = d.maps.a(i, j), b = d.maps.b(i, j), c = d.maps.c(i, j), v = d.maps.d(i, j);
      out << i << ',' << j << ',' << i - j << ',' << csv_number(a) << ',' << csv_number(b) << ',' << csv_number(c) << ','
          << csv_number(v) << ',' << csv_number(a + b + c + v) << "\n";
    }
  return out.str();
}

std::vector<std::string> transformer_xl_formula(const AppState& s, const Derived&) {
  const std::string general = "score = [q·k + q·W_R R(i−j) + u·k + v·W_R R(i−j)] / √d;  R(n) = [sin(n f_k) …, cos(n f_k) …], "
                              "f_k = 10000^(−2k/d), n clamped at clamp_len";
  if (const std::string e = relative_error(s); !e.empty()) return {general, e};
  const XlData& d = data_for(s);
  const long long i = std::clamp<long long>(s.position, 0, d.n - 1);
  return {general, formatted("query %lld, key 0 (d = %lld, seeded):  (a) %.4g + (b) %.4g + (c) %.4g + (d) %.4g = %.4g", i, d.dim,
                             d.maps.a(i, 0), d.maps.b(i, 0), d.maps.c(i, 0), d.maps.d(i, 0),
                             d.maps.a(i, 0) + d.maps.b(i, 0) + d.maps.c(i, 0) + d.maps.d(i, 0))};
}

constexpr const char* kAnimatable[] = {"clamp_len", "length", "position", "dim", "seed"};
constexpr const char* kPanel[] = {"clamp_len"};

}  // namespace

const ViewInfo& transformer_xl_view() {
  static const ViewInfo info{
      .name = "transformer-xl",
      .title = "Transformer-XL",
      .summary = "Transformer-XL's sinusoid R of the distance and its four terms (a)-(d) with u and v",
      .group = "Bias",
      .draw = draw_transformer_xl_view,
      .csv = transformer_xl_csv,
      .formula = transformer_xl_formula,
      .animatable = kAnimatable,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
