// "Why θ = 10000?", measured: a low and a high base side by side at the current d and L.
// Some tutorials recommend a low θ for long contexts; that is backwards: a low θ makes every
// pair wrap inside a long context, so far positions look alike; long-context models raise θ
// (Code Llama, Rozière et al. 2023: 10^6; Llama 3: 5·10^5; Xiong et al. 2023).
#include <algorithm>
#include <chrono>
#include <future>
#include <optional>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "pe/analysis/teaching_numbers.hpp"
#include "pe/analysis/theta_bounds.hpp"
#include "platform/frame_pacing.hpp"
#include "platform/worker.hpp"
#include "pe/analysis/walkthrough.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {

constexpr ImU32 kLow = IM_COL32(230, 120, 40, 255);
constexpr ImU32 kHigh = IM_COL32(60, 130, 220, 255);
constexpr ImU32 kLengthLine = IM_COL32(200, 60, 60, 255);

struct ScoreCache {
  double theta_low = 0, theta_high = 0, x0 = 0, x1 = 0;
  long long dim = 0;
  int samples = 0;
  bool log = false;
  std::vector<double> xs, low, high;
};

std::string theta_text(double theta) { return pe::short_number(theta); }

// Men et al. 2024 for both bases and the smallest base for L, measured by scanning every
// distance (pe/analysis/theta_bounds.hpp): a few ms at L = 8192, up to seconds at 10^7, so it
// runs on a worker (exports wait for it).
struct Bounds {
  long long first_negative_low = -1, first_negative_high = -1;
  pe::SmallestBase smallest;
};
struct BoundsKey {
  double theta_low = 0, theta_high = 0;
  long long dim = 0, length = 0;
  bool operator==(const BoundsKey&) const = default;
};

Bounds compute_bounds(const BoundsKey& k) {
  Bounds b;
  const auto first_negative = [&](double theta) {
    return pe::scan_base_sum(pe::theta_wavelengths(theta, k.dim, k.length).inv_freq, k.length, 1, true).first_negative;
  };
  b.first_negative_low = first_negative(k.theta_low);
  b.first_negative_high = first_negative(k.theta_high);
  b.smallest = pe::smallest_base_for_length(k.dim, k.length, 1e-3);
  return b;
}

// The bounds for the state, or nullptr while a worker computes them (the view asks again).
// The last few results are kept, so going back to a base shows it at once; short contexts
// (a few ms, see above) are computed in place, so their first frame is never without them.
const Bounds* bounds_for(const AppState& s, bool wait) {
  constexpr std::size_t kKept = 8;
  constexpr long long kInPlaceLength = 8192;
  static std::vector<std::pair<BoundsKey, Bounds>> kept;  // newest last
  static BoundsKey job_key;
  static std::future<Bounds> job;
  const auto keep = [](const BoundsKey& k, Bounds b) -> const Bounds* {
    std::erase_if(kept, [&](const auto& e) { return e.first == k; });
    if (kept.size() == kKept) kept.erase(kept.begin());
    kept.emplace_back(k, std::move(b));
    return &kept.back().second;
  };
  const BoundsKey key{s.theta_low, s.theta_high, s.rope.head_dim, s.length};
  // Never waits for the worker (background priority): `wait` computes in place below.
  if (job.valid() && job.wait_for(std::chrono::seconds(0)) == std::future_status::ready) keep(job_key, job.get());
  for (const auto& e : kept)
    if (e.first == key) return &e.second;
  // The first value of all is computed in place too, as AsyncValue does.
  if (wait || key.length <= kInPlaceLength || (kept.empty() && key.length <= (1LL << 20))) return keep(key, compute_bounds(key));
  if (!job.valid()) {
    job_key = key;
    job = start_worker([key] {
      Bounds b = compute_bounds(key);
      wake_gui();
      return b;
    });
  }
  request_frame_within(0.05);
  return nullptr;
}

std::string first_negative_text(long long m, long long length) {
  return m < 0 ? "none ≤ L = " + std::to_string(length) : "m = " + std::to_string(m);
}


bool theta_input(const char* label, double& value, const char* tooltip) {
  ImGui::SetNextItemWidth(8.0f * ImGui::GetFontSize());
  double v = value;
  const bool changed = ImGui::InputDouble(label, &v, 0.0, 0.0, "%.6g") && std::isfinite(v) && v > 1.0;
  if (changed) value = v;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  return changed;
}

