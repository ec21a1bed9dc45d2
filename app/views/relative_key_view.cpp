// Learned relative position embeddings as BERT implements them (transformers'
// BertSelfAttention with position_embedding_type relative_key — Shaw et al. 2018 — or
// relative_key_query — Huang et al. 2020): the distance_embedding row each (query, key) pair
// reads, what clipping the distance does to that row, and what the embedding adds to the
// score. Numbers from core (pe/relative/relative_keys.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/relative/relative_keys.hpp"
#include "state/relative_params.hpp"
#include "views/relative_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

constexpr long long kMapCells = 512;  // the row map: at most this many cells a side
constexpr long long kTermLength = 64;  // the seeded score maps: at most this many tokens
constexpr long long kTermDim = 64;     // ... of at most this head dimension

// Tokens BERT can take: its table has rows for distances up to P − 1 only.
long long readable_length(const AppState& s) { return std::min(s.length, s.max_position_embeddings); }

struct KeyData {
  long long n = 0, p = 0, cells = 0, term_n = 0, dim = 0;
  std::vector<long long> positions;
  std::vector<float> rows;       // cells × cells distance_embedding rows
  pe::RelativeKeyMaps maps;
  std::vector<float> relative;   // (query_term + key_term), term_n × term_n
  double relative_max = 1;
  unsigned long long version = 0;
};

std::shared_ptr<const KeyData> compute(const AppState& s) {
  static unsigned long long next_version = 0;
  auto d = std::make_shared<KeyData>();
  d->version = ++next_version;
  d->p = s.max_position_embeddings;
  d->n = readable_length(s);
  d->positions = cell_positions(d->n, kMapCells);
  d->cells = static_cast<long long>(d->positions.size());
  d->rows.resize(std::size_t(d->cells * d->cells));
  if (d->n <= kMapCells) {
    const pe::BucketTable r = pe::bert_distance_rows(d->n, d->p);
    for (long long i = 0; i < d->n; ++i)
      for (long long j = 0; j < d->n; ++j) d->rows[std::size_t(i * d->n + j)] = float(r(i, j));
  } else {
    for (long long a = 0; a < d->cells; ++a)
      for (long long b = 0; b < d->cells; ++b)
        d->rows[std::size_t(a * d->cells + b)] =
            float(pe::bert_distance_row(d->positions[std::size_t(a)], d->positions[std::size_t(b)], d->p));
  }
  d->term_n = std::min(d->n, kTermLength);
  d->dim = std::min(s.rope.head_dim, kTermDim);
  d->maps = pe::relative_key_term_maps(d->term_n, d->dim, d->p, pe::relative_key_type_from_string(s.position_embedding_type), s.seed);
  const pe::TableD rel = d->maps.query_term + d->maps.key_term;
  d->relative.assign(rel.data(), rel.data() + rel.size());
  d->relative_max = std::max(1e-12, rel.abs().maxCoeff());
  return d;
}

const KeyData& data_for(const AppState& s) {
  static std::shared_ptr<const KeyData> cached;
  static std::string key;
  const std::string k = std::to_string(s.max_position_embeddings) + "|" + std::to_string(s.length) + "|" + s.position_embedding_type +
                        "|" + std::to_string(s.rope.head_dim) + "|" + std::to_string(s.seed);
  if (!cached || k != key) {
    cached = compute(s);
    key = k;
  }
  return *cached;
}

void draw_row_map(const KeyData& d, ImVec2 size) {
  const double n = double(d.n), top = double(2 * d.p - 2);
  const float bar_w = plot::colorbar_width("row", 0.0, top);
  const std::string title = d.n <= kMapCells ? "distance_embedding row of (i, j)" : "Row of (i, j), sampled: " + std::to_string(d.cells) + "² cells";
  if (plot::begin_plot("##relkey-map", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "key j", .min = -0.5, .max = n - 0.5}, {.label = "query i", .min = -0.5, .max = n - 0.5, .invert = true});
    plot::plot_value_heatmap("row", {.values = d.rows, .rows = int(d.cells), .columns = int(d.cells), .x0 = -0.5, .x1 = n - 0.5, .y0 = -0.5,
                                     .y1 = n - 0.5, .colormap = plot::Colormap::Viridis, .vmin = 0.0, .vmax = std::max(top, 1.0),
                                     .version = d.version, .y_down = true});
    if (plot::is_plot_hovered()) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, d.n - 1);
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, d.n - 1);
      plot::hover_text("query %lld, key %lld: distance i − j = %lld → row %lld of %lld", i, j, i - j, pe::bert_distance_row(i, j, d.p),
                       2 * d.p - 1);
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("row", 0.0, std::max(top, 1.0), plot::Colormap::Viridis, {bar_w, size.y});
}

