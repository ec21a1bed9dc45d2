// A trained learned position table in four panels (learned_trained.hpp). The numbers come
// from core (pe/analysis/position_table_analysis.hpp, computed once when the weights were
// read); here they are only aggregated to at most kMaxCells cells a side — a block mean over
// neighbouring positions — so GPT-2's 1024 positions draw cell for cell and a table of 8192
// still fits any GPU's texture limit.
#include "views/learned_trained.hpp"

#include <algorithm>
#include <cmath>

#include "views/colormap_choice.hpp"

namespace app {
namespace {

constexpr long long kMaxCells = 2048;
constexpr long long kShownComponents = 4;

// The q-quantile of |values| (0.995: a few outlying cells do not wash out the rest).
double abs_quantile(std::vector<float> v, double q) {
  if (v.empty()) return 1.0;
  for (float& x : v) x = std::abs(x);
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(q * double(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k] > 0 ? double(v[k]) : 1.0;
}

struct Prepared {
  unsigned long long serial = 0, version = 0;
  const pe::LearnedPositionTable* table = nullptr;
  long long positions = 0, dims = 0, block = 1;  // table heatmap: positions/block columns
  std::vector<float> table_cells;                 // dims × columns (rows are dimensions)
  double table_range = 1.0;
  long long sim_n = 0, sim_block = 1;             // similarity cells (of analysis rows)
  std::vector<float> sim_cells;
  std::vector<double> pc_x;                        // positions
  std::vector<std::vector<double>> pc;             // [component][position]
  long long frequencies = 0;
  std::vector<float> spectrum;                     // dims × frequencies
  double spectrum_max = 1.0;
};

unsigned long long g_version = 0;

std::string summary_of(const WeightsUsage& w, bool brief);

// "gpt2/model.safetensors" from "/tmp/models/gpt2/model.safetensors": the file and its folder.
std::string short_source(const std::string& source) {
  const auto slash = source.rfind('/');
  if (slash == std::string::npos || slash == 0) return source;
  const auto before = source.rfind('/', slash - 1);
  return source.substr(before == std::string::npos ? 0 : before + 1);
}

// Block means of `rows` × `cols` row-major values over `block` consecutive columns (and rows
// when `both`).
std::vector<float> block_means(const float* v, long long rows, long long cols, long long block, bool both, long long& out_rows,
                               long long& out_cols) {
  out_cols = (cols + block - 1) / block;
  out_rows = both ? (rows + block - 1) / block : rows;
  std::vector<float> out(static_cast<std::size_t>(out_rows * out_cols), 0.0f);
  std::vector<int> count(out.size(), 0);
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) {
      const std::size_t k = static_cast<std::size_t>((both ? r / block : r) * out_cols + c / block);
      out[k] += v[r * cols + c];
      ++count[k];
    }
  for (std::size_t k = 0; k < out.size(); ++k) out[k] /= float(std::max(count[k], 1));
  return out;
}

const Prepared& prepare(const WeightsUsage& w) {
  static Prepared p;
  if (p.version != 0 && p.serial == w.serial) return p;
  p = Prepared{};
  p.serial = w.serial;
  p.version = ++g_version;
  p.table = trained_table(w);
  if (!p.table) return p;
  const pe::TableF& t = p.table->values;
  p.positions = t.rows();
  p.dims = t.cols();
  // Rows of the heatmap are dimensions: the transpose, then block means along positions.
  std::vector<float> by_dim(static_cast<std::size_t>(t.size()));
  for (long long r = 0; r < p.positions; ++r)
    for (long long c = 0; c < p.dims; ++c) by_dim[static_cast<std::size_t>(c * p.positions + r)] = t(r, c);
  p.block = (p.positions + kMaxCells - 1) / kMaxCells;
  long long rows = 0, cols = 0;
  p.table_cells = p.block == 1 ? by_dim : block_means(by_dim.data(), p.dims, p.positions, p.block, false, rows, cols);
  p.table_range = abs_quantile(p.table_cells, 0.995);
  if (!w.analysis) return p;
  const TrainedTableAnalysis& a = *w.analysis;
  const long long n = a.similarity.rows();
  p.sim_block = (n + kMaxCells - 1) / kMaxCells;
  p.sim_cells = p.sim_block == 1 ? std::vector<float>(a.similarity.data(), a.similarity.data() + a.similarity.size())
                                 : block_means(a.similarity.data(), n, n, p.sim_block, true, rows, cols);
  p.sim_n = p.sim_block == 1 ? n : rows;
  for (long long r = 0; r < p.positions; ++r) p.pc_x.push_back(double(r));
  for (long long c = 0; c < std::min<long long>(kShownComponents, a.components.scores.cols()); ++c) {
    p.pc.emplace_back(p.positions);
    for (long long r = 0; r < p.positions; ++r) p.pc.back()[static_cast<std::size_t>(r)] = a.components.scores(r, c);
  }
  p.frequencies = a.spectra.frequency.size();
  p.spectrum.resize(static_cast<std::size_t>(p.dims * p.frequencies));
  for (long long j = 0; j < p.dims; ++j)
    for (long long k = 0; k < p.frequencies; ++k)
      p.spectrum[static_cast<std::size_t>(j * p.frequencies + k)] = static_cast<float>(a.spectra.amplitude(k, j));
  p.spectrum_max = abs_quantile(p.spectrum, 0.999);
  return p;
}

void table_panel(const AppState& s, const Prepared& p, ImVec2 size) {
  const double r = p.table_range;
  const float bar_w = plot::colorbar_width("value", -r, r);
  const std::string title = "Trained table " + p.table->tensor;
  if (plot::begin_plot("##learned-trained", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y}, {.title = title.c_str(), .legend = false})) {
    plot::setup_axes({.label = "position p", .min = -0.5, .max = double(p.positions) - 0.5},
                     {.label = "dimension j", .min = -0.5, .max = double(p.dims) - 0.5, .format = "%.0f"});
    const long long cols = (p.positions + p.block - 1) / p.block;
    plot::plot_value_heatmap("trained", {.values = p.table_cells, .rows = int(p.dims), .columns = int(cols), .x0 = -0.5,
                                         .x1 = double(cols * p.block) - 0.5, .y0 = -0.5, .y1 = double(p.dims) - 0.5,
                                         .colormap = to_plot(s.colormap), .vmin = -r, .vmax = r, .version = p.version * 4 + 0});
    if (plot::is_plot_hovered()) {
      const long long pos = std::llround(plot::mouse_x()), j = std::llround(plot::mouse_y());
      if (pos >= 0 && pos < p.positions && j >= 0 && j < p.dims) plot::hover_text("p = %lld, j = %lld: %.6g", pos, j, double(p.table->values(pos, j)));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("value", -r, r, to_plot(s.colormap), {bar_w, size.y});
}

void similarity_panel(const AppState& s, const WeightsUsage& w, const Prepared& p, ImVec2 size) {
  const TrainedTableAnalysis& a = *w.analysis;
  const float bar_w = plot::colorbar_width("cos", -1.0, 1.0);
  const double step = double(a.stride * p.sim_block);  // positions per cell
  const double extent = double(p.sim_n) * step;
  if (plot::begin_plot("##learned-similarity", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y},
                       {.title = "Cosine similarity of positions", .legend = false})) {
    plot::setup_axes({.label = "position q", .min = -0.5, .max = extent - 0.5},
                     {.label = "position p", .min = -0.5, .max = extent - 0.5, .auto_fit = false, .invert = true});
    plot::plot_value_heatmap("similarity", {.values = p.sim_cells, .rows = int(p.sim_n), .columns = int(p.sim_n), .x0 = -0.5,
                                            .x1 = extent - 0.5, .y0 = -0.5, .y1 = extent - 0.5, .colormap = to_plot(s.colormap),
                                            .vmin = -1.0, .vmax = 1.0, .version = p.version * 4 + 1, .y_down = true});
    if (plot::is_plot_hovered()) {
      const long long q = std::llround(plot::mouse_x() / double(a.stride)), r = std::llround(plot::mouse_y() / double(a.stride));
      if (q >= 0 && r >= 0 && q < a.similarity.rows() && r < a.similarity.rows())
        plot::hover_text("p = %lld, q = %lld: cos = %.4f", r * a.stride, q * a.stride, double(a.similarity(r, q)));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("cos", -1.0, 1.0, to_plot(s.colormap), {bar_w, size.y});
}

void components_panel(const WeightsUsage& w, const Prepared& p, ImVec2 size) {
  const TrainedTableAnalysis& a = *w.analysis;
  if (plot::begin_plot("##learned-pcs", size, {.title = "Leading principal components: each position's score"})) {
    plot::setup_axes({.label = "position p", .min = 0.0, .max = double(std::max<long long>(p.positions - 1, 1))}, {.label = "score"});
    for (std::size_t c = 0; c < p.pc.size(); ++c) {
      const std::string label = formatted("PC%zu (%.1f%%)", c + 1, 100.0 * a.components.variance_share(Eigen::Index(c)));
      plot::plot_line(label.c_str(), p.pc_x, p.pc[c]);
    }
    plot::end_plot();
  }
}

void spectrum_panel(const WeightsUsage& w, const Prepared& p, ImVec2 size) {
  const pe::DimensionSpectra& sp = w.analysis->spectra;
  const double vmax = p.spectrum_max;
  const float bar_w = plot::colorbar_width("amplitude", 0.0, vmax);
  const double df = p.frequencies > 1 ? sp.frequency(1) - sp.frequency(0) : 0.5;
  const double f1 = sp.frequency(p.frequencies - 1) + 0.5 * df;
  if (plot::begin_plot("##learned-spectrum", {size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, size.y},
                       {.title = "Frequency content of each dimension", .legend = false})) {
    plot::setup_axes({.label = "frequency (cycles per position)", .min = -0.5 * df, .max = f1},
                     {.label = "dimension j", .min = -0.5, .max = double(p.dims) - 0.5, .format = "%.0f"});
    plot::plot_value_heatmap("spectrum", {.values = p.spectrum, .rows = int(p.dims), .columns = int(p.frequencies), .x0 = -0.5 * df,
                                          .x1 = f1, .y0 = -0.5, .y1 = double(p.dims) - 0.5, .colormap = plot::Colormap::Viridis,
                                          .vmin = 0.0, .vmax = vmax, .version = p.version * 4 + 2});
    if (plot::is_plot_hovered()) {
      const long long k = std::llround((plot::mouse_x() - sp.frequency(0)) / df), j = std::llround(plot::mouse_y());
      if (k >= 0 && k < p.frequencies && j >= 0 && j < p.dims)
        plot::hover_text("j = %lld, f = %.4g (one wave per %.3g positions): amplitude %.4g", j, sp.frequency(k),
                         sp.frequency(k) > 0 ? 1.0 / sp.frequency(k) : INFINITY, sp.amplitude(k, j));
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("amplitude", 0.0, vmax, plot::Colormap::Viridis, {bar_w, size.y});
}

}  // namespace

const pe::LearnedPositionTable* trained_table(const WeightsUsage& w) {
  const pe::TrainedPositions& t = w.positions;
  if (t.position_embeddings) return &*t.position_embeddings;
  if (t.encoder_position_embeddings) return &*t.encoder_position_embeddings;
  if (t.vision_position_embeddings) return &*t.vision_position_embeddings;
  return nullptr;
}

std::string trained_table_summary(const WeightsUsage& w) { return summary_of(w, false); }

namespace {
std::string summary_of(const WeightsUsage& w, bool brief) {
  const pe::LearnedPositionTable* t = trained_table(w);
  if (!t || !w.analysis) return "";
  const TrainedTableAnalysis& a = *w.analysis;
  std::string band;
  for (long long d : {1LL, 4LL, 16LL, 64LL, 256LL}) {
    const long long k = d / a.stride;
    if (k < 1 || k >= a.similarity_by_distance.size() || k * a.stride != d) continue;
    band += formatted("%s%lld apart %.2f", band.empty() ? "" : ", ", d, a.similarity_by_distance(k));
  }
  long long half = -1;
  for (Eigen::Index k = 1; k < a.similarity_by_distance.size(); ++k)
    if (a.similarity_by_distance(k) < 0.5) {
      half = k * a.stride;
      break;
    }
  const auto& share = a.components.variance_share;
  std::vector<double> f(a.spectra.dominant_frequency.data(), a.spectra.dominant_frequency.data() + a.spectra.dominant_frequency.size());
  std::sort(f.begin(), f.end());
  const double median = f.empty() ? 0.0 : f[f.size() / 2];
  // Fixed sinusoids stored with the weights (Marian; Whisper's encoder) are no training result.
  const bool fixed = (w.positions.position_embeddings && t == &*w.positions.position_embeddings && w.encoding.family == pe::PositionEncodingFamily::Sinusoidal) ||
                     (w.positions.encoder_position_embeddings && t == &*w.positions.encoder_position_embeddings &&
                      w.encoding.encoder_family == pe::PositionEncodingFamily::Sinusoidal);
  std::string out = formatted("%s the mean cosine similarity of positions is %s", fixed ? "Fixed sinusoids (stored, not trained):" : "What training made of it:",
                              band.c_str());
  if (half == a.stride)
    out += " — already at 1 apart below 0.5: no bright band; neighbouring positions got nearly unrelated directions, each position a "
           "code of its own.";
  else if (half > 0)
    out += formatted(" — it falls below 0.5 at %lld positions apart: the width of the bright band along the diagonal.", half);
  else
    out += " — it stays above 0.5 across the whole table: one broad band.";
  if (brief) return out;
  if (share.size() >= 3) {
    const double three = share(0) + share(1) + share(2);
    out += formatted(" The first three principal components hold %.0f%%, %.0f%% and %.0f%% of the variance", 100.0 * share(0),
                     100.0 * share(1), 100.0 * share(2));
    out += three >= 0.6 ? formatted(" (%.0f%% together): the positions lie close to a curve in few dimensions.", 100.0 * three)
                        : formatted(" (%.0f%% together): the variance is spread over many directions.", 100.0 * three);
  }
  if (median > 0)
    out += formatted(" Half the dimensions have their strongest wave at %.3g cycles per position or below (one wave per %.0f "
                     "positions or more).",
                     median, 1.0 / median);
  return out;
}
}  // namespace

void draw_trained_table(ViewContext& ctx, const WeightsUsage& w) {
  const Prepared& p = prepare(w);
  const pe::LearnedPositionTable& t = *p.table;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text("%s: %s (%s), %lld positions × %lld dims (%s)%s", short_source(w.positions.source).c_str(), t.tensor.c_str(),
              t.dtype.c_str(), p.positions, p.dims, w.encoding.model_type.c_str(),
              t.offset ? formatted("; the first %lld rows, before position 0, are not shown", t.offset).c_str() : "");
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemHovered() && ctx.show_widgets()) ImGui::SetTooltip("%s", w.positions.source.c_str());
  const float em = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.x;
  const float two_rows = 2.0f * plot::min_plot_height({.title = "t"}) + 2.0f * em;
  // In a short window (a projector at 2×) the note says only what the band shows.
  std::string note = summary_of(w, false);
  if (ImGui::GetContentRegionAvail().y - teaching_note_height(note.c_str()) < two_rows) note = summary_of(w, true);
  const float room = ImGui::GetContentRegionAvail().y - teaching_note_height(note.c_str());
  if (!w.analysis) {
    table_panel(ctx.state, p, {ctx.size.x, std::max(room, plot::min_plot_height({.title = "t"}))});
    return;
  }
  if (ctx.size.x >= 28.0f * em) {
    const std::vector<float> h = two_plot_heights(std::max(room, two_rows), 0.5f);
    const float left = std::floor(0.5f * (ctx.size.x - gap));
    table_panel(ctx.state, p, {left, h[0]});
    ImGui::SameLine();
    similarity_panel(ctx.state, w, p, {ctx.size.x - left - gap, h[0]});
    components_panel(w, p, {left, h[1]});
    ImGui::SameLine();
    spectrum_panel(w, p, {ctx.size.x - left - gap, h[1]});
  } else {
    const float weights[] = {1, 1, 1, 1};
    const bool titled[] = {true, true, true, true};
    const std::vector<float> h = stacked_plot_heights(std::max(room, 4.0f * plot::min_plot_height({.title = "t"})), weights, titled);
    table_panel(ctx.state, p, {ctx.size.x, h[0]});
    similarity_panel(ctx.state, w, p, {ctx.size.x, h[1]});
    components_panel(w, p, {ctx.size.x, h[2]});
    spectrum_panel(w, p, {ctx.size.x, h[3]});
  }
  teaching_note(note.c_str());
}

}  // namespace app
