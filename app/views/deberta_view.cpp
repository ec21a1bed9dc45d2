// DeBERTa-v2/v3's disentangled attention (He et al. 2021; transformers' modeling_deberta_v2.py):
// its log buckets of query − key (make_log_bucket_position), the bucket of every pair, and
// which share of the score depends on position — c2c + c2p + p2c over √(3d), by
// pos_att_type. Numbers from core (pe/relative/deberta*.hpp).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/relative/deberta.hpp"
#include "pe/relative/deberta_score.hpp"
#include "state/relative_params.hpp"
#include "views/async_value.hpp"
#include "views/relative_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

constexpr long long kMapCells = 512;   // the bucket map: at most this many cells a side
constexpr long long kScoreLength = 64;  // the seeded score maps: at most this many tokens
constexpr long long kScoreDim = 64;     // ... of at most this head dimension (they are illustrative)

// A bucket from core's bucket starts (deberta_bucket_edges): exact, and a binary search
// instead of a float32 log per cell. Odd in the relative position, as the reference.
class BucketLookup {
 public:
  BucketLookup() = default;
  BucketLookup(std::vector<pe::DebertaBucketEdge> edges, long long clamp) : edges_(std::move(edges)), clamp_(clamp) {}
  long long operator()(long long relative_position) const {
    const long long a = std::min(std::abs(relative_position), clamp_);
    auto it = std::upper_bound(edges_.begin(), edges_.end(), a,
                               [](long long v, const pe::DebertaBucketEdge& e) { return v < e.first_distance; });
    const long long b = it == edges_.begin() ? 0 : std::prev(it)->bucket;
    return relative_position < 0 ? -b : b;
  }

 private:
  std::vector<pe::DebertaBucketEdge> edges_;
  long long clamp_ = 0;
};

struct DebertaData {
  pe::DebertaPositionParams params;
  long long n = 0, cells = 0, max_position = 0, mid = 0;
  long long reach = 0;  // the bucket curve's |query − key| range: past max_position, where the references part
  BucketLookup transformers, microsoft;
  std::vector<long long> positions;
  std::vector<float> map;  // cells × cells buckets of i − j
  double bucket_max = 1;
  unsigned long long version = 0;
};

