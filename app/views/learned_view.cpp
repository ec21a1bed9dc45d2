// Learned absolute embeddings (BERT, GPT-2): a max_len × d table. Positions past max_len
// have no row — the seed notebook's extrapolation test fails exactly there.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"
#include "views/colormap_choice.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/view_csv.hpp"

namespace app {
namespace {
// 32 MiB of parameters: max_len 8192 up to d = 1024, or d = 8192 up to max_len 1024
// (GPT-2's 1024 × 768 is 3 MiB). Held three times, plus the GL driver's copy while uploading.
constexpr std::size_t kLearnedViewBudget = std::size_t{32} << 20;
}  // namespace

void draw_learned_view(ViewContext& ctx) {
  AppState& s = ctx.state;
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
    ImGui::TextWrapped("%s", error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  text_wrapped(formatted("Parameters: max_len × d = %lld × %lld = %lld (initialised N(0, 0.02), seed %llu)", table->max_len(), d,
                         table->parameter_count(), static_cast<unsigned long long>(s.seed)));
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
      // Said in words inside the band (seed 004 §3), when the band is wide enough for them.
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

std::string learned_csv(const AppState& s, const Derived&) {
  std::ostringstream out;
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
      .summary = "Learned (random-initialised) position table and why it stops at max_len",
      .group = "Absolute",
      .draw = draw_learned_view,
      .csv = learned_csv,
      .formula = learned_formula,
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