void draw_row_curve(const AppState& s, const KeyData& d, ImVec2 size) {
  const double last = double(d.p - 1);
  const double reach = std::max(double(std::max<long long>(s.length - 1, 1)), last * 1.5);
  if (plot::begin_plot("##relkey-rows", size, {.title = "Row read at distance i − j (red: no row)"})) {
    plot::setup_axes({.label = "distance query − key", .min = -reach, .max = reach}, {.label = "embedding row"});
    plot::plot_xband("##below", -reach * 4, -last - 0.5, IM_COL32(220, 80, 70, 60));
    plot::plot_xband("##above", last + 0.5, reach * 4, IM_COL32(220, 80, 70, 60));
    // BERT: one row per distance, none past ±(P − 1) (an index error in transformers).
    plot::plot_function("BERT: row = (i − j) + P − 1", [&](double x) {
      const double r = std::round(x);
      return std::abs(r) <= last ? r + last : std::numeric_limits<double>::quiet_NaN();
    }, {.thickness = 2.5f});
    // Shaw et al.: clip(key − query) to ±k and share the edge rows (k = P − 1 here).
    plot::plot_function("Shaw et al.: clipped to ±(P − 1), edge rows shared", [&](double x) {
      const long long r = std::llround(x);
      const long long clipped = pe::shaw_clipped_distance(std::max(r, 0LL), std::max(-r, 0LL), d.p - 1);  // clip(key − query)
      return double(-clipped) + last;  // in BERT's row layout: (query − key) + P − 1
    }, {.thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered()) {
      const long long r = std::llround(plot::mouse_x());
      if (std::llabs(r) <= d.p - 1) plot::hover_text("distance %lld → row %lld (of %lld)", r, r + d.p - 1, 2 * d.p - 1);
      else plot::hover_text("distance %lld: BERT has no row (IndexError); clipped, it reads row %lld", r, r < 0 ? 0LL : 2 * d.p - 2);
    }
    plot::end_plot();
  }
}

void draw_terms(const AppState& s, const KeyData& d, ImVec2 size) {
  const long long i = std::clamp<long long>(s.position, 0, d.term_n - 1);
  const std::string title = formatted("Score of query %lld, split (÷√%lld)", i, d.dim);
  if (plot::begin_plot("##relkey-terms", size, {.title = title.c_str()})) {
    plot::setup_axes({.label = "key j", .min = -0.5, .max = double(d.term_n) - 0.5}, {.label = "term"});
    const std::vector<double> xs = index_axis(d.term_n);
    auto row = [&](const pe::TableD& t) {
      std::vector<double> v(std::size_t(d.term_n));
      for (long long j = 0; j < d.term_n; ++j) v[std::size_t(j)] = t(i, j);
      return v;
    };
    plot::plot_line("q·k (content)", xs, row(d.maps.content), {.thickness = 2.0f});
    plot::plot_line("q·e (both types)", xs, row(d.maps.query_term), {.thickness = 1.5f});
    if (d.maps.type == pe::RelativeKeyType::RelativeKeyQuery) plot::plot_line("k·e (relative_key_query)", xs, row(d.maps.key_term), {.thickness = 1.5f});
    if (plot::is_plot_hovered()) {
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, d.term_n - 1);
      const auto& m = d.maps;
      plot::hover_text("key %lld (row %lld): q·k %.6g, q·e %.6g, k·e %.6g; logit %.6g", j, pe::bert_distance_row(i, j, d.p), m.content(i, j),
                       m.query_term(i, j), m.key_term(i, j), m.content(i, j) + m.query_term(i, j) + m.key_term(i, j));
    }
    plot::end_plot();
  }
}

void draw_relative_map(const KeyData& d, ImVec2 size) {
  const float bar_w = plot::colorbar_width("added", -d.relative_max, d.relative_max);
  const double n = double(d.term_n);
  const char* title = d.maps.type == pe::RelativeKeyType::RelativeKey ? "What it adds: q·e / √d" : "What it adds: (q·e + k·e) / √d";
  if (plot::begin_plot("##relkey-added", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title, .legend = false})) {
    plot::setup_axes({.label = "key j", .min = -0.5, .max = n - 0.5}, {.label = "query i", .min = -0.5, .max = n - 0.5, .invert = true});
    plot::plot_value_heatmap("added", {.values = d.relative, .rows = int(d.term_n), .columns = int(d.term_n), .x0 = -0.5, .x1 = n - 0.5,
                                       .y0 = -0.5, .y1 = n - 0.5, .colormap = plot::Colormap::RdBu, .vmin = -d.relative_max,
                                       .vmax = d.relative_max, .version = d.version, .y_down = true});
    if (plot::is_plot_hovered()) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, d.term_n - 1);
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, d.term_n - 1);
      plot::hover_text("query %lld, key %lld (distance %lld): adds %.6g", i, j, i - j, d.maps.query_term(i, j) + d.maps.key_term(i, j));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("added", -d.relative_max, d.relative_max, plot::Colormap::RdBu, {bar_w, size.y});
}

}  // namespace