void numbers_table(long long d, long long L, const pe::ThetaWavelengths& low, const pe::ThetaWavelengths& high,
                   const std::string& low_label, const std::string& high_label) {
  if (!ImGui::BeginTable("##theta-numbers", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
    return;
  const std::string h0 = "d = " + std::to_string(d) + ", L = " + std::to_string(L);
  ImGui::TableSetupColumn(h0.c_str());
  ImGui::TableSetupColumn(low_label.c_str());
  ImGui::TableSetupColumn(high_label.c_str());
  ImGui::TableHeadersRow();
  auto row = [](const char* what, const std::string& a, const std::string& b) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    text_wrapped_unformatted(what);
    ImGui::TableNextColumn();
    text_wrapped_unformatted(a.c_str());
    ImGui::TableNextColumn();
    text_wrapped_unformatted(b.c_str());
  };
  auto count = [](const pe::ThetaWavelengths& t) { return std::to_string(t.pairs_wrapping) + " of " + std::to_string(t.pairs); };
  auto turns = [](const pe::ThetaWavelengths& t) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g", t.slowest_turns);
    return std::string(buf) + (t.slowest_turns >= 1.0 ? " (wraps)" : " (never wraps)");
  };
  row("pairs with wavelength < L (a full turn inside the context)", count(low), count(high));
  row("longest wavelength 2π·θ^((d−2)/d)", pe::short_number(low.longest_wavelength), pe::short_number(high.longest_wavelength));
  row("turns of the slowest pair in L", turns(low), turns(high));
  ImGui::EndTable();
}

}  // namespace

