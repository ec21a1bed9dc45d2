// T5's bucketed relative attention bias (Raffel et al. 2020, §2.1; transformers'
// T5Attention._relative_position_bucket and compute_bias): the bucket of every (query, key)
// pair, the bucket edges on the distance axis, how many distances share each bucket, and a
// bias per (bucket, head) added to q·k with no 1/√d. All numbers from core (pe/relative).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/relative/t5_bias.hpp"
#include "pe/relative/t5_buckets.hpp"
#include "state/relative_params.hpp"
#include "state/weights_usage.hpp"
#include "views/relative_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

// The L × L map is drawn with at most this many cells a side (one pair sampled per cell).
constexpr long long kMapCells = 512;

// Bucket of a relative position from core's spans (exact: the spans are where core's
// t5_relative_bucket changes value): a binary search instead of a float32 log per lookup.
class BucketLookup {
 public:
  explicit BucketLookup(const std::vector<pe::T5BucketSpan>& spans) {
    for (const auto& s : spans)
      if (!s.empty) ranges_.push_back({s.unbounded_below ? std::numeric_limits<long long>::min() : s.first, s.bucket});
    std::sort(ranges_.begin(), ranges_.end());
  }
  long long operator()(long long relative_position) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), std::pair{relative_position, std::numeric_limits<long long>::max()});
    return it == ranges_.begin() ? 0 : std::prev(it)->second;
  }

 private:
  std::vector<std::pair<long long, long long>> ranges_;  // (first relative position, bucket), ascending
};

struct T5Data {
  pe::T5BucketParams params;
  long long n = 0, cells = 0, heads = 0, max_exact = 0;
  std::vector<long long> positions;   // the sampled query / key positions of the map
  std::vector<float> map;             // cells × cells buckets (row = query)
  std::vector<pe::T5BucketSpan> spans;
  std::vector<long long> edges;
  std::vector<double> counts;         // distances per bucket (inf: unbounded)
  pe::T5BiasTable table;              // num_buckets × heads
  std::vector<float> table_values;    // heads × num_buckets (row = head), for the heatmap
  double bias_min = 0, bias_max = 0;
  unsigned long long version = 0;
  BucketLookup lookup{{}};
};

// The loaded model's trained table (state.weights: the decoder's stack when `causal`, else the
// encoder's; UMT5's layer weights_layer) when its shape is the parameters' — the model's own
// config sets them when it loads — else the illustrative table, which says it is one.
std::shared_ptr<const pe::T5BiasTable> shown_table(const AppState& s, bool wait) {
  if (!s.weights.empty())
    if (const pe::T5StackTables* st = loaded_t5_stack(s, s.causal, wait)) {
      const pe::T5BiasTable& t = st->bias.table_for_layer(std::clamp<long long>(s.weights_layer, 0, st->bias.layers - 1));
      if (st->params.num_buckets == s.num_buckets && st->params.max_distance == s.max_distance && t.bias.cols() == s.heads &&
          t.bias.rows() == s.num_buckets)
        return std::make_shared<const pe::T5BiasTable>(t);
    }
  return t5_bias_table(s);
}

// Which table shown_table gives now (a cache key: a reading that finishes changes it).
std::string table_key(const AppState& s) {
  const WeightsUsage* w = s.weights.empty() ? nullptr : loaded_weights(s);
  return w ? std::to_string(w->serial) + "|" + std::to_string(s.weights_layer) : "-";
}