void draw_relative_key_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  if (ctx.show_widgets()) {
    ImGui::SetNextItemWidth(200.0f * plot::pixel_scale());
    if (ImGui::BeginCombo("position_embedding_type", s.position_embedding_type.c_str())) {
      for (const char* t : {"relative_key", "relative_key_query"})
        if (ImGui::Selectable(t, s.position_embedding_type == t)) s.position_embedding_type = t;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("position_embedding_type = %s: relative_key adds q·e (Shaw et al. 2018); relative_key_query adds q·e + k·e "
                        "(Huang et al. 2020).", s.position_embedding_type.c_str());
  }
  if (show_relative_error(s)) return;
  const KeyData& d = data_for(s);
  const std::string note = std::string("One learned row per distance, added through q (and k): the score depends on i − j, but only "
                           "for distances the table has — BERT stops at P − 1, Shaw et al. clip farther ones to the edge row.") +
                           (s.length > d.p ? formatted(" L = %lld > P = %lld: BERT cannot read this input; the maps show its first %lld tokens.",
                                                       s.length, d.p, d.p)
                                           : std::string()) +
                           " Score terms: seeded vectors, not trained.";
  const float note_h = teaching_note_height(note.c_str());
  constexpr float kWeights[] = {0.5f, 0.5f};
  constexpr bool kTitled[] = {true, true};
  const std::vector<float> h = stacked_plot_heights(ImGui::GetContentRegionAvail().y - note_h, kWeights, kTitled);
  const PlotColumns columns = plot_columns(ctx, 0.55f);  // stacked on a phone
  const float left_w = columns.left_w, right_w = columns.right_w;
  draw_row_curve(s, d, {left_w, h[0]});
  columns.next();
  draw_row_map(d, {right_w, h[0]});
  draw_terms(s, d, {left_w, h[1]});
  columns.next();
  draw_relative_map(d, {right_w, h[1]});
  teaching_note(note.c_str());
}

namespace {

std::string relative_key_csv(const AppState& s, const Derived&) {
  if (const std::string e = relative_error(s); !e.empty()) throw std::runtime_error(e);
  const long long p = s.max_position_embeddings, n = readable_length(s);
  std::ostringstream out;
  out << "# max_position_embeddings " << p << "; distance = query - key; row = distance + P - 1 (BERT); "
      << "shaw_row = clip(key - query, -(P - 1), P - 1) + P - 1 read as BERT's layout\n";
  if (s.length > p) out << "# length " << s.length << " > P: BERT refuses longer inputs; distances of the first " << p << " tokens\n";
  const long long count = 2 * n - 1;
  std::vector<long long> rows;
  if (count <= kMaxCsvRows) {
    for (long long k = 0; k < count; ++k) rows.push_back(k - (n - 1));
  } else {
    out << "# " << count << " distances, " << kMaxCsvRows << " evenly spaced shown\n";
    for (long long k = 0; k < kMaxCsvRows; ++k) rows.push_back(-(n - 1) + (long long)std::llround(double(k) * double(count - 1) / double(kMaxCsvRows - 1)));
  }
  out << "distance,row\n";
  for (long long r : rows) {
    const long long query = r >= 0 ? r : 0, key = r >= 0 ? 0 : -r;
    out << r << ',' << pe::bert_distance_row(query, key, p) << "\n";
  }
  return out.str();
}

std::vector<std::string> relative_key_formula(const AppState& s, const Derived&) {
  const std::string general = "logit = (q·k + q·e[i − j + P − 1] (+ k·e[i − j + P − 1] for relative_key_query)) / √d;  e: 2P − 1 rows";
  if (const std::string e = relative_error(s); !e.empty()) return {general, e};
  const long long p = s.max_position_embeddings, i = std::min(s.position, readable_length(s) - 1);
  return {general, formatted("%s, P = %lld (%lld rows):  query %lld, key 0 → distance %lld → row %lld", s.position_embedding_type.c_str(), p,
                             2 * p - 1, i, i, pe::bert_distance_row(i, 0, p))};
}

constexpr const char* kAnimatable[] = {"max_position_embeddings", "length", "position", "dim", "seed"};
constexpr const char* kPanel[] = {"max_position_embeddings", "position_embedding_type"};

}  // namespace

const ViewInfo& relative_key_view() {
  static const ViewInfo info{
      .name = "relative-key",
      .title = "Relative key",
      .summary = "BERT's relative_key / relative_key_query (Shaw, Huang): the embedding row of each distance and what it adds",
      .group = "Bias",
      .draw = draw_relative_key_view,
      .csv = relative_key_csv,
      .formula = relative_key_formula,
      .animatable = kAnimatable,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
