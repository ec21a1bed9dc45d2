// The per-layer plan (issue 15): models mix layers — sliding-window layers with their own
// base (Gemma 2/3 rope_local_base_freq), NoPE layers (Llama 4 no_rope_layers, Cohere 2's
// global layers), layer_types with per-type rope_parameters, MLA's decoupled rotary dims.
// A strip with one cell per layer shows the pattern at a glance; the table below gives
// each layer's numbers. Clicking a layer (or ← / →) makes its RoPE the current config
// (an undoable step, like any parameter change).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "pe/models/inspection_text.hpp"
#include "plot/space_wrap.hpp"
#include "state/derived.hpp"
#include "state/model_inspection.hpp"
#include "views/layer_pick.hpp"
#include "views/view.hpp"
#include "views/view_csv.hpp"

namespace app {
namespace {

enum class Kind { NoPE, Sliding, Full };

Kind kind_of(const pe::LayerRow& r) { return !r.rotary ? Kind::NoPE : r.window > 0 ? Kind::Sliding : Kind::Full; }

// Colours that read on both themes (and in grey-scale print: three distinct lightnesses).
ImU32 kind_color(Kind k) {
  switch (k) {
    case Kind::NoPE: return IM_COL32(150, 150, 150, 255);
    case Kind::Sliding: return IM_COL32(70, 140, 230, 255);
    case Kind::Full: return IM_COL32(235, 140, 40, 255);
  }
  return 0;
}

const char* kind_name(Kind k) { return k == Kind::NoPE ? "NoPE (no rotation)" : k == Kind::Sliding ? "windowed (sliding or chunked)" : "full attention"; }

// Whether layer `r`'s RoPE is the configuration on screen.
bool is_current(const AppState& s, const pe::LayerPlan& plan, const pe::LayerRow& r) {
  return r.rotary && rope_input_key(plan.config_of(r), 0) == rope_input_key(s.rope, 0);
}

// Makes layer `r`'s RoPE current (the source stays: the inspector names what changed).
bool apply_layer(AppState& s, const pe::LayerPlan& plan, const pe::LayerRow& r) {
  if (!r.rotary) return false;
  s.rope = plan.config_of(r);
  s.preset.clear();
  s.pair = std::min<long long>(s.pair, std::max<long long>(s.rope.rotary_dim() / 2 - 1, 0));
  return true;
}

void layer_tooltip(const pe::LayerRow& r) {
  ImGui::SetTooltip("layer %lld: %s%s", r.index, pe::describe_layer(r).c_str(), r.rotary ? "\nclick: make it the current config" : "");
}

// One cell per layer, coloured by kind, current layers outlined; returns the clicked layer.
const pe::LayerRow* layer_strip(const AppState& s, const pe::LayerPlan& plan, float width, bool interactive) {
  const float em = ImGui::GetFontSize();
  const std::size_t n = plan.rows.size();
  if (n == 0) return nullptr;
  const float cell = std::max(width / float(n), 2.0f);
  const float h = 2.2f * em;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const pe::LayerRow* clicked = nullptr;
  ImGui::InvisibleButton("##layer-strip", {cell * float(n), h});
  const bool hovered = interactive && ImGui::IsItemHovered();
  const long long hovered_index = hovered ? std::clamp<long long>(static_cast<long long>((ImGui::GetIO().MousePos.x - at.x) / cell), 0, (long long)n - 1) : -1;
  if (hovered && ImGui::IsItemClicked()) clicked = &plan.rows[std::size_t(hovered_index)];
  const ImU32 outline = ImGui::GetColorU32(ImGuiCol_Text);
  for (std::size_t i = 0; i < n; ++i) {
    const pe::LayerRow& r = plan.rows[i];
    const ImVec2 a(at.x + cell * float(i), at.y), b(at.x + cell * float(i + 1), at.y + h);
    // A one-pixel gap between cells when they are wide enough to keep it.
    dl->AddRectFilled(a, {b.x - (cell >= 6.0f ? 1.0f : 0.0f), b.y}, kind_color(kind_of(r)));
    if (is_current(s, plan, r)) dl->AddRect({a.x, a.y - 3.0f}, {b.x - 1.0f, b.y + 3.0f}, outline, 0.0f, 0, 2.0f);
  }
  if (hovered_index >= 0) layer_tooltip(plan.rows[std::size_t(hovered_index)]);
  // Layer numbers under the strip every so often.
  const long long step = std::max<long long>(1, (long long)std::ceil(3.0f * em / cell));
  for (long long i = 0; i < (long long)n; i += step) {
    const std::string label = std::to_string(i);
    dl->AddText({at.x + cell * float(i), at.y + h + 0.2f * em}, ImGui::GetColorU32(ImGuiCol_TextDisabled), label.c_str());
  }
  ImGui::Dummy({1, 1.3f * em});
  return clicked;
}

void legend(const pe::LayerPlan& plan) {
  int counts[3] = {0, 0, 0};
  for (const auto& r : plan.rows) ++counts[int(kind_of(r))];
  bool first = true;
  for (Kind k : {Kind::Sliding, Kind::Full, Kind::NoPE}) {
    if (!counts[int(k)]) continue;
    if (!first) ImGui::SameLine(0, ImGui::GetFontSize());
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float e = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled({p.x, p.y + e * 0.15f}, {p.x + e * 0.7f, p.y + e * 0.85f}, kind_color(k));
    ImGui::Dummy({e * 0.8f, e});
    ImGui::SameLine();
    ImGui::Text("%s: %d", kind_name(k), counts[int(k)]);
  }
}

const pe::LayerRow* layer_table(const AppState& s, const pe::LayerPlan& plan, bool interactive, bool narrow) {
  const pe::LayerRow* clicked = nullptr;
  // Every column as wide as its header or widest value (no header is cut to "…", no gap
  // after a short column); the table is only as wide as its columns.
  const float pad = 2.0f * ImGui::GetStyle().CellPadding.x;
  float table_w = 0.0f;
  auto width = [&](const char* header, const char* widest) {
    return std::max(ImGui::CalcTextSize(header).x, ImGui::CalcTextSize(widest).x) + pad;
  };
  const struct {
    const char* header;
    const char* widest;
  } columns[] = {{"layer", "0000"},  {"attention", "chunked"},          {"RoPE", "NoPE"},
                 {"θ", "100000000"}, {"scaling", "proportional"},       {"window", "whole context"},
                 {"rotary / q·k dims", "8192 / 8192"}};
  for (const auto& c : columns) table_w += width(c.header, c.widest) + ImGui::GetStyle().ItemInnerSpacing.x;
  table_w += ImGui::GetStyle().ScrollbarSize;
  // Wider than the view in the narrow layout (a phone): the columns keep their widths and the
  // table scrolls sideways.
  const bool sideways = narrow && table_w > ImGui::GetContentRegionAvail().x;
  table_w = std::min(table_w, ImGui::GetContentRegionAvail().x);
  if (!ImGui::BeginTable("##layers", 7, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                            (sideways ? ImGuiTableFlags_ScrollX : 0),
                         {table_w, 0.0f}))
    return nullptr;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const auto& c : columns) ImGui::TableSetupColumn(c.header, ImGuiTableColumnFlags_WidthFixed, width(c.header, c.widest));
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;  // 100+ layers: only the visible rows are laid out
  clipper.Begin(int(plan.rows.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const pe::LayerRow& r = plan.rows[std::size_t(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string id = std::to_string(r.index) + "##layer-row";
      const ImGuiSelectableFlags flags = ImGuiSelectableFlags_SpanAllColumns | (r.rotary && interactive ? 0 : ImGuiSelectableFlags_Disabled);
      if (ImGui::Selectable(id.c_str(), is_current(s, plan, r), flags)) clicked = &r;
      if (ImGui::IsItemHovered()) layer_tooltip(r);
      ImGui::TableNextColumn();
      // "sliding_attention" → "sliding": the column stays narrow at projector scales (the
      // tooltip and the CSV keep the config's own word).
      const std::string attention = r.attention.ends_with("_attention") ? r.attention.substr(0, r.attention.size() - 10) : r.attention;
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kind_color(kind_of(r))), "%s", attention.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.rotary ? "yes" : "NoPE");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.rotary ? pe::plain_number(r.theta).c_str() : "—");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.rotary ? pe::to_string(r.scaling) : "—");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.window > 0 ? std::to_string(r.window).c_str() : "whole context");
      ImGui::TableNextColumn();
      ImGui::Text("%lld / %lld", r.rotary ? r.rotary_dims : 0LL, r.qk_dims);
    }
  ImGui::EndTable();
  return clicked;
}

