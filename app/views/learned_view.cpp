// Learned absolute embeddings (BERT, GPT-2): a max_len × d table. Positions past max_len
// have no row — a notebook's extrapolation test of a learned table fails exactly there.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"
#include "platform/frame_pacing.hpp"
#include "state/weights_usage.hpp"
#include "views/colormap_choice.hpp"
#include "views/learned_trained.hpp"
#include "views/model_family.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {
// "stories260K" from ".../gpt2/model.safetensors": the folder or file a source names.
std::string short_source(const std::string& source) {
  std::string s = source;
  const auto slash = s.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    const auto before = s.rfind('/', slash - 1);
    return s.substr(before == std::string::npos ? 0 : before + 1);
  }
  return s;
}
// 32 MiB of parameters: max_len 8192 up to d = 1024, or d = 8192 up to max_len 1024
// (GPT-2's 1024 × 768 is 3 MiB). Held three times, plus the GL driver's copy while uploading.
constexpr std::size_t kLearnedViewBudget = std::size_t{32} << 20;
}  // namespace

// With a model's weights loaded (state.weights): its trained table, or why there is none.
// Returns true when the trained picture was drawn (or the reading is under way); otherwise
// `why` says what the random picture below stands in for.
static bool draw_loaded_table(ViewContext& ctx, std::string& why) {
  AppState& s = ctx.state;
  if (s.weights.empty()) {
    why = "No weights loaded: a random initialisation N(0, 0.02), not a trained table. Load a model (--weights DIR|FILE, or drop "
          "a GPT-2 / BERT / OPT checkpoint on the window) to see what training made of it.";
    return false;
  }
  const WeightsStatus st = weights_status(s.weights, ctx.exporting);
  if (!st.result) {
    ImGui::Text("Reading the weights of %s …", s.weights.c_str());
    if (ctx.show_widgets()) {
      ImGui::SameLine();
      if (ImGui::SmallButton("Cancel")) cancel_weights_reading();
    }
    request_frame_within(0.1);
    return true;
  }
  const WeightsUsage& w = *st.result;
  if (w.ok() && trained_table(w)) {
    if (ctx.show_widgets()) {
      if (ImGui::SmallButton("Close")) s.weights.clear();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Forget the loaded weights and show the random initialisation again.");
      ImGui::SameLine();
    }
    draw_trained_table(ctx, w);
    return true;
  }
  if (!w.ok())
    why = w.cancelled ? "Reading " + w.source + " was cancelled: showing a random initialisation."
                      : "Cannot read " + w.source + ": " + w.error + " — showing a random initialisation.";
  else
    why = "The loaded model (" + w.encoding.model_type + ") has no learned absolute position table: its positions are " +
          pe::to_string(w.encoding.family) + (w.positions.encoder_bias || w.positions.decoder_bias ? " (see the t5-bias view)" : "") +
          ". Showing a random initialisation.";
  return false;
}