std::shared_ptr<const DebertaData> compute_buckets(const AppState& s) {
  static unsigned long long next_version = 0;
  auto d = std::make_shared<DebertaData>();
  d->params = deberta_params(s);
  d->n = s.length;
  d->version = ++next_version;
  d->max_position = pe::deberta_max_position(d->params);
  d->mid = d->params.position_buckets / 2;
  d->reach = std::min<long long>(std::max<long long>(d->n - 1, d->max_position + d->max_position / 2), 1'000'000'000LL);
  const long long reach = d->reach;
  d->transformers = BucketLookup(pe::deberta_bucket_edges(d->params, reach), reach);
  // microsoft/DeBERTa clamps |r| to max_position − 1 before its table: same buckets up to there.
  const long long ms_reach = std::min(reach, d->max_position - 1);
  d->microsoft = BucketLookup(pe::deberta_bucket_edges(d->params, ms_reach, pe::DebertaReference::Microsoft), ms_reach);
  d->positions = cell_positions(d->n, kMapCells);
  d->cells = static_cast<long long>(d->positions.size());
  // DeBERTa's relative position is query − key.
  d->map = bucket_cells(
      d->n, d->positions, [&] { return pe::deberta_bucket_matrix(d->n, d->params); },
      [&](long long query, long long key) { return d->transformers(query - key); });
  d->bucket_max = std::max(1.0, double(d->transformers(std::max<long long>(d->n - 1, 1))));
  return d;
}

const DebertaData& buckets_for(const AppState& s) {
  static std::shared_ptr<const DebertaData> cached;
  static std::string key;
  const std::string k = std::to_string(s.position_buckets) + "|" + std::to_string(s.max_relative_positions) + "|" +
                        std::to_string(s.max_position_embeddings) + "|" + std::to_string(s.length);
  if (!cached || k != key) {
    cached = compute_buckets(s);
    key = k;
  }
  return *cached;
}

struct ScoreData {
  pe::DebertaScoreMaps maps;
  std::vector<float> share;  // position_share, row-major
  long long n = 0, dim = 0;
  double mean_share = 0;
  std::string error;
  unsigned long long version = 0;
};

long long score_length(const AppState& s) { return std::min(s.length, kScoreLength); }
long long score_dim(const AppState& s) { return std::min(s.rope.head_dim, kScoreDim); }

std::shared_ptr<const ScoreData> compute_scores(const pe::DebertaPositionParams& params, pe::DebertaAttentionTypes types, long long n,
                                                long long dim, std::uint64_t seed) {
  static std::atomic<unsigned long long> next_version{0};
  auto d = std::make_shared<ScoreData>();
  d->version = ++next_version;
  d->n = n;
  d->dim = dim;
  try {
    d->maps = pe::deberta_score_maps(n, dim, params, types, seed);
    d->share.assign(d->maps.position_share.data(), d->maps.position_share.data() + d->maps.position_share.size());
    d->mean_share = d->maps.position_share.mean();
  } catch (const std::exception& e) {
    d->error = e.what();
  }
  return d;
}

const ScoreData& scores_for(const ViewContext& ctx) {
  const AppState& s = ctx.state;
  static std::map<const Derived*, AsyncValue<std::string, std::shared_ptr<const ScoreData>>> slots;
  const pe::DebertaPositionParams params = deberta_params(s);
  const pe::DebertaAttentionTypes types = pe::deberta_attention_types_from_string(s.pos_att_type);
  const long long n = score_length(s), dim = score_dim(s);
  const std::string key = std::to_string(params.position_buckets) + "|" + std::to_string(params.max_relative_positions) + "|" +
                          std::to_string(params.max_position_embeddings) + "|" + pe::to_string(types) + "|" + std::to_string(n) +
                          "|" + std::to_string(dim) + "|" + std::to_string(s.seed);
  // Small tables (DeBERTa-v3's 512 rows) are quick; 65536 buckets seed 2^17 rows: a worker.
  const bool wait = ctx.exporting || params.position_buckets <= 1024;
  return *slot_for(slots, &ctx.derived).get(key, wait, [params, types, n, dim, seed = s.seed](const std::string&) {
    return compute_scores(params, types, n, dim, seed);
  });
}

void draw_bucket_curve(const AppState& s, const DebertaData& d, ImVec2 size) {
  const double reach = double(std::max<long long>(d.reach, 1));
  if (plot::begin_plot("##deberta-curve", size, {.title = "Log bucket of query − key"})) {
    plot::setup_axes({.label = "relative position query − key", .min = -reach, .max = reach}, {.label = "bucket"});
    if (double(d.mid) <= reach) {
      plot::plot_vline("##mid", double(d.mid), {.color = IM_COL32(150, 150, 150, 160), .thickness = 1.0f, .in_legend = false});
      plot::plot_vline("##-mid", -double(d.mid), {.color = IM_COL32(150, 150, 150, 160), .thickness = 1.0f, .in_legend = false});
    }
    const double last = double(d.max_position - 1);
    if (last <= reach) {
      plot::plot_vline("##last", last, {.color = plot::series_color(3), .thickness = 1.5f, .dashed = true, .in_legend = false});
      plot::plot_vline("##-last", -last, {.color = plot::series_color(3), .thickness = 1.5f, .dashed = true, .in_legend = false});
    }
    plot::plot_function("transformers", [&](double x) { return double(d.transformers(std::llround(x))); }, {.thickness = 2.5f});
    plot::plot_function("microsoft/DeBERTa (clamps at max_position − 1)", [&](double x) { return double(d.microsoft(std::llround(x))); },
                        {.thickness = 1.5f, .dashed = true});
    const double p = double(std::min(s.position, d.n - 1));
    plot::plot_vline("##p", p, {.color = plot::series_color(1), .thickness = 1.5f, .dashed = true, .in_legend = false});
    if (plot::is_plot_hovered()) {
      const long long r = std::llround(plot::mouse_x());
      const long long b = d.transformers(r);
      plot::hover_text("query − key = %lld → bucket %lld (transformers), %lld (microsoft)", r, b, d.microsoft(r));
      plot::hover_text("row of the relative table: %lld (bucket + att_span %lld, clamped to 0 … %lld)",
                       pe::deberta_embedding_row(b, d.params), d.params.position_buckets, 2 * d.params.position_buckets - 1);
      plot::hover_text("|r| <= mid = %lld: one bucket per distance; max_position = %lld", d.mid, d.max_position);
    }
    plot::end_plot();
  }
}

void draw_bucket_map(const DebertaData& d, ImVec2 size) {
  const double n = double(d.n);
  const float bar_w = plot::colorbar_width("bucket", -d.bucket_max, d.bucket_max);
  const std::string title = d.n <= kMapCells ? "Bucket of (i, j)" : "Bucket of (i, j), sampled: " + std::to_string(d.cells) + "² cells";
  if (plot::begin_plot("##deberta-map", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "key j", .min = -0.5, .max = n - 0.5}, {.label = "query i", .min = -0.5, .max = n - 0.5, .invert = true});
    plot::plot_value_heatmap("bucket", {.values = d.map, .rows = int(d.cells), .columns = int(d.cells), .x0 = -0.5, .x1 = n - 0.5,
                                        .y0 = -0.5, .y1 = n - 0.5, .colormap = plot::Colormap::RdBu, .vmin = -d.bucket_max,
                                        .vmax = d.bucket_max, .version = d.version, .y_down = true});
    if (plot::is_plot_hovered()) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, d.n - 1);
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, d.n - 1);
      const long long b = d.transformers(i - j);
      plot::hover_text("query %lld, key %lld: query − key = %lld → bucket %lld, row %lld", i, j, i - j, b, pe::deberta_embedding_row(b, d.params));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("bucket", -d.bucket_max, d.bucket_max, plot::Colormap::RdBu, {bar_w, size.y});
}