// ---- A model that does not rotate (issue 33): what each layer of each stack holds.

ImU32 role_color(pe::LayerPositionRole r) {
  switch (r) {
    case pe::LayerPositionRole::OwnsTable: return IM_COL32(235, 140, 40, 255);
    case pe::LayerPositionRole::SharesTable: return IM_COL32(70, 140, 230, 255);
    case pe::LayerPositionRole::SameBias: return IM_COL32(110, 185, 120, 255);
    case pe::LayerPositionRole::NoPositions: return IM_COL32(150, 150, 150, 255);
  }
  return 0;
}

void stack_strip(const pe::StackPositions& stack, float width) {
  const float em = ImGui::GetFontSize();
  const std::size_t n = stack.layers.size();
  ImGui::Text("%s%s%s: %zu layers, %s%s", stack.stack.empty() ? "" : stack.stack.c_str(), stack.stack.empty() ? "" : " ",
              pe::to_string(stack.family), n, stack.input.empty() ? "nothing added to the input" : stack.input.c_str(),
              stack.input.empty() ? "" : " added before layer 0");
  if (n == 0) return;
  // The input cell first (the table added to the embeddings), then one cell per layer.
  const float input_w = stack.input.empty() ? 0.0f : 3.0f * em;
  const float cell = std::max((width - input_w) / float(n), 2.0f);
  const float h = 2.0f * em;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::InvisibleButton(("##strip-" + stack.stack).c_str(), {input_w + cell * float(n), h});
  const bool hovered = ImGui::IsItemHovered();
  if (input_w > 0) {
    const bool learned = stack.input.rfind("learned", 0) == 0;
    dl->AddRectFilled(at, {at.x + input_w - 2.0f, at.y + h},
                      learned ? role_color(pe::LayerPositionRole::OwnsTable) : role_color(pe::LayerPositionRole::NoPositions));
    dl->AddText({at.x + 0.3f * em, at.y + 0.45f * em}, IM_COL32(20, 20, 20, 255), "emb");
  }
  for (std::size_t i = 0; i < n; ++i) {
    const ImVec2 a(at.x + input_w + cell * float(i), at.y);
    dl->AddRectFilled(a, {a.x + cell - (cell >= 6.0f ? 1.0f : 0.0f), a.y + h}, role_color(stack.layers[i]));
  }
  if (hovered) {
    const float x = ImGui::GetIO().MousePos.x - at.x;
    if (x < input_w) ImGui::SetTooltip("%s, added to the token embeddings before layer 0", stack.input.c_str());
    else {
      const std::size_t i = std::min(n - 1, std::size_t(std::max(0.0f, (x - input_w) / cell)));
      ImGui::SetTooltip("%slayer %zu: %s", stack.stack.empty() ? "" : (stack.stack + " ").c_str(), i, pe::to_string(stack.layers[i]));
    }
  }
  const long long step = std::max<long long>(1, (long long)std::ceil(3.0f * em / cell));
  for (long long i = 0; i < (long long)n; i += step)
    dl->AddText({at.x + input_w + cell * float(i), at.y + h + 0.2f * em}, ImGui::GetColorU32(ImGuiCol_TextDisabled),
                std::to_string(i).c_str());
  ImGui::Dummy({1, 1.3f * em});
}