void draw_theta_lesson_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  const long long d = s.rope.head_dim, L = s.length;

  if (ctx.show_widgets()) {
    theta_input("θ_low", s.theta_low, "theta_low: the low base (default 100), > 1");
    same_line_if_fits(8.0f * ImGui::GetFontSize() + ImGui::CalcTextSize(" θ_high").x);
    theta_input("θ_high", s.theta_high, "theta_high: the high base (default 100000), > 1");
    same_line_if_fits(ImGui::CalcTextSize("  θ_high as in:").x);
    ImGui::TextUnformatted("  θ_high as in:");
    const struct {
      const char* label;
      double theta;
      const char* tip;
    } models[] = {{"10⁴ original", 1e4, "The original Transformer and RoFormer: θ = 10000"},
                  {"5·10⁵ Llama 3", 5e5, "Llama 3: rope_theta = 500000"},
                  {"10⁶ Code Llama", 1e6, "Code Llama: rope_theta = 1000000"}};
    for (const auto& m : models) {
      same_line_if_fits(button_width(m.label));
      if (ImGui::Button(m.label)) s.theta_high = m.theta;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.tip);
    }
    same_line_if_fits(button_width("Long context: L = 4096"));
    if (ImGui::Button("Long context: L = 4096")) s.length = 4096;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Sets the length L (a global parameter) to 4096, where a low θ makes every pair wrap.");
  }

  pe::ThetaWavelengths low, high;
  try {
    low = pe::theta_wavelengths(s.theta_low, d, L, "theta_low");
    high = pe::theta_wavelengths(s.theta_high, d, L, "theta_high");
  } catch (const std::exception& e) {
    text_wrapped_unformatted(e.what());
    return;
  }
  const std::string low_label = "θ_low = " + theta_text(s.theta_low), high_label = "θ_high = " + theta_text(s.theta_high);

  char note[900];
  std::snprintf(note, sizeof note,
                "Tutorials sometimes say a low θ suits long contexts and a high θ struggles with them. That is backwards. The slowest pair's "
                "wavelength is 2π·θ^((d−2)/d): with θ = %s at d = %lld it is %s positions, so in a longer context every pair wraps "
                "around and positions far apart look alike — in (a) the curve turns into noise, every far distance scores about "
                "the same. A high θ keeps the slowest pairs from wrapping within the context (θ = %s: %s positions); that is why "
                "Code Llama uses θ = 10⁶ and Llama 3 θ = 5·10⁵.",
                theta_text(s.theta_low).c_str(), d, pe::short_number(low.longest_wavelength).c_str(), theta_text(s.theta_high).c_str(),
                pe::short_number(high.longest_wavelength).c_str());
  // The same lesson in three lines, for a big UI scale on a small screen.
  char short_note[400];
  std::snprintf(short_note, sizeof short_note,
                "A low θ for long contexts is backwards: with a low θ every pair wraps inside a long context (θ = %s, d = %lld: after %s "
                "positions), so far positions look alike. Long-context models raise θ (Code Llama 10⁶, Llama 3 5·10⁵).",
                theta_text(s.theta_low).c_str(), d, pe::short_number(low.longest_wavelength).c_str());

  // Numbers and the note first, then the plots fill what is left: nothing scrolls or is cut.
  const Bounds* bounds = bounds_for(s, ctx.exporting);
  numbers_table(d, L, low, high, low_label, high_label);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const float width = ImGui::GetContentRegionAvail().x;
  auto text_h = [&](const char* t) { return wrapped_text_size(t, width).y + style.ItemSpacing.y; };
  const float plots_min = 12.0f * line_h;
  const bool roomy = ImGui::GetContentRegionAvail().y - text_h(note) - line_h >= plots_min;
  teaching_note(roomy ? note : short_note);

  // One legend for both plots, above them: inside a small plot a legend box hides the curves.
  // Its entries share a line while they fit (any layout: at 2× on a projector the bound runs
  // past the edge otherwise), so the plots below know how many lines it takes.
  const std::string low_entry = "■ " + low_label, high_entry = "■ " + high_label;
  const std::string length_entry = "- - context length L = " + std::to_string(L);
  // Men et al. 2024 on the same line: where each base's B(m) = Σcos(mθ_i) first turns negative
  // (the dashed lines in (a)); the smallest base for L is in the formula strip and the CSV.
  const std::string bound_full =
      bounds ? "B(m) < 0 first at: " + first_negative_text(bounds->first_negative_low, L) + " | " +
                   first_negative_text(bounds->first_negative_high, L) + " (Men et al.)"
             : std::string("B(m) = Σcos(mθ_i): computing…");
  // Where the whole of it does not fit on the line (2× on a projector), the short form does,
  // the whole in its tooltip; a line of its own would push the plots past the bottom. (A
  // phone's page scrolls: there it keeps its words, on lines of its own.)
  auto first_m = [](long long m) { return m < 0 ? std::string("none") : std::to_string(m); };
  const std::string bound_short =
      bounds ? "B < 0: " + first_m(bounds->first_negative_low) + " | " + first_m(bounds->first_negative_high) : bound_full;
  const float gap = 2.0f * ImGui::GetFontSize();
  std::string bound_entry = bound_full;
  const std::string* entries[] = {&low_entry, &high_entry, &length_entry, &bound_entry};
  bool on_line[4] = {false, false, false, false};  // entry k continues the line of k − 1
  float legend_h = line_h, line_w = ImGui::CalcTextSize(low_entry.c_str()).x;
  for (int k = 1; k < 4; ++k) {
    if (k == 3 && !ctx.narrow && line_w + gap + ImGui::CalcTextSize(bound_full.c_str()).x > width &&
        line_w + gap + ImGui::CalcTextSize(bound_short.c_str()).x <= width)
      bound_entry = bound_short;
    const float w = ImGui::CalcTextSize(entries[k]->c_str()).x;
    on_line[k] = line_w + gap + w <= width;
    line_w = on_line[k] ? line_w + gap + w : w;
    if (!on_line[k]) legend_h += k == 3 ? wrapped_text_size(bound_entry.c_str(), width).y + style.ItemSpacing.y : line_h;
  }
  const float plot_h = std::max(ImGui::GetContentRegionAvail().y - legend_h - style.ItemSpacing.y, 5.0f * line_h);
  // Side by side; one above the other in a narrow view (a phone), each the full width.
  const bool stacked = is_narrow_view(ctx, width);
  const ImVec2 half = stacked ? ImVec2(width, std::max((plot_h - style.ItemSpacing.y) * 0.5f, 5.0f * line_h))
                              : ImVec2((width - style.ItemSpacing.x) * 0.5f, plot_h);

  // (a) Expected score of a random vector with itself: how similar two positions Δ apart look.
  static ScoreCache cache;
  const bool log_axis = delta_axis_is_log(s);
  const std::string score_title = "(a) Expected s(Δ)/d, random q = k";
  const ImVec4 low_col = ImGui::ColorConvertU32ToFloat4(kLow), high_col = ImGui::ColorConvertU32ToFloat4(kHigh);
  ImGui::TextColored(low_col, "%s", low_entry.c_str());
  if (on_line[1]) ImGui::SameLine(0.0f, gap);
  ImGui::TextColored(high_col, "%s", high_entry.c_str());
  if (on_line[2]) ImGui::SameLine(0.0f, gap);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kLengthLine), "%s", length_entry.c_str());
  if (on_line[3]) ImGui::SameLine(0.0f, gap);
  ImGui::PushStyleColor(ImGuiCol_Text, style.Colors[ImGuiCol_TextDisabled]);
  text_line_wrapped(bound_entry);
  ImGui::PopStyleColor();
  if (bound_entry != bound_full && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", bound_full.c_str());
  if (plot::begin_plot("##theta-score", half, {.title = score_title.c_str(), .legend = false})) {
    const double max_delta = double(std::max<long long>(L - 1, 1));
    plot::setup_axes({.label = "distance Δ", .scale = log_axis ? plot::Scale::Log : plot::Scale::Linear, .min = log_axis ? 1.0 : 0.0,
                      .max = max_delta},
                     {.label = "score / d", .min = -0.4, .max = 1.05});
    const double x0 = std::max(plot::visible_x_min(), log_axis ? 1.0 : 0.0), x1 = plot::visible_x_max();
    const int n = std::clamp(int(plot::to_pixels(x1, 0).x - plot::to_pixels(x0, 0).x) / 2, 16, 2048);
    if (cache.theta_low != s.theta_low || cache.theta_high != s.theta_high || cache.dim != d || cache.x0 != x0 || cache.x1 != x1 ||
        cache.samples != n || cache.log != log_axis) {
      cache = {s.theta_low, s.theta_high, x0, x1, d, n, log_axis};
      Eigen::ArrayXd deltas(n);
      for (int k = 0; k < n; ++k) {
        const double t = double(k) / double(n - 1);
        deltas[k] = log_axis ? x0 * std::pow(x1 / x0, t) : x0 + (x1 - x0) * t;
      }
      cache.xs = as_vector(deltas);
      cache.low = as_vector(pe::mean_identical_score(low.inv_freq, deltas));
      cache.high = as_vector(pe::mean_identical_score(high.inv_freq, deltas));
    }
    plot::plot_line(low_label.c_str(), cache.xs, cache.low, {.color = kLow, .thickness = 2.0f});
    plot::plot_line(high_label.c_str(), cache.xs, cache.high, {.color = kHigh, .thickness = 2.0f});
    plot::plot_hline("", 0.0, {.color = IM_COL32(128, 128, 128, 120), .thickness = 1.0f, .in_legend = false});
    // Where each base's B(m) first goes negative (Men et al.: it must not within L).
    if (bounds && bounds->first_negative_low > 0)
      plot::plot_vline("B < 0", double(bounds->first_negative_low), {.color = kLow, .thickness = 1.0f, .dashed = true, .in_legend = false});
    if (bounds && bounds->first_negative_high > 0)
      plot::plot_vline("B < 0", double(bounds->first_negative_high), {.color = kHigh, .thickness = 1.0f, .dashed = true, .in_legend = false});
    if (plot::is_plot_hovered()) {
      const double delta = plot::mouse_x();
      Eigen::ArrayXd one(1);
      one << delta;
      plot::hover_text("Δ = %.6g: %s → %.4f, %s → %.4f", delta, low_label.c_str(), pe::mean_identical_score(low.inv_freq, one)[0],
                       high_label.c_str(), pe::mean_identical_score(high.inv_freq, one)[0]);
    }
    plot::end_plot();
  }
  if (!stacked) ImGui::SameLine();
  // (b) Wavelength per pair against the context length.
  if (plot::begin_plot("##theta-wavelength", half, {.title = "(b) Wavelength 2π·θ^(2i/d) per pair", .legend = false})) {
    const std::vector<double> idx = index_axis(low.pairs), wl = as_vector(low.wavelengths), wh = as_vector(high.wavelengths);
    plot::setup_axes({.label = "pair i", .min = -0.5, .max = double(low.pairs) - 0.5},
                     {.label = "positions", .scale = plot::Scale::Log, .min = low.wavelengths[0] / 2,
                      .max = std::max({high.longest_wavelength, low.longest_wavelength, double(L)}) * 3.0});
    plot::plot_line(low_label.c_str(), idx, wl, {.color = kLow, .thickness = 2.0f, .markers = low.pairs <= 64});
    plot::plot_line(high_label.c_str(), idx, wh, {.color = kHigh, .thickness = 2.0f, .markers = low.pairs <= 64});
    plot::plot_hline(("L = " + std::to_string(L)).c_str(), double(L), {.color = kLengthLine, .thickness = 1.5f, .dashed = true});
    if (plot::is_plot_hovered() && low.pairs > 0) {
      const long long i = std::clamp<long long>(std::llround(plot::mouse_x()), 0, low.pairs - 1);
      plot::hover_text("pair %lld: %s → %.6g positions, %s → %.6g positions", i, low_label.c_str(), wl[std::size_t(i)],
                       high_label.c_str(), wh[std::size_t(i)]);
    }
    plot::end_plot();
  }

}