std::shared_ptr<const T5Data> compute(const AppState& s, bool wait) {
  static unsigned long long next_version = 0;
  auto d = std::make_shared<T5Data>();
  d->params = t5_params(s);
  d->n = s.length;
  d->heads = s.heads;
  d->max_exact = pe::t5_max_exact(d->params);
  d->version = ++next_version;
  d->spans = pe::t5_bucket_spans(d->params);
  d->edges = pe::t5_bucket_edges(d->params);
  d->lookup = BucketLookup(d->spans);
  for (const auto& sp : d->spans) d->counts.push_back(sp.count() < 0 ? std::numeric_limits<double>::infinity() : double(sp.count()));
  d->positions = cell_positions(d->n, kMapCells);
  d->cells = static_cast<long long>(d->positions.size());
  // T5's relative position is key − query.
  d->map = bucket_cells(
      d->n, d->positions, [&] { return pe::t5_bucket_matrix(d->n, d->params); },
      [&](long long query, long long key) { return d->lookup(key - query); });
  d->table = *shown_table(s, wait);
  const long long buckets = d->params.num_buckets;
  d->table_values.resize(std::size_t(buckets * d->heads));
  for (long long h = 0; h < d->heads; ++h)
    for (long long b = 0; b < buckets; ++b) d->table_values[std::size_t(h * buckets + b)] = float(d->table.bias(b, h));
  d->bias_min = d->table.bias.minCoeff();
  d->bias_max = d->table.bias.maxCoeff();
  if (d->bias_max <= d->bias_min) d->bias_max = d->bias_min + 1.0;
  return d;
}

std::string span_text(const pe::T5BucketSpan& sp) {
  if (sp.empty) return "no relative position";
  const std::string lo = sp.unbounded_below ? "−∞" : std::to_string(sp.first);
  const std::string hi = sp.unbounded_above ? "+∞" : std::to_string(sp.last);
  const std::string n = sp.count() < 0 ? "unbounded" : std::to_string(sp.count()) + (sp.count() == 1 ? " distance" : " distances");
  return "key − query in [" + lo + ", " + hi + "]: " + n;
}

const T5Data& data_for(const AppState& s, bool wait = false) {
  static std::shared_ptr<const T5Data> cached;
  static std::string key;
  const std::string k = std::to_string(s.num_buckets) + "|" + std::to_string(s.max_distance) + "|" + std::to_string(s.causal) +
                        "|" + std::to_string(s.length) + "|" + std::to_string(s.heads) + "|" + table_key(s);
  if (!cached || k != key) {
    cached = compute(s, wait);
    key = k;
  }
  return *cached;
}

void draw_widgets(const ViewContext& ctx, AppState& s) {
  ImGui::Checkbox("causal (decoder)", &s.causal);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("causal: the decoder's buckets (every later key in bucket 0); off: the encoder's, bidirectional.");
  row_next(ctx, 140.0f * plot::pixel_scale() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("heads").x);
  ImGui::SetNextItemWidth(140.0f * plot::pixel_scale());
  long long lo = 1, hi = kMaxHeads;
  ImGui::SliderScalar("heads", ImGuiDataType_S64, &s.heads, &lo, &hi, "%lld", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("heads = %lld: columns of the bias table (t5-base: 12, t5-small: 8).", s.heads);
  row_next(ctx, 140.0f * plot::pixel_scale() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("head").x);
  ImGui::SetNextItemWidth(140.0f * plot::pixel_scale());
  s.head = selected_head(s);
  ImGui::SliderScalar("head", ImGuiDataType_S64, &s.head, &lo, &s.heads, "%lld", ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("head = %lld: the head whose bias is marked (1-based).", s.head);
}

void draw_map(const T5Data& d, ImVec2 size, float bar_w) {
  const double n = double(d.n), vmax = double(std::max<long long>(d.params.num_buckets - 1, 1));
  const std::string title = d.n <= kMapCells ? "Bucket of (i, j)"
                                             : "Bucket of (i, j), sampled: " + std::to_string(d.cells) + "² cells";
  if (plot::begin_plot("##t5-map", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "key j", .min = -0.5, .max = n - 0.5}, {.label = "query i", .min = -0.5, .max = n - 0.5, .invert = true});
    plot::plot_value_heatmap("bucket", {.values = d.map, .rows = int(d.cells), .columns = int(d.cells), .x0 = -0.5, .x1 = n - 0.5,
                                        .y0 = -0.5, .y1 = n - 0.5, .colormap = plot::Colormap::Viridis, .vmin = 0.0, .vmax = vmax,
                                        .version = d.version, .y_down = true});
    if (plot::is_plot_hovered()) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_y()), 0, d.n - 1);
      const long long j = std::clamp<long long>(std::llround(plot::mouse_x()), 0, d.n - 1);
      const long long b = d.lookup(j - i);
      plot::hover_text("query i = %lld, key j = %lld: key − query = %lld → bucket %lld", i, j, j - i, b);
      plot::hover_text("bucket %lld: %s", b, span_text(d.spans[std::size_t(b)]).c_str());
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("bucket", 0.0, vmax, plot::Colormap::Viridis, {bar_w, size.y});
}