void draw_family_layers(ViewContext& ctx, const pe::PositionEncodingInfo& e) {
  const std::vector<pe::StackPositions> stacks = pe::position_layer_roles(e);
  for (const auto& stack : stacks) stack_strip(stack, ctx.size.x);
  bool first = true;
  for (pe::LayerPositionRole r : {pe::LayerPositionRole::OwnsTable, pe::LayerPositionRole::SharesTable,
                                  pe::LayerPositionRole::SameBias, pe::LayerPositionRole::NoPositions}) {
    bool used = false;
    for (const auto& s : stacks) used = used || std::find(s.layers.begin(), s.layers.end(), r) != s.layers.end();
    if (!used) continue;
    if (!first) ImGui::SameLine(0, ImGui::GetFontSize());
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float t = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled({p.x, p.y + t * 0.15f}, {p.x + t * 0.7f, p.y + t * 0.85f}, role_color(r));
    ImGui::Dummy({t * 0.8f, t});
    ImGui::SameLine();
    ImGui::TextUnformatted(pe::to_string(r));
  }
  ImGui::PushTextWrapPos(0.0f);
  text_wrapped("Shared: %s.", e.shared.c_str());
  ImGui::PopTextWrapPos();
  teaching_note("RoPE models rotate q and k in every layer (their layer plan lists each layer's base and window). A model "
                "that does not rotate keeps its positions elsewhere: in a table added to the input (GPT-2, BERT), in a "
                "bias table one layer of each stack owns and the rest reuse (T5), or in a fixed bias every layer adds (ALiBi).");
}

}  // namespace

