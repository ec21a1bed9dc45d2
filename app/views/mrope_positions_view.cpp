// The (t, h, w) position ids a VLM's language model gives every token of a mixed prompt
// (core's rope_index: Hugging Face get_rope_index, transformers 4 or 5), beside the
// flattened 1D index a text-only rotary would use — the bug of mlx-lm PR #1768, where image
// patches got 1D positions and lost their layout: the patch below is 1 apart in h under
// M-RoPE but W/merge apart in 1D, and a row's last patch is the next row's first one's
// neighbour.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "pe/base/errors.hpp"
#include "views/multimodal_common.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {
namespace {

struct PromptLayout {
  std::vector<pe::PromptItem> items;
  std::vector<long long> first;  // first token of each item
  std::vector<long long> count;  // tokens of each item (after merging)
  pe::RopeIndexOptions options;
  pe::PositionIds ids;
  std::string error;
  unsigned long long version = 0;  // bumps with every recomputation (heatmap uploads)
};

pe::RopeIndexOptions index_options(const AppState& s) {
  pe::RopeIndexOptions o = pe::rope_index_options(s.rope, s.sample_fps);
  o.spatial_merge_size = s.merge_size;
  try {
    o.version = pe::rope_index_version_from_string(s.rope_index, "rope_index");
  } catch (const pe::InvalidArgument&) {
    // validate_state names it; transformers 4 meanwhile.
  }
  return o;
}

// rope_index for the state's prompt, recomputed only when one of its inputs changes.
const PromptLayout& prompt_layout(const AppState& s) {
  static PromptLayout cache;
  static std::string key;
  static unsigned long long version = 0;
  const pe::RopeIndexOptions o = index_options(s);
  std::ostringstream k;
  k << s.prompt << '|' << o.spatial_merge_size << '|' << o.temporal_patch_size << '|' << o.tokens_per_second << '|' << o.sample_fps
    << '|' << int(o.family) << '|' << int(o.version);
  if (k.str() == key) return cache;
  key = k.str();
  cache = {};
  cache.version = ++version;
  cache.options = o;
  try {
    prompt_tokens(s.prompt, s.merge_size);  // the view's own token limit, named errors
    cache.items = pe::parse_prompt_spec(s.prompt);
    cache.ids = pe::rope_index(cache.items, o);
    long long next = 0;
    for (const pe::PromptItem& p : cache.items) {
      const long long n = p.kind == pe::PromptItemKind::Text ? p.tokens : p.t * (p.h / o.spatial_merge_size) * (p.w / o.spatial_merge_size);
      cache.first.push_back(next);
      cache.count.push_back(n);
      next += n;
    }
  } catch (const pe::InvalidArgument& e) {
    cache.error = e.what();
  }
  return cache;
}

long long item_of(const PromptLayout& p, long long token) {
  const auto it = std::upper_bound(p.first.begin(), p.first.end(), token);
  return std::max<long long>(0, static_cast<long long>(it - p.first.begin()) - 1);
}

bool is_vision(const pe::PromptItem& p) { return p.kind != pe::PromptItemKind::Text; }

// Where a patch sits: its item, frame and (row, col) in the merged grid.
struct Patch {
  long long item = -1, frame = 0, row = 0, col = 0, rows = 0, cols = 0;
  bool selected_is_patch = false;  // false: the selected token is text (a stand-in patch is shown)
  long long token(const PromptLayout& p) const { return p.first[std::size_t(item)] + (frame * rows + row) * cols + col; }
};

Patch shown_patch(const PromptLayout& p, long long token) {
  Patch x;
  const long long k = item_of(p, token);
  const long long m = p.options.spatial_merge_size;
  auto grid = [&](long long item) {
    x.item = item;
    x.rows = p.items[std::size_t(item)].h / m;
    x.cols = p.items[std::size_t(item)].w / m;
  };
  if (is_vision(p.items[std::size_t(k)])) {
    grid(k);
    const long long offset = token - p.first[std::size_t(k)];
    x.frame = offset / (x.rows * x.cols);
    x.row = offset % (x.rows * x.cols) / x.cols;
    x.col = offset % x.cols;
    x.selected_is_patch = true;
    return x;
  }
  for (std::size_t j = 0; j < p.items.size(); ++j)
    if (is_vision(p.items[j])) {
      grid(static_cast<long long>(j));
      x.row = x.rows / 2;
      x.col = x.cols / 2;
      return x;
    }
  return x;  // no image or video in the prompt
}

const char* kind_name(pe::PromptItemKind k) { return pe::to_string(k); }

// Applies a new prompt (or merge size) only when it is valid; else returns the message.
std::string try_prompt(AppState& s, const std::string& prompt, long long merge_size) {
  try {
    const long long tokens = prompt_tokens(prompt, merge_size);
    s.prompt = prompt;
    s.merge_size = merge_size;
    s.prompt_token = std::clamp<long long>(s.prompt_token, 0, tokens - 1);
    return "";
  } catch (const pe::InvalidArgument& e) {
    return e.what();
  }
}


void draw_controls(const ViewContext& ctx, AppState& s, const PromptLayout& p) {
  static std::string edit, edit_source, error;
  static long long pending_merge = 0;  // a merge size the prompt does not divide, shown until fixed
  if (edit_source != s.prompt) {  // undo, sessions and the item editor change the prompt too
    edit = edit_source = s.prompt;
    error.clear();
  }
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float prompt_label = ImGui::CalcTextSize("prompt").x + style.ItemInnerSpacing.x;
  if (ctx.narrow) {
    // A phone's line is shorter than a prompt: one item a line (commas shown as line breaks),
    // so the whole prompt shows; the items go back to commas when it is applied.
    std::string lines = edit;
    std::replace(lines.begin(), lines.end(), ',', '\n');
    const float rows = float(std::count(lines.begin(), lines.end(), '\n') + 1);
    ImGui::InputTextMultiline("prompt", &lines,
                              {ImGui::GetContentRegionAvail().x - prompt_label, rows * ImGui::GetTextLineHeight() + 2.0f * style.FramePadding.y});
    std::replace(lines.begin(), lines.end(), '\n', ',');
    edit = lines;
  } else {
    ImGui::SetNextItemWidth(std::max(em * 8.0f, std::min(em * 20.0f, ImGui::GetContentRegionAvail().x - prompt_label)));
    ImGui::InputText("prompt", &edit);
  }
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    error = try_prompt(s, edit, s.merge_size);
    if (error.empty()) edit_source = s.prompt;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("prompt: text:N, image:TxHxW, video:TxHxW separated by commas; grids as the processor reports them\n"
                      "(image_grid_thw: temporal patches × patches before the spatial merge). Enter applies it.");

  long long merge = pending_merge ? pending_merge : s.merge_size;
  const long long step = 1;
  same_line_if_fits(em * 6.0f + ImGui::CalcTextSize("merge_size").x);
  ImGui::SetNextItemWidth(em * 6.0f);
  if (ImGui::InputScalar("merge_size", ImGuiDataType_S64, &merge, &step)) {
    merge = std::clamp<long long>(merge, 1, kMaxMergeSize);
    error = try_prompt(s, s.prompt, merge);
    pending_merge = error.empty() ? 0 : merge;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("merge_size: spatial_merge_size, patches merged per side into one language-model token (2 in\n"
                      "Qwen2-VL, Qwen2.5-VL and Qwen3-VL). Image and video H and W must be divisible by it.");

  int version = s.rope_index == "transformers-5" ? 1 : 0;
  const float index_w = fitted_width(ctx, em * 9.0f, "transformers 4");
  same_line_if_fits(index_w + ImGui::CalcTextSize("rope_index").x);
  ImGui::SetNextItemWidth(index_w);
  if (ImGui::Combo("rope_index", &version, "transformers 4\0transformers 5\0"))
    s.rope_index = version == 1 ? "transformers-5" : "transformers-4";
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("rope_index: get_rope_index's rule. transformers 4 (the models' release code, vLLM): text after an\n"
                      "image or video starts at its largest id + 1. transformers 5: at its start + max(H, W) / merge_size.");

  if (p.options.family == pe::RopeIndexFamily::Qwen25VL) {
    same_line_if_fits(em * 6.0f + ImGui::CalcTextSize("sample_fps").x);
    ImGui::SetNextItemWidth(em * 6.0f);
    double sample_fps = s.sample_fps;
    if (ImGui::InputDouble("sample_fps", &sample_fps, 0.0, 0.0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue) && sample_fps >= 1e-3 && sample_fps <= 1e6)
      s.sample_fps = sample_fps;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("sample_fps: sampled video frames per second. Qwen2.5-VL's t id of frame i is\n"
                        "i · (temporal_patch_size / sample_fps) · tokens_per_second (seconds, not frame numbers).");
  }

  // The selected token's item, editable: its grid (or text length) rewrites the prompt.
  if (p.error.empty() && !p.items.empty()) {
    const long long k = item_of(p, s.prompt_token);
    pe::PromptItem item = p.items[std::size_t(k)];
    std::vector<pe::PromptItem> items = p.items;
    const std::string label = formatted("item %lld (%s)", k + 1, kind_name(item.kind));
    bool changed = false;
    if (is_vision(item)) {
      long long v[3] = {item.t, item.h, item.w};
      same_line_if_fits(em * 11.0f + ImGui::CalcTextSize(label.c_str()).x + ImGui::CalcTextSize(" T, H, W").x);
      ImGui::SetNextItemWidth(em * 11.0f);
      if (ImGui::InputScalarN((label + " T, H, W").c_str(), ImGuiDataType_S64, v, 3, nullptr, nullptr, "%lld",
                              ImGuiInputTextFlags_EnterReturnsTrue)) {
        item.t = v[0], item.h = v[1], item.w = v[2];
        changed = true;
      }
    } else {
      long long n = item.tokens;
      same_line_if_fits(em * 6.0f + ImGui::CalcTextSize(label.c_str()).x + ImGui::CalcTextSize(" tokens").x);
      ImGui::SetNextItemWidth(em * 6.0f);
      if (ImGui::InputScalar((label + " tokens").c_str(), ImGuiDataType_S64, &n, &step)) {
        item.tokens = n;
        changed = true;
      }
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The grid (T temporal patches, H × W patches before merging) or length of the item the selected\n"
                        "token belongs to; the prompt is rewritten to match.");
    if (changed) {
      items[std::size_t(k)] = item;
      bool positive = item.kind == pe::PromptItemKind::Text ? item.tokens >= 1 : (item.t >= 1 && item.h >= 1 && item.w >= 1);
      error = positive ? try_prompt(s, pe::format_prompt_spec(items), s.merge_size)
                       : "prompt: item " + std::to_string(k + 1) + ": sizes are whole numbers >= 1";
    }
  }
  if (!error.empty()) error_text("Not applied: " + error);
}

// One axis's ids over the visible tokens: a line while tokens are fewer than the pixels,
// else each pixel column's exact min … max (a 60k-token sawtooth as a line is a wall of
// vertices that shows nothing more).
void plot_ids(const char* label, const std::vector<long long>& ids, ImU32 color, bool markers) {
  const long long n = static_cast<long long>(ids.size());
  const long long first = std::clamp<long long>(static_cast<long long>(std::floor(plot::visible_x_min())), 0, n - 1);
  const long long last = std::clamp<long long>(static_cast<long long>(std::ceil(plot::visible_x_max())), 0, n - 1);
  const int pixels = std::max(2, int(plot::to_pixels(double(last), 0).x - plot::to_pixels(double(first), 0).x));
  if (last - first + 1 <= 2LL * pixels) {
    std::vector<double> xs, ys;
    for (long long k = first; k <= last; ++k) {
      xs.push_back(double(k));
      ys.push_back(double(ids[std::size_t(k)]));
    }
    plot::plot_line(label, xs, ys, {.color = color, .markers = markers});
    return;
  }
  std::vector<double> xs(static_cast<std::size_t>(pixels)), lo(xs.size()), hi(xs.size());
  const double step = double(last - first + 1) / double(pixels);
  for (int c = 0; c < pixels; ++c) {
    const long long a = first + static_cast<long long>(c * step), b = std::min(last, first + static_cast<long long>((c + 1) * step));
    long long mn = ids[std::size_t(a)], mx = mn;
    for (long long k = a; k <= b; ++k) mn = std::min(mn, ids[std::size_t(k)]), mx = std::max(mx, ids[std::size_t(k)]);
    xs[std::size_t(c)] = 0.5 * double(a + b);
    lo[std::size_t(c)] = double(mn) - 0.5;
    hi[std::size_t(c)] = double(mx) + 0.5;
  }
  plot::plot_shaded(label, xs, lo, hi, {.color = color});
}

void draw_ids(ImVec2 size, const PromptLayout& p, const Patch& x, AppState& s) {
  const long long n = p.ids.tokens();
  if (!plot::begin_plot("##mrope-ids", size,
                        {.title = "Position ids per token: M-RoPE's (t, h, w) against the flattened 1D index"}))
    return;
  plot::setup_axes({.label = "token", .min = -0.5, .max = double(n) - 0.5}, {.label = "position id"});
  const pe::PositionIds& ids = p.ids;
  for (std::size_t j = 0; j < p.items.size(); ++j)
    if (is_vision(p.items[j]))
      plot::plot_xband("##vision", double(p.first[j]) - 0.5, double(p.first[j] + p.count[j]) - 0.5, IM_COL32(128, 128, 128, 40));
  const bool markers = n <= 160;
  const double ends[] = {0.0, double(n - 1)};
  plot::plot_line("flattened 1D: the token index", ends, ends, {.color = IM_COL32(140, 140, 140, 255), .thickness = 1.5f, .dashed = true});
  plot_ids("w (column)", ids.w, axis_color(pe::kAxisW), markers);
  plot_ids("h (row)", ids.h, axis_color(pe::kAxisH), markers);
  plot_ids("t (time / text)", ids.t, axis_color(pe::kAxisT), markers);
  // Each image or video named on its band, where the band is wide enough.
  const long long m = p.options.spatial_merge_size;
  int images = 0, videos = 0;
  for (std::size_t j = 0; j < p.items.size(); ++j) {
    const pe::PromptItem& it = p.items[j];
    if (!is_vision(it)) continue;
    const int number = it.kind == pe::PromptItemKind::Image ? ++images : ++videos;
    const std::string text = formatted("%s %d: %lld×%lld×%lld", kind_name(it.kind), number, it.t, it.h / m, it.w / m);
    const float band = plot::to_pixels(double(p.first[j] + p.count[j]) - 0.5, 0).x - plot::to_pixels(double(p.first[j]) - 0.5, 0).x;
    if (ImGui::CalcTextSize(text.c_str()).x + 8.0f * plot::pixel_scale() < band)
      plot::plot_text(double(p.first[j]) - 0.5, plot::visible_y_max(), text.c_str(), 0, {4.0f, 2.0f});
  }
  const std::size_t k0 = std::size_t(s.prompt_token);
  const double sel[] = {double(s.prompt_token)};
  const double sel_t[] = {double(ids.t[k0])}, sel_h[] = {double(ids.h[k0])}, sel_w[] = {double(ids.w[k0])};
  plot::plot_vline("##selected", sel[0], {.color = IM_COL32(128, 128, 128, 200), .thickness = 1.0f});
  plot::plot_points("##sel-t", sel, sel_t, {.color = axis_color(pe::kAxisT), .in_legend = false});
  plot::plot_points("##sel-h", sel, sel_h, {.color = axis_color(pe::kAxisH), .in_legend = false});
  plot::plot_points("##sel-w", sel, sel_w, {.color = axis_color(pe::kAxisW), .in_legend = false});
  if (plot::is_plot_hovered() && n > 0) {
    const long long k = std::clamp<long long>(std::llround(plot::mouse_x()), 0, n - 1);
    plot::hover_text("token %lld (%s, item %lld): (t, h, w) = (%lld, %lld, %lld); 1D id %lld", k, kind_name(ids.kind[std::size_t(k)]),
                     item_of(p, k) + 1, ids.t[std::size_t(k)], ids.h[std::size_t(k)], ids.w[std::size_t(k)], k);
    plot::hover_text("click: select this token");
    if (plot_clicked()) s.prompt_token = k;
  }
  (void)x;
  plot::end_plot();
}

// One frame of an image or video as a grid of cells coloured by distance from the selected
// patch: under M-RoPE √(Δh² + Δw²) of the ids, flattened |Δp| of the 1D indices.
void draw_patch_grid(const char* id, ImVec2 size, const PromptLayout& p, const Patch& x, bool flattened, AppState& s,
                     plot::Colormap cmap) {
  struct Cache {
    std::string key;
    std::vector<float> values;
    float vmax = 1.0f;
    unsigned long long version = 0;
  };
  static Cache caches[2];
  Cache& cache = caches[flattened ? 1 : 0];
  const long long rows = x.rows, cols = x.cols, selected = x.token(p);
  const std::string key = formatted("%llu|%lld|%lld|%lld|%lld", p.version, x.item, x.frame, x.row, x.col);
  if (key != cache.key) {
    cache.key = key;
    cache.values.resize(std::size_t(rows * cols));
    cache.vmax = 1.0f;
    for (long long r = 0; r < rows; ++r)
      for (long long c = 0; c < cols; ++c) {
        const long long token = p.first[std::size_t(x.item)] + (x.frame * rows + r) * cols + c;
        const double v = flattened ? double(std::llabs(token - selected))
                                   : std::hypot(double(p.ids.h[std::size_t(token)] - p.ids.h[std::size_t(selected)]),
                                                double(p.ids.w[std::size_t(token)] - p.ids.w[std::size_t(selected)]));
        cache.values[std::size_t(r * cols + c)] = float(v);
        cache.vmax = std::max(cache.vmax, float(v));
      }
    ++cache.version;
  }
  const pe::PromptItem& item = p.items[std::size_t(x.item)];
  const long long first_frame_token = p.first[std::size_t(x.item)] + x.frame * rows * cols;
  std::string title =
      flattened ? formatted("Flattened 1D ids p; colour |Δp| (0 … %.0f)", double(cache.vmax))
                : formatted("M-RoPE ids (h, w), t = %lld; colour √(Δh² + Δw²) (0 … %.3g)", p.ids.t[std::size_t(first_frame_token)],
                            double(cache.vmax));
  if (ImGui::CalcTextSize(title.c_str()).x * 1.15f > size.x)  // projector scales: the short form
    title = flattened ? std::string("flattened 1D ids p")
                      : formatted("M-RoPE ids (h, w), t = %lld", p.ids.t[std::size_t(first_frame_token)]);
  if (!plot::begin_plot(id, size, {.title = title.c_str(), .legend = false, .equal_aspect = true})) return;
  plot::setup_axes({.label = "column", .min = -0.5, .max = double(cols) - 0.5, .format = "%.0f"},
                   {.label = item.kind == pe::PromptItemKind::Video ? "row (this frame)" : "row", .min = -0.5,
                    .max = double(rows) - 0.5, .invert = true, .format = "%.0f"});
  plot::plot_value_heatmap(id, {.values = cache.values, .rows = int(rows), .columns = int(cols), .x0 = -0.5,
                                .x1 = double(cols) - 0.5, .y0 = -0.5, .y1 = double(rows) - 0.5, .colormap = cmap,
                                .vmin = 0.0, .vmax = double(cache.vmax), .version = cache.version, .y_down = true});
  const float cell_w = plot::to_pixels(1.0, 0).x - plot::to_pixels(0.0, 0).x;
  const float cell_h = std::abs(plot::to_pixels(0, 1.0).y - plot::to_pixels(0, 0.0).y);
  if (cell_h > ImGui::GetFontSize() * 1.1f && rows * cols <= 4096) {
    for (long long r = 0; r < rows; ++r)
      for (long long c = 0; c < cols; ++c) {
        const long long token = first_frame_token + r * cols + c;
        const std::string text = flattened ? std::to_string(token)
                                           : formatted("%lld,%lld", p.ids.h[std::size_t(token)], p.ids.w[std::size_t(token)]);
        const double v = cache.values[std::size_t(r * cols + c)] / std::max(cache.vmax, 1e-30f);
        centred_label(double(c), double(r), text.c_str(), text_color_on(plot::colormap_color(cmap, v)), cell_w - 4.0f);
      }
  }
  // The selected patch (solid) and the one below it (dashed).
  auto outline = [&](long long r, long long c, ImU32 color, bool dashed) {
    const double xs[] = {c - 0.5, c + 0.5, c + 0.5, c - 0.5, c - 0.5}, ys[] = {r - 0.5, r - 0.5, r + 0.5, r + 0.5, r - 0.5};
    plot::plot_line("##outline", xs, ys, {.color = color, .thickness = 3.0f, .dashed = dashed, .in_legend = false});
  };
  outline(x.row, x.col, IM_COL32(240, 80, 40, 255), false);
  if (x.row + 1 < rows) outline(x.row + 1, x.col, IM_COL32(240, 80, 40, 255), true);
  if (plot::is_plot_hovered()) {
    const long long r = std::llround(plot::mouse_y()), c = std::llround(plot::mouse_x());
    if (r >= 0 && r < rows && c >= 0 && c < cols) {
      const std::size_t token = std::size_t(first_frame_token + r * cols + c);
      plot::hover_text("row %lld, col %lld = token %zu: (t, h, w) = (%lld, %lld, %lld), 1D id %zu", r, c, token, p.ids.t[token],
                       p.ids.h[token], p.ids.w[token], token);
      plot::hover_text("%s from the selected patch: %.4g", flattened ? "|Δp|" : "√(Δh² + Δw²)",
                       double(cache.values[std::size_t(r * cols + c)]));
      plot::hover_text("click: select this patch");
      if (plot_clicked()) s.prompt_token = static_cast<long long>(token);
    }
  }
  plot::end_plot();
}

// The neighbour arithmetic under both position schemes, for the selected patch.
std::vector<std::string> neighbour_lines(const PromptLayout& p, const Patch& x) {
  std::vector<std::string> out;
  const auto& ids = p.ids;
  const long long sel = x.token(p);
  const long long m = p.options.spatial_merge_size;
  const pe::PromptItem& item = p.items[std::size_t(x.item)];
  int ordinal = 0;  // image 1, 2, ... / video 1, 2, ...
  for (long long j = 0; j <= x.item; ++j) ordinal += p.items[std::size_t(j)].kind == item.kind ? 1 : 0;
  out.push_back(formatted("%s patch (row %lld, col %lld%s) of %s %d (prompt item %lld) = token %lld: M-RoPE ids (t, h, w) = "
                          "(%lld, %lld, %lld), 1D id %lld.",
                          x.selected_is_patch ? "Selected:" : "The selected token is text; showing the centre", x.row, x.col,
                          item.kind == pe::PromptItemKind::Video ? formatted(", frame %lld", x.frame).c_str() : "",
                          kind_name(item.kind), ordinal, x.item + 1, sel, ids.t[std::size_t(sel)], ids.h[std::size_t(sel)],
                          ids.w[std::size_t(sel)], sel));
  if (x.row + 1 < x.rows) {
    const long long below = sel + x.cols;
    out.push_back(formatted("The patch below (dashed) is 1 apart on h under M-RoPE (Δ(t, h, w) = (%lld, %lld, %lld)), but "
                            "Δp = %lld = W / merge_size = %lld / %lld in 1D.",
                            ids.t[std::size_t(below)] - ids.t[std::size_t(sel)], ids.h[std::size_t(below)] - ids.h[std::size_t(sel)],
                            ids.w[std::size_t(below)] - ids.w[std::size_t(sel)], below - sel, item.w, m));
  }
  if (x.rows > 1 && x.cols > 1) {
    const long long row = std::min(x.row, x.rows - 2);
    const long long end = p.first[std::size_t(x.item)] + (x.frame * x.rows + row) * x.cols + x.cols - 1, start = end + 1;
    out.push_back(formatted("Row %lld's last patch and row %lld's first are Δp = 1 apart in 1D — neighbours — but "
                            "Δ(h, w) = (%lld, %lld) under M-RoPE: opposite edges of the image.",
                            row, row + 1, ids.h[std::size_t(start)] - ids.h[std::size_t(end)],
                            ids.w[std::size_t(start)] - ids.w[std::size_t(end)]));
  }
  return out;
}

std::string config_note(const AppState& s) {
  const char* consequence = "Code that picks the rotary by rope_type alone builds plain 1D RoPE, and image patches then get "
                            "the flattened ids on the right (mlx-lm PR #1768: no error, just worse answers).";
  for (const std::string& n : s.rope.multimodal.notes)
    if (n.find("says \"default\"") != std::string::npos) return "This config: " + n + ". " + consequence;
  return std::string("Qwen3-VL and Qwen3.5 configs say rope_type \"default\" and carry mrope_section: that is M-RoPE all the "
                     "same. ") + consequence;
}

// The neighbour arithmetic in one short sentence, for small windows.
std::string short_neighbour_line(const PromptLayout& p, const Patch& x) {
  if (x.rows < 2 || x.cols < 2) return "";
  const auto& ids = p.ids;
  const long long sel = x.token(p), below = sel + (x.row + 1 < x.rows ? x.cols : -x.cols);
  const long long row = std::min(x.row, x.rows - 2);
  const long long end = p.first[std::size_t(x.item)] + (x.frame * x.rows + row) * x.cols + x.cols - 1;
  return formatted("Next row: Δh = 1 under M-RoPE, Δp = %lld in 1D. Row end → next row start: Δp = 1 in 1D, "
                   "Δ(h, w) = (%lld, %lld) under M-RoPE.",
                   std::llabs(below - sel), ids.h[std::size_t(end + 1)] - ids.h[std::size_t(end)],
                   ids.w[std::size_t(end + 1)] - ids.w[std::size_t(end)]);
}

void draw_mrope_positions_view(ViewContext& ctx) {
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  AppState& s = ctx.state;
  const PromptLayout& p = prompt_layout(s);
  if (ctx.show_widgets()) draw_controls(ctx, s, p);
  if (!p.error.empty() || p.ids.tokens() == 0) {
    error_text("Cannot lay out the prompt: " + p.error);
    return;
  }
  s.prompt_token = std::clamp<long long>(s.prompt_token, 0, p.ids.tokens() - 1);
  const Patch x = shown_patch(p, s.prompt_token);
  const bool grids = x.item >= 0;
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  const float avail_h = ImGui::GetContentRegionAvail().y;
  const float plots_min = plot_height_for(4.0f) + (grids ? plot_height_for(4.0f) + gap : 0.0f);
  // The full explanation at the desk; one line of it and a short note on a projector.
  std::vector<std::string> lines = grids ? neighbour_lines(p, x) : std::vector<std::string>{};
  std::string note = config_note(s);
  auto height = [&](const std::vector<std::string>& ls, const std::string& n) {
    float h = n.empty() ? 0.0f : teaching_note_height(n.c_str());
    for (const auto& l : ls) h += teaching_note_height(l.c_str());
    return h;
  };
  if (height(lines, note) > avail_h - plots_min) {
    lines = grids ? std::vector<std::string>{short_neighbour_line(p, x)} : std::vector<std::string>{};
    note = fitting_note({"rope_type \"default\" with mrope_section is still M-RoPE; keyed on rope_type alone, patches get the "
                         "1D ids on the right (mlx-lm PR #1768)."},
                        avail_h - plots_min - height(lines, ""));
    if (height(lines, note) > avail_h - plots_min) lines.clear();
  }
  const float plots_h = avail_h - height(lines, note);
  const float ids_h = grids ? std::max(plot_height_for(3.5f), (plots_h - gap) * 0.38f) : plots_h;
  draw_ids({ctx.size.x, ids_h}, p, x, s);
  if (grids) {
    const float h = plots_h - ids_h - gap;
    const float w = (ctx.size.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    const plot::Colormap cmap = s.colormap == ColormapChoice::Cividis ? plot::Colormap::Cividis : plot::Colormap::Viridis;
    draw_patch_grid("##mrope-grid", {w, h}, p, x, false, s, cmap);
    ImGui::SameLine();
    draw_patch_grid("##flat-grid", {w, h}, p, x, true, s, cmap);
    for (const auto& l : lines) text_wrapped_unformatted(l.c_str());
  }
  if (!note.empty()) teaching_note(note.c_str());
}

std::string mrope_positions_csv(const AppState& s, const Derived&) {
  const PromptLayout& p = prompt_layout(s);
  if (!p.error.empty()) throw pe::InvalidArgument("prompt", s.prompt, p.error);
  std::ostringstream out;
  out << "# prompt " << s.prompt << ", merge_size " << s.merge_size << ", get_rope_index " << pe::to_string(p.options.family)
      << " " << pe::to_string(p.options.version) << ", rope_delta " << p.ids.rope_delta << "\n";
  const std::vector<long long> tokens = sampled_positions(p.ids.tokens(), out);
  out << "token,kind,item,t,h,w,index_1d\n";
  for (long long k : tokens) {
    const std::size_t j = std::size_t(k);
    out << k << ',' << kind_name(p.ids.kind[j]) << ',' << item_of(p, k) + 1 << ',' << p.ids.t[j] << ',' << p.ids.h[j] << ','
        << p.ids.w[j] << ',' << k << "\n";
  }
  return out.str();
}

std::vector<std::string> mrope_positions_formula(const AppState& s, const Derived&) {
  const PromptLayout& p = prompt_layout(s);
  std::string numbers = "—";
  if (p.error.empty() && p.ids.tokens() > 0) {
    const std::size_t k = std::size_t(std::clamp<long long>(s.prompt_token, 0, p.ids.tokens() - 1));
    numbers = formatted("token %zu: (t, h, w) = (%lld, %lld, %lld), 1D %zu;  %lld tokens, largest id %lld, rope_delta %lld",
                        k, p.ids.t[k], p.ids.h[k], p.ids.w[k], k, p.ids.tokens(), p.ids.tokens() + p.ids.rope_delta - 1,
                        p.ids.rope_delta);
  }
  const bool v5 = p.options.version == pe::RopeIndexVersion::Transformers5;
  return {std::string("text: t = h = w = next + j;  patch (f, r, c): (t, h, w) = start + (f, r, c);  next = ") +
              (v5 ? "start + max(H, W) / merge_size (transformers 5)" : "max id + 1 (transformers 4)") + ";  1D: p = token",
          numbers};
}

void mrope_positions_step(AppState& s, int delta) {
  long long tokens = 1;
  try {
    tokens = prompt_tokens(s.prompt, s.merge_size);
  } catch (const pe::InvalidArgument&) {
  }
  s.prompt_token = std::clamp<long long>(s.prompt_token + delta, 0, tokens - 1);
}

constexpr const char* kAnimatable[] = {"prompt_token", "merge_size", "sample_fps"};

}  // namespace

const ViewInfo& mrope_positions_view() {
  static const ViewInfo info{
      .name = "mrope-positions",
      .title = "Position ids",
      .summary = "(t, h, w) position ids of a text/image/video prompt (get_rope_index) against flattened 1D ids",
      .group = "Multimodal",
      .draw = draw_mrope_positions_view,
      .csv = mrope_positions_csv,
      .formula = mrope_positions_formula,
      .step = mrope_positions_step,
      .step_help = "mrope-positions: previous / next token",
      .animatable = kAnimatable,
      .model_rope = true,
  };
  return info;
}

}  // namespace app