std::string theta_lesson_csv(const AppState& s, const Derived&) {
  const pe::ThetaWavelengths low = pe::theta_wavelengths(s.theta_low, s.rope.head_dim, s.length, "theta_low");
  const pe::ThetaWavelengths high = pe::theta_wavelengths(s.theta_high, s.rope.head_dim, s.length, "theta_high");
  std::ostringstream out;
  out << "# theta lesson: d = " << low.dim << ", L = " << low.length << "; score = expected s(delta)/d for a random q = k\n";
  const long long rows = std::min<long long>(s.length, kMaxCsvRows);
  if (rows < s.length) out << "# " << s.length << " distances sampled to " << rows << " rows\n";
  out << "quantity,index,theta_low,theta_high\n";
  out << "theta,," << csv_number(low.theta) << ',' << csv_number(high.theta) << "\n";
  out << "pairs_wavelength_below_length,," << low.pairs_wrapping << ',' << high.pairs_wrapping << "\n";
  out << "longest_wavelength,," << csv_number(low.longest_wavelength) << ',' << csv_number(high.longest_wavelength) << "\n";
  out << "slowest_pair_turns_in_length,," << csv_number(low.slowest_turns) << ',' << csv_number(high.slowest_turns) << "\n";
  for (long long i = 0; i < low.pairs; ++i) out << "wavelength," << i << ',' << csv_number(low.wavelengths[i]) << ',' << csv_number(high.wavelengths[i]) << "\n";
  Eigen::ArrayXd deltas(rows);
  for (long long k = 0; k < rows; ++k)
    deltas[k] = rows == s.length ? double(k) : std::round(double(k) * double(s.length - 1) / double(rows - 1));
  const Eigen::ArrayXd a = pe::mean_identical_score(low.inv_freq, deltas), b = pe::mean_identical_score(high.inv_freq, deltas);
  for (long long k = 0; k < rows; ++k) out << "score," << csv_number(deltas[k]) << ',' << csv_number(a[k]) << ',' << csv_number(b[k]) << "\n";
  // Men et al. 2024: score = B(m)/(d/2); the first negative m and the smallest base for L (-1: none).
  const Bounds* bounds = bounds_for(s, true);
  out << "first_negative_base_sum,," << bounds->first_negative_low << ',' << bounds->first_negative_high << "\n";
  out << "smallest_base_for_length,," << csv_number(bounds->smallest.theta) << ',' << csv_number(bounds->smallest.theta) << "\n";
  return out.str();
}