void draw_layers_view(ViewContext& ctx) {
  AppState& s = ctx.state;
  const ModelInspection& m = model_inspection(s);
  const pe::LayerPlan& plan = m.inspected.plan;
  const pe::PositionEncodingInfo& e = m.inspected.loaded.encoding;
  if (m.inspected.valid && !e.rotates()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("%s: %lld layer%s, positions %s (not RoPE)", m.inspected.source.c_str(), e.num_hidden_layers + e.num_decoder_layers,
                e.num_hidden_layers + e.num_decoder_layers == 1 ? "" : "s", pe::to_string(e.family));
    ImGui::PopTextWrapPos();
    draw_family_layers(ctx, e);
    return;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text("%s: %zu layer%s%s", m.inspected.source.c_str(), plan.rows.size(), plan.rows.size() == 1 ? "" : "s",
              ctx.show_widgets() ? " — click a layer (or ← / →) to make its RoPE the current config" : "");
  if (!m.error.empty()) ImGui::TextDisabled("Showing the configuration on screen: %s", m.error.c_str());
  for (const auto& d : plan.notes) ImGui::TextDisabled("%s%s%s", d.key.c_str(), d.key.empty() ? "" : ": ", d.message.c_str());
  ImGui::PopTextWrapPos();
  if (plan.rows.empty()) {
    teaching_note("No layer plan: the configuration could not be read (see the inspector view).");
    return;
  }
  const bool interactive = ctx.show_widgets();
  const pe::LayerRow* clicked = layer_strip(s, plan, ctx.size.x, interactive);
  legend(plan);
  const char* const note = "Each layer rotates q and k with its own RoPE: sliding-window layers often keep a small base (they never see "
                           "far positions), global layers a large or scaled one, and NoPE layers none at all — the model's positional "
                           "behaviour is the mix, not the config's top-level rope_theta.";
  const float note_h = teaching_note_height(note);
  ImGui::BeginChild("##layers-table", {ctx.size.x, std::max(ImGui::GetContentRegionAvail().y - note_h, 4.0f * ImGui::GetFontSize())});
  if (const pe::LayerRow* r = layer_table(s, plan, interactive, ctx.narrow)) clicked = r;
  ImGui::EndChild();
  teaching_note(note);
  if (clicked) apply_layer(s, plan, *clicked);
}

namespace {

std::string layers_csv(const AppState& s, const Derived&) {
  const ModelInspection& m = model_inspection(s);
  const pe::LayerPlan& plan = m.inspected.plan;
  std::ostringstream out;
  if (m.inspected.valid && !m.inspected.loaded.encoding.rotates()) {
    const pe::PositionEncodingInfo& e = m.inspected.loaded.encoding;
    out << "# " << csv_text(m.inspected.source) << ": positions " << pe::to_string(e.family) << "; shared: " << csv_text(e.shared) << "\n";
    out << "stack,layer,family,positions\n";
    for (const auto& stack : pe::position_layer_roles(e)) {
      if (!stack.input.empty()) out << csv_text(stack.stack) << ",input," << pe::to_string(stack.family) << ',' << csv_text(stack.input) << "\n";
      for (std::size_t i = 0; i < stack.layers.size(); ++i)
        out << csv_text(stack.stack) << ',' << i << ',' << pe::to_string(stack.family) << ',' << csv_text(pe::to_string(stack.layers[i])) << "\n";
    }
    return out.str();
  }
  out << "# " << csv_text(m.inspected.source) << ": " << plan.rows.size() << " layers\n";
  out << "layer,attention,rotary,theta,scaling,window,rotary_dims,qk_dims,current\n";
  for (const auto& r : plan.rows)
    out << r.index << ',' << csv_text(r.attention) << ',' << (r.rotary ? "true" : "false") << ',' << (r.rotary ? csv_number(r.theta, 17) : "")
        << ',' << (r.rotary ? pe::to_string(r.scaling) : "") << ',' << r.window << ',' << (r.rotary ? r.rotary_dims : 0) << ',' << r.qk_dims
        << ',' << (is_current(s, plan, r) ? "true" : "false") << "\n";
  return out.str();
}

std::vector<std::string> layers_formula(const AppState& s, const Derived&) {
  const pe::InspectedConfig& in = model_inspection(s).inspected;
  if (in.valid && !in.loaded.encoding.rotates())
    return {"layers that do not rotate: positions enter as an input table, a shared or per-layer bias table, or a fixed bias",
            std::string(pe::to_string(in.loaded.encoding.family)) + ": " + in.loaded.encoding.shared};
  const pe::LayerPlan& plan = model_inspection(s).inspected.plan;
  std::string numbers;
  for (const auto& g : plan.groups())
    numbers += (numbers.empty() ? "" : ";  ") + std::to_string(g.layers.size()) + " × " +
               (g.row.rotary ? g.row.attention + " θ " + pe::plain_number(g.row.theta) + " " + pe::to_string(g.row.scaling)
                             : g.row.attention + " NoPE");
  return {"layer ℓ: q, k rotated by RoPE(θ_ℓ, scaling_ℓ, rotary dims_ℓ) — or not at all (NoPE); sliding layers see only their window",
          numbers.empty() ? "no layer plan" : numbers};
}

// The current layer (outlined) follows θ and the scaling.
constexpr const char* kAnimatable[] = {"theta"};

// ← / →: the previous / next layer with RoPE becomes the current config.
void layers_step(AppState& s, int delta) {
  const pe::LayerPlan& plan = model_inspection(s).inspected.plan;
  const long long n = (long long)plan.rows.size();
  if (n == 0 || delta == 0) return;
  long long at = -1;
  for (long long i = 0; i < n && at < 0; ++i)
    if (is_current(s, plan, plan.rows[std::size_t(i)])) at = i;
  // Walk to the next layer whose RoPE differs from the current one (alike layers are skipped).
  for (long long i = at + delta; i >= 0 && i < n; i += delta) {
    const pe::LayerRow& r = plan.rows[std::size_t(i)];
    if (r.rotary && !is_current(s, plan, r)) {
      apply_layer(s, plan, r);
      return;
    }
  }
}

}  // namespace

bool pick_layer(AppState& state, long long index) {
  const pe::LayerPlan& plan = model_inspection(state).inspected.plan;
  if (index < 0 || index >= (long long)plan.rows.size()) return false;
  return apply_layer(state, plan, plan.rows[std::size_t(index)]);
}

const ViewInfo& layers_view() {
  static const ViewInfo info{
      .name = "layers",
      .title = "Layers",
      .summary = "One row per layer: RoPE or NoPE, θ, scaling, window, rotary dims; click a layer to make it current",
      .group = "Model",
      .draw = draw_layers_view,
      .csv = layers_csv,
      .formula = layers_formula,
      .step = layers_step,
      .step_help = "layers: previous / next layer with a different RoPE becomes current",
      .animatable = kAnimatable,
  };
  return info;
}

}  // namespace app