void draw_learned_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  std::string loaded_note;
  if (draw_loaded_table(ctx, loaded_note)) return;
  const long long d = s.rope.head_dim;
  static std::unique_ptr<pe::LearnedEmbedding> table;
  static std::string error;
  static unsigned long long version = 0;
  static std::uint64_t table_seed = 0;
  static long long table_len = -1, table_dim = -1;  // what was asked for (also when refused)
  static std::vector<float> by_dimension;  // d × max_len: heatmap rows are dimensions
  if (table_len != s.learned_max_len || table_dim != d || table_seed != s.seed) {
    table_seed = s.seed;
    table_len = s.learned_max_len;
    table_dim = d;
    // The old table goes first: a new one beside it would double the peak.
    table.reset();
    by_dimension = {};
    try {
      // The table lives three times (core's, the transpose below, the GPU texture): past
      // kLearnedViewBudget it is refused here, before anything is allocated.
      const double bytes = double(s.learned_max_len) * double(d) * double(sizeof(float));
      if (bytes > double(kLearnedViewBudget))
        throw std::runtime_error("max_len × d = " + std::to_string(s.learned_max_len) + " × " + std::to_string(d) + " = " +
                                 pe::format_bytes(std::size_t(bytes)) + " of parameters: over this view's budget of " +
                                 pe::format_bytes(kLearnedViewBudget) + " (the table is held three times to draw it). "
                                 "Lower max_len or d.");
      table = std::make_unique<pe::LearnedEmbedding>(s.learned_max_len, d, 0.02, s.seed);
      error.clear();
      const pe::TableF& t = table->table();
      by_dimension.resize(std::size_t(t.size()));
      for (Eigen::Index p = 0; p < t.rows(); ++p)
        for (Eigen::Index j = 0; j < t.cols(); ++j) by_dimension[std::size_t(j * t.rows() + p)] = t(p, j);
    } catch (const std::exception& e) {
      table.reset();
      error = e.what();
    }
    ++version;
  }
  if (ctx.show_widgets()) {
    ImGui::SetNextItemWidth(200.0f * plot::pixel_scale());
    long long lo = 1, hi = 8192;
    ImGui::SliderScalar("max_len", ImGuiDataType_S64, &s.learned_max_len, &lo, &hi, "%lld",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("learned_max_len: rows in the learned table (GPT-2: 1024, BERT: 512).");
  }
  if (!table) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    text_wrapped_unformatted(error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  // The loaded model's own table (issue 33), when it has one: its shape, read from its config.
  const pe::PositionEncodingInfo& model = s.model_encoding;
  if (model.family == pe::PositionEncodingFamily::LearnedAbsolute && model.positions > 0) {
    const std::string who = model_label(s);
    std::string shape = std::to_string(model.positions) + " positions × " + std::to_string(model.embedding_width);
    if (model.position_offset > 0)
      shape += ", position p in row p + " + std::to_string(model.position_offset) + " of " + std::to_string(model.table_rows);
    if (model.encoder_family && *model.encoder_family != model.family) shape += " (the decoder's)";
    const bool same = s.learned_max_len == model.positions && d == model.embedding_width;
    text_wrapped("%s (%s): a learned table of %s.%s", who.c_str(), model.model_type.c_str(), shape.c_str(),
                       same ? " Drawn below in its shape with random values: the trained table comes from the weights."
                            : " The panel's max_len / dim differ from it now.");
  }
  text_wrapped("Parameters: max_len × d = %lld × %lld = %lld (initialised N(0, 0.02), seed %llu)", table->max_len(), d,
               table->parameter_count(), static_cast<unsigned long long>(s.seed));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", loaded_note.c_str());
  ImGui::PopTextWrapPos();
  try {
    (void)table->at(s.position);
    ImGui::Text("Position p = %lld has a row.", s.position);
  } catch (const pe::PositionOutOfRange& e) {
    ImGui::TextColored({1, 0.45f, 0.4f, 1}, "Position p = %lld: %s", s.position, e.what());
  }
  const float bar_w = plot::colorbar_width("value", -0.06, 0.06);
  const char* const note = "Every row is an independent parameter vector: nothing relates row p to row p+1 until training does, and "
                "there is no row at all past max_len. Sinusoidal and RoPE compute any position from a formula instead.";
  const float note_h = teaching_note_height(note);
  const float h = ImGui::GetContentRegionAvail().y - note_h;
  const double shown = double(std::max(s.length, table->max_len()));
  if (plot::begin_plot("##learned", {ctx.size.x - bar_w - ImGui::GetStyle().ItemSpacing.x, h}, {.title = "Learned position table (random init)", .legend = false})) {
    plot::setup_axes({.label = "position p", .min = -0.5, .max = shown - 0.5},
                     {.label = "dimension j", .min = -0.5, .max = double(d) - 0.5, .format = "%.0f"});
    const auto& t = table->table();
    plot::plot_value_heatmap("learned", {.values = by_dimension,
                                         .rows = int(d), .columns = int(t.rows()),
                                         .x0 = -0.5, .x1 = double(t.rows()) - 0.5, .y0 = -0.5, .y1 = double(d) - 0.5,
                                         .colormap = to_plot(s.colormap), .vmin = -0.06, .vmax = 0.06,
                                         .version = version});
    if (s.length > table->max_len()) {
      plot::plot_xband("no rows: positions ≥ max_len", double(table->max_len()) - 0.5, double(s.length) - 0.5,
                       IM_COL32(200, 60, 60, 70));
      plot::plot_vline("max_len", double(table->max_len()) - 0.5, {.color = IM_COL32(220, 70, 60, 255), .thickness = 2.0f});
      // Said in words inside the band, when the band is wide enough for them.
      const char* const missing = "no embedding exists here";
      const double band = double(s.length - table->max_len()) / double(s.length) * ctx.size.x * 0.85;
      const float text_w = ImGui::CalcTextSize(missing).x;
      if (text_w < band)
        plot::plot_text(0.5 * double(table->max_len() + s.length) - 0.5, 0.5 * double(d), missing, s.dark_theme ? IM_COL32(255, 200, 190, 255) : IM_COL32(150, 25, 25, 255),
                        {-0.5f * text_w, 0.0f});
    }
    if (plot::is_plot_hovered()) {
      const long long p = std::llround(plot::mouse_x()), j = std::llround(plot::mouse_y());
      if (p >= 0 && p < table->max_len() && j >= 0 && j < d)
        plot::hover_text("p = %lld, j = %lld: %.6f", p, j, double(t(p, j)));
      else if (p >= table->max_len())
        plot::hover_text("p = %lld: no row (max_len = %lld)", p, table->max_len());
    }
    plot::end_plot();
  }
  ImGui::SameLine();
  plot::colorbar("value", -0.06, 0.06, to_plot(s.colormap), {bar_w, h});
  teaching_note(note);
}

namespace {

// The trained table of the loaded model, or nullptr (none loaded, or it has none). Exports
// wait for the reading.
const WeightsUsage* loaded_with_table(const AppState& s) {
  if (s.weights.empty()) return nullptr;
  const WeightsStatus st = weights_status(s.weights, true);
  return st.result && st.result->ok() && trained_table(*st.result) ? st.result : nullptr;
}

std::string learned_csv(const AppState& s, const Derived&) {
  std::ostringstream out;
  if (const WeightsUsage* w = loaded_with_table(s)) {
    const pe::LearnedPositionTable& t = *trained_table(*w);
    out << "# " << csv_text(w->positions.source) << ": " << csv_text(t.tensor) << " (" << t.dtype << "), trained"
        << (t.offset ? ", the first " + std::to_string(t.offset) + " rows (before position 0) dropped" : "") << "\n";
    const auto positions = sampled_positions(t.values.rows(), out);
    out << "position";
    for (Eigen::Index j = 0; j < t.values.cols(); ++j) out << ",dim" << j;
    out << "\n";
    for (long long p : positions) {
      out << p;
      for (Eigen::Index j = 0; j < t.values.cols(); ++j) out << ',' << csv_number(t.values(p, j));
      out << "\n";
    }
    return out.str();
  }
  const pe::LearnedEmbedding table(s.learned_max_len, s.rope.head_dim, 0.02, s.seed);
  const auto positions = sampled_positions(table.max_len(), out);  // writes its note first
  out << "position";
  for (long long j = 0; j < s.rope.head_dim; ++j) out << ",dim" << j;
  out << "\n";
  for (long long p : positions) {
    const Eigen::VectorXf row = table.at(p);
    out << p;
    for (Eigen::Index j = 0; j < row.size(); ++j) out << ',' << csv_number(row[j]);
    out << "\n";
  }
  return out.str();
}

std::vector<std::string> learned_formula(const AppState& s, const Derived&) {
  if (!s.weights.empty()) {
    const WeightsStatus st = weights_status(s.weights, false);
    if (st.result && st.result->ok())
      if (const pe::LearnedPositionTable* t = trained_table(*st.result)) {
        std::vector<std::string> lines = {
            "E ∈ ℝ^(P × d) read from the weights;  S(p, q) = e_p·e_q / (‖e_p‖ ‖e_q‖);  PCA of the centred rows;  A_j(f) = 2·|Σ_p (E_pj − mean_j)·e^(−2πi f p)| / P",
            formatted("%s: %s, P × d = %lld × %lld", short_source(st.result->positions.source).c_str(), t->tensor.c_str(),
                      static_cast<long long>(t->values.rows()), static_cast<long long>(t->values.cols()))};
        if (const auto& a = st.result->analysis; a && a->similarity_by_distance.size() > 1)
          lines.back() += formatted(";  mean S at distance 1 = %.3f;  PC1 %.1f%% of the variance", a->similarity_by_distance(1) ,
                                    100.0 * a->components.variance_share(0));
        return lines;
      }
  }
  const long long dim = s.rope.head_dim, p = s.position;
  return {"E ∈ ℝ^(max_len × d), row p looked up; rows p ≥ max_len do not exist",
          formatted("max_len × d = %lld × %lld = %lld trained parameters;  position %lld: %s", s.learned_max_len, dim,
                    s.learned_max_len * dim, p, p < s.learned_max_len ? "has a row" : "NO embedding (past max_len)")};
}

constexpr const char* kAnimatable[] = {"learned_max_len", "dim", "length", "position", "seed"};

}  // namespace

const ViewInfo& learned_view() {
  static const ViewInfo info{
      .name = "learned",
      .title = "Learned",
      .summary = "Learned position table: a loaded model's trained table (cosine similarity of positions, principal components, "
                 "frequency content), else a random initialisation, and why it stops at max_len",
      .group = "Absolute",
      .draw = draw_learned_view,
      .csv = learned_csv,
      .formula = learned_formula,
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