namespace {

std::vector<std::string> theta_lesson_formula(const AppState& s, const Derived&) {
  const long long dim = s.rope.head_dim;
  const double lo = 2 * std::numbers::pi * std::pow(s.theta_low, double(dim - 2) / double(dim));
  const double hi = 2 * std::numbers::pi * std::pow(s.theta_high, double(dim - 2) / double(dim));
  const Bounds* b = bounds_for(s, false);
  const std::string bound = b && b->smallest.found ? formatted(";   B ≥ 0 up to L needs θ ≥ %.4g", b->smallest.theta) : "";
  return {"λ_max = 2π·θ^((d−2)/d): a larger θ keeps the slowest pair from wrapping;   Men et al. 2024: "
          "B(m) = Σ_i cos(m·θ_i) = (d/2)·score must stay ≥ 0 for every m ≤ L",
          formatted("d = %lld:  θ = %g → λ_max = %.4g;   θ = %g → λ_max = %.4g   (L = %lld)", dim, s.theta_low, lo,
                    s.theta_high, hi, s.length) + bound};
}

}  // namespace

namespace {
constexpr const char* kAnimatable[] = {"theta_low", "theta_high", "dim", "length"};
}  // namespace

const ViewInfo& theta_lesson_view() {
  static const ViewInfo info{
      .name = "theta-lesson",
      .title = "Theta lesson",
      .summary = "Low vs high θ side by side: relative score and wavelengths (why long-context models raise θ)",
      .group = "Relative",
      .draw = draw_theta_lesson_view,
      .csv = theta_lesson_csv,
      .formula = theta_lesson_formula,
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