void draw_share_map(const ScoreData& sc, ImVec2 size) {
  const float bar_w = plot::colorbar_width("share", 0.0, 1.0);
  const double n = double(sc.n);
  const std::string title = formatted("Position's share of |score| (mean %.0f%%)", 100.0 * sc.mean_share);
  if (plot::begin_plot("##deberta-share", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "key j", .min = -0.5, .max = n - 0.5}, {.label = "query i", .min = -0.5, .max = n - 0.5, .invert = true});
    plot::plot_value_heatmap("share", {.values = sc.share, .rows = int(sc.n), .columns = int(sc.n), .x0 = -0.5, .x1 = n - 0.5, .y0 = -0.5,
                                       .y1 = n - 0.5, .colormap = plot::Colormap::Viridis, .vmin = 0.0, .vmax = 1.0,
                                       .version = sc.version, .y_down = true});
    if (plot::is_plot_hovered()) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, sc.n - 1);
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, sc.n - 1);
      const auto& m = sc.maps;
      plot::hover_text("query %lld, key %lld: c2c %.6g, c2p %.6g, p2c %.6g", i, j, m.c2c(i, j), m.c2p(i, j), m.p2c(i, j));
      plot::hover_text("(|c2p| + |p2c|) / (|c2c| + |c2p| + |p2c|) = %.6g", m.position_share(i, j));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("share", 0.0, 1.0, plot::Colormap::Viridis, {bar_w, size.y});
}

void draw_query_terms(const AppState& s, const ScoreData& sc, ImVec2 size) {
  const long long i = std::clamp<long long>(s.position, 0, sc.n - 1);
  const std::string title = formatted("Score terms of query %lld (÷√(%d·%lld))", i, sc.maps.scale_factor, sc.dim);
  if (plot::begin_plot("##deberta-terms", size, {.title = title.c_str()})) {
    plot::setup_axes({.label = "key j", .min = -0.5, .max = double(sc.n) - 0.5}, {.label = "term"});
    const std::vector<double> xs = index_axis(sc.n);
    auto row = [&](const pe::TableD& t) {
      std::vector<double> v(std::size_t(sc.n));
      for (long long j = 0; j < sc.n; ++j) v[std::size_t(j)] = t(i, j);
      return v;
    };
    plot::plot_line("c2c (content)", xs, row(sc.maps.c2c), {.thickness = 2.0f});
    if (sc.maps.types.c2p) plot::plot_line("c2p (content → position)", xs, row(sc.maps.c2p), {.thickness = 1.5f});
    if (sc.maps.types.p2c) plot::plot_line("p2c (position → content)", xs, row(sc.maps.p2c), {.thickness = 1.5f});
    if (plot::is_plot_hovered()) {
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, sc.n - 1);
      plot::hover_text("key %lld: c2c %.6g, c2p %.6g, p2c %.6g, total %.6g", j, sc.maps.c2c(i, j), sc.maps.c2p(i, j), sc.maps.p2c(i, j),
                       sc.maps.c2c(i, j) + sc.maps.c2p(i, j) + sc.maps.p2c(i, j));
    }
    plot::end_plot();
  }
}

}  // namespace