void draw_bucket_curve(const AppState& s, const T5Data& d, ImVec2 size) {
  const double reach = double(std::max<long long>(d.n - 1, 1));
  if (plot::begin_plot("##t5-curve", size, {.title = "Bucket of key − query (grey: bucket edges)", .legend = false})) {
    plot::setup_axes({.label = "relative position key − query", .min = -reach, .max = reach},
                     {.label = "bucket", .min = -0.5, .max = double(d.params.num_buckets) - 0.5});
    const double x0 = plot::visible_x_min(), x1 = plot::visible_x_max();
    // Edges where they are few enough to read (a line per bucket start, both directions).
    long long visible = 0;
    for (long long e : d.edges) visible += (double(e) >= x0 && double(e) <= x1) + (!d.params.causal && double(-e) >= x0 && double(-e) <= x1);
    if (visible <= 64) {
      for (long long e : d.edges) {
        plot::plot_vline("##edge", double(-e), {.color = IM_COL32(150, 150, 150, 110), .thickness = 1.0f, .in_legend = false});
        if (!d.params.causal && e > 0)
          plot::plot_vline("##edge+", double(e), {.color = IM_COL32(150, 150, 150, 110), .thickness = 1.0f, .in_legend = false});
      }
    }
    plot::plot_function("bucket(key − query)", [&](double x) { return double(d.lookup(std::llround(x))); }, {.thickness = 2.0f});
    const double p = double(std::min(s.position, d.n - 1));
    plot::plot_vline("##p", -p, {.color = plot::series_color(1), .thickness = 1.5f, .dashed = true, .in_legend = false});
    plot::plot_vline("##max_distance", -double(d.params.max_distance), {.color = plot::series_color(3), .thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered()) {
      const long long r = std::llround(plot::mouse_x());
      const long long b = d.lookup(r);
      plot::hover_text("key − query = %lld → bucket %lld", r, b);
      plot::hover_text("%s", span_text(d.spans[std::size_t(b)]).c_str());
      if (visible > 64) plot::hover_text("%zu bucket edges: zoom in to see them", d.edges.size());
    }
    plot::end_plot();
  }
}

void draw_counts(const T5Data& d, ImVec2 size) {
  const long long buckets = d.params.num_buckets;
  double finite_max = 1.0;
  for (double c : d.counts)
    if (std::isfinite(c)) finite_max = std::max(finite_max, c);
  const double cap = finite_max * 4.0;  // an unbounded bucket's bar reaches above every finite one
  if (plot::begin_plot("##t5-counts", size, {.title = "Distances per bucket (tallest: unbounded)", .legend = false})) {
    plot::setup_axes({.label = "bucket", .min = -0.5, .max = double(buckets) - 0.5},
                     {.label = "distances", .scale = plot::Scale::Log, .min = 0.5, .max = cap * 1.5});
    plot_bars("distances", d.counts, 0.5, cap, {.color = plot::series_color(0)});
    if (plot::is_plot_hovered()) {
      const long long b = std::clamp<long long>(std::llround(plot::mouse_x()), 0, buckets - 1);
      plot::hover_text("bucket %lld: %s", b, span_text(d.spans[std::size_t(b)]).c_str());
    }
    plot::end_plot();
  }
}

void draw_table(const AppState& s, const T5Data& d, ImVec2 size, float bar_w) {
  const long long buckets = d.params.num_buckets;
  const std::string title = std::string("Bias b[bucket, head]") + (d.table.illustrative ? " (illustrative)" : "");
  const long long head = selected_head(s);
  if (plot::begin_plot("##t5-table", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "bucket", .min = -0.5, .max = double(buckets) - 0.5},
                     {.label = "head", .min = 0.5, .max = double(d.heads) + 0.5, .invert = true, .format = "%.0f"});
    plot::plot_value_heatmap("bias", {.values = d.table_values, .rows = int(d.heads), .columns = int(buckets), .x0 = -0.5,
                                      .x1 = double(buckets) - 0.5, .y0 = 0.5, .y1 = double(d.heads) + 0.5,
                                      .colormap = plot::Colormap::Viridis, .vmin = d.bias_min, .vmax = d.bias_max,
                                      .version = d.version, .y_down = true});
    if (d.heads > 1)
      plot::plot_hline("##selected head", double(head), {.color = plot::series_color(1), .thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered()) {
      const long long b = std::clamp<long long>(std::llround(plot::mouse_x()), 0, buckets - 1);
      const long long h = std::clamp<long long>(std::llround(plot::mouse_y()), 1, d.heads);
      plot::hover_text("bucket %lld, head %lld: bias %.9g%s", b, h, d.table.bias(b, h - 1), d.table.illustrative ? " (illustrative)" : "");
      plot::hover_text("%s", span_text(d.spans[std::size_t(b)]).c_str());
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("bias", d.bias_min, d.bias_max, plot::Colormap::Viridis, {bar_w, size.y});
}

}  // namespace

void draw_t5_bias_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  if (ctx.show_widgets()) draw_widgets(ctx, s);
  if (show_relative_error(s)) return;
  const T5Data& d = data_for(s, ctx.exporting);
  // One note (a second line of amber text did not fit at 2× on a 1080p projector): the
  // illustrative flag is in the table's title, its hover and here.
  // The last bucket starts where the log scale reaches N − 1, before max_distance (t5-base: 91).
  const std::string note = formatted(
      "Near distances get a bucket each, far ones share log buckets; every key from distance %lld on shares the last "
      "(dashed: max_distance %lld). T5 adds b[bucket, head] to q·k, unscaled.", d.edges.empty() ? 0LL : d.edges.back(),
      d.params.max_distance) +
      (d.table.illustrative ? " Bias shown: illustrative, −(h/H)·log(1 + first distance), not trained." : "");
  const float note_h = teaching_note_height(note.c_str());
  constexpr float kWeights[] = {0.55f, 0.45f};
  constexpr bool kTitled[] = {true, true};
  const std::vector<float> h = stacked_plot_heights(ImGui::GetContentRegionAvail().y - note_h, kWeights, kTitled);
  const PlotColumns columns = plot_columns(ctx, 0.42f);  // stacked on a phone
  const float left_w = columns.left_w, right_w = columns.right_w;
  draw_map(d, {left_w, h[0]}, plot::colorbar_width("bucket", 0.0, double(d.params.num_buckets - 1)));
  columns.next();
  draw_bucket_curve(s, d, {right_w, h[0]});
  draw_counts(d, {left_w, h[1]});
  columns.next();
  draw_table(s, d, {right_w, h[1]}, plot::colorbar_width("bias", d.bias_min, d.bias_max));
  teaching_note(note.c_str());
}

namespace {

std::string t5_csv(const AppState& s, const Derived&) {
  if (const std::string e = relative_error(s); !e.empty()) throw std::runtime_error(e);
  const pe::T5BucketParams p = t5_params(s);
  const std::vector<pe::T5BucketSpan> spans = pe::t5_bucket_spans(p);
  const std::shared_ptr<const pe::T5BiasTable> table_ptr = shown_table(s, true);
  const pe::T5BiasTable& table = *table_ptr;
  const long long head = selected_head(s);
  std::ostringstream out;
  // Relative positions −(L − 1) … L − 1: all of them, or kMaxCsvRows evenly spaced.
  const long long n = 2 * s.length - 1;
  std::vector<long long> rows;
  if (n <= kMaxCsvRows) {
    for (long long k = 0; k < n; ++k) rows.push_back(k - (s.length - 1));
  } else {
    out << "# " << n << " relative positions, " << kMaxCsvRows << " evenly spaced shown\n";
    for (long long k = 0; k < kMaxCsvRows; ++k) rows.push_back(-(s.length - 1) + (long long)std::llround(double(k) * double(n - 1) / double(kMaxCsvRows - 1)));
  }
  out << "# num_buckets " << p.num_buckets << ", max_distance " << p.max_distance << ", " << (p.causal ? "causal" : "bidirectional")
      << "; bias of head " << head << " of " << s.heads << (table.illustrative ? " is ILLUSTRATIVE (no weights loaded)" : " is the trained relative_attention_bias of " + s.weights) << "\n";
  out << "relative_position,bucket,bucket_first,bucket_last,bias\n";
  for (long long r : rows) {
    const long long b = pe::t5_relative_bucket(r, p);
    const auto& sp = spans[std::size_t(b)];
    out << r << ',' << b << ',' << (sp.unbounded_below ? std::string("-inf") : std::to_string(sp.first)) << ','
        << (sp.unbounded_above ? std::string("inf") : std::to_string(sp.last)) << ',' << csv_number(table.bias(b, head - 1)) << "\n";
  }
  return out.str();
}

std::vector<std::string> t5_formula(const AppState& s, const Derived&) {
  const std::string general =
      "logit = q·k + b[bucket(j − i), h]  (no 1/√d);  bucket: |Δ| < max_exact → |Δ|, else max_exact + ⌊log(|Δ|/max_exact) / "
      "log(max_distance/max_exact) · (N − max_exact)⌋ in float32, min N − 1";
  if (const std::string e = relative_error(s); !e.empty()) return {general, e};
  const pe::T5BucketParams p = t5_params(s);
  const long long dist = std::max<long long>(s.position, 1);
  const long long before = pe::t5_relative_bucket(-dist, p), after = pe::t5_relative_bucket(dist, p);
  // The drawn table, not a new one each frame (4096 buckets × 1024 heads is 32 MiB).
  const pe::T5BiasTable& table = data_for(s).table;
  const long long head = selected_head(s);
  return {general,
          formatted("N = %lld %s, max_exact = %lld, max_distance = %lld:  key %lld before → bucket %lld, %lld after → bucket %lld;  "
                    "b[%lld, %lld] = %.4g%s",
                    p.num_buckets, p.causal ? "(causal)" : "(bidirectional: N/2 per side)", pe::t5_max_exact(p), p.max_distance, dist,
                    before, dist, after, before, head, table.bias(before, head - 1), table.illustrative ? " (illustrative)" : "")};
}

constexpr const char* kAnimatable[] = {"num_buckets", "max_distance", "length", "heads", "head", "position"};
constexpr const char* kPanel[] = {"num_buckets", "max_distance", "causal"};

}  // namespace

const ViewInfo& t5_bias_view() {
  static const ViewInfo info{
      .name = "t5-bias",
      .title = "T5 bias",
      .summary = "T5's relative position buckets over L × L, the bucket edges and a bias per (bucket, head)",
      .group = "Bias",
      .draw = draw_t5_bias_view,
      .csv = t5_csv,
      .formula = t5_formula,
      .animatable = kAnimatable,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