void draw_deberta_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  if (ctx.show_widgets()) {
    ImGui::SetNextItemWidth(160.0f * plot::pixel_scale());
    if (ImGui::BeginCombo("pos_att_type", s.pos_att_type.c_str())) {
      for (const char* t : {"c2p|p2c", "c2p", "p2c", "none"})
        if (ImGui::Selectable(t, s.pos_att_type == t)) s.pos_att_type = t;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("pos_att_type = %s: which position terms are added to c2c (DeBERTa-v2, v3: c2p|p2c, scaled by 1/√(3d)).",
                        s.pos_att_type.c_str());
  }
  if (show_relative_error(s)) return;
  const DebertaData& d = buckets_for(s);
  const ScoreData& sc = scores_for(ctx);
  const char* const note =
      "DeBERTa keeps content and position apart: c2c compares contents, c2p and p2c compare a content with a relative "
      "position's embedding. Distances up to mid get a bucket each, farther ones log buckets. Score maps: seeded vectors, not trained.";
  const float note_h = teaching_note_height(note);
  constexpr float kWeights[] = {0.5f, 0.5f};
  constexpr bool kTitled[] = {true, true};
  const std::vector<float> h = stacked_plot_heights(ImGui::GetContentRegionAvail().y - note_h, kWeights, kTitled);
  const PlotColumns columns = plot_columns(ctx, 0.55f);  // stacked on a phone
  const float left_w = columns.left_w, right_w = columns.right_w;
  draw_bucket_curve(s, d, {left_w, h[0]});
  columns.next();
  draw_bucket_map(d, {right_w, h[0]});
  if (!sc.error.empty()) {
    ImGui::TextColored({1, 0.45f, 0.4f, 1}, "%s", sc.error.c_str());
  } else {
    draw_query_terms(s, sc, {left_w, h[1]});
    columns.next();
    draw_share_map(sc, {right_w, h[1]});
  }
  teaching_note(note);
}

namespace {

std::string deberta_csv(const AppState& s, const Derived&) {
  if (const std::string e = relative_error(s); !e.empty()) throw std::runtime_error(e);
  const pe::DebertaPositionParams p = deberta_params(s);
  std::ostringstream out;
  const long long n = 2 * s.length - 1;
  std::vector<long long> rows;
  if (n <= kMaxCsvRows) {
    for (long long k = 0; k < n; ++k) rows.push_back(k - (s.length - 1));
  } else {
    out << "# " << n << " relative positions, " << kMaxCsvRows << " evenly spaced shown\n";
    for (long long k = 0; k < kMaxCsvRows; ++k)
      rows.push_back(-(s.length - 1) + (long long)std::llround(double(k) * double(n - 1) / double(kMaxCsvRows - 1)));
  }
  out << "# position_buckets " << p.position_buckets << ", max_position " << pe::deberta_max_position(p)
      << "; relative_position = query - key; embedding_row = clamp(bucket + att_span, 0, 2*att_span - 1)\n";
  out << "relative_position,bucket,bucket_microsoft,embedding_row\n";
  for (long long r : rows) {
    const long long b = pe::deberta_log_bucket(r, p);
    out << r << ',' << b << ',' << pe::deberta_log_bucket(r, p, pe::DebertaReference::Microsoft) << ','
        << pe::deberta_embedding_row(b, p) << "\n";
  }
  return out.str();
}

std::vector<std::string> deberta_formula(const AppState& s, const Derived&) {
  const std::string general =
      "score = (c2c + c2p + p2c) / √(d·(1 + #types));  bucket(r) = r for |r| <= mid, else sign(r)·(⌈log(|r|/mid) / "
      "log((max_position − 1)/mid)·(mid − 1)⌉ + mid), r = query − key";
  if (const std::string e = relative_error(s); !e.empty()) return {general, e};
  const pe::DebertaPositionParams p = deberta_params(s);
  const pe::DebertaAttentionTypes types = pe::deberta_attention_types_from_string(s.pos_att_type);
  const long long r = std::max<long long>(s.position, 1);
  const long long b = pe::deberta_log_bucket(r, p);
  return {general, formatted("pos_att_type %s: ÷√(%d·d);  mid = %lld, max_position = %lld:  r = %lld → bucket %lld → row %lld",
                             pe::to_string(types).c_str(), pe::deberta_scale_factor(types), p.position_buckets / 2,
                             pe::deberta_max_position(p), r, b, pe::deberta_embedding_row(b, p))};
}

constexpr const char* kAnimatable[] = {"position_buckets", "max_relative_positions", "max_position_embeddings", "length", "position", "dim"};
constexpr const char* kPanel[] = {"position_buckets", "max_relative_positions", "max_position_embeddings", "pos_att_type"};

}  // namespace

const ViewInfo& deberta_view() {
  static const ViewInfo info{
      .name = "deberta",
      .title = "DeBERTa",
      .summary = "DeBERTa's log buckets of query − key and which share of the score depends on position (c2c, c2p, p2c)",
      .group = "Bias",
      .draw = draw_deberta_view,
      .csv = deberta_csv,
      .formula = deberta_formula,
      .animatable = kAnimatable,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
