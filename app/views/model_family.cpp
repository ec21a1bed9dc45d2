#include "views/model_family.hpp"

#include <imgui.h>

#include <algorithm>

#include "pe/models/inspection_text.hpp"
#include "ui/space_wrap.hpp"
#include "views/view.hpp"

namespace app {

const char* family_view_name(pe::PositionEncodingFamily family) {
  using F = pe::PositionEncodingFamily;
  switch (family) {
    case F::Rope: return "rope-cos";
    case F::LearnedAbsolute: return "learned";
    case F::Sinusoidal: return "sinusoidal";
    case F::Alibi: return "alibi";
    // The relative families' views are issue 32's (their names as that issue gives them).
    case F::T5RelativeBias: return "t5-bias";
    case F::RelativeKey:
    case F::RelativeKeyQuery: return "relative-key";
    case F::DebertaRelative: return "deberta";
    case F::TransformerXl:
    case F::None: return "inspector";
  }
  return "inspector";
}

std::string family_view(const AppState& state) {
  const char* name = family_view_name(state.model_encoding.family);
  return find_view(name) ? std::string(name) : std::string("inspector");
}

void open_family_view(AppState& state) {
  if (state.model_encoding.rotates()) return;
  const ViewInfo* current = find_view(state.view);
  if (current && std::string(current->group) == "Model") return;
  state.view = family_view(state);
}

std::string model_label(const AppState& state) {
  const std::string& title = state.rope.title;
  if (title.empty()) return state.rope.name;
  const std::size_t paren = title.find(" (");
  return paren == std::string::npos || paren == 0 ? title : title.substr(0, paren);
}

std::string not_rotary_banner(const AppState& state, const ViewInfo& view) {
  const pe::PositionEncodingInfo& e = state.model_encoding;
  if (!view.model_rope || e.rotates()) return "";
  std::string family = pe::to_string(e.family);
  if (e.encoder_family && *e.encoder_family != e.family) family += std::string(" (encoder: ") + pe::to_string(*e.encoder_family) + ")";
  return model_label(state) + " does not rotate: its positions are " + family + ". This RoPE (θ = " +
         pe::plain_number(state.rope.theta) + ", d = " + std::to_string(state.rope.head_dim) +
         ") is an illustration, not the model; its own view: " + family_view(state) + ".";
}

float draw_not_rotary_banner(AppState& state, const ViewInfo& view, float width, bool buttons) {
  const std::string text = not_rotary_banner(state, view);
  if (text.empty()) return 0.0f;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float pad = style.FramePadding.y;
  const std::string target = family_view(state);
  const std::string label = "Open " + target;
  const float button_w = buttons ? ImGui::CalcTextSize(label.c_str()).x + 2 * style.FramePadding.x + style.ItemSpacing.x : 0.0f;
  const float wrap = std::max(1.0f, width - button_w - 2 * pad);
  const std::string wrapped = wrapped_at_spaces(text, wrap);
  const float text_h = ImGui::CalcTextSize(wrapped.c_str(), nullptr, false, wrap).y;
  const float height = std::max(text_h, buttons ? ImGui::GetFrameHeight() : 0.0f) + 2 * pad;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  // Amber on both themes: a warning, not an error — the view works, it just is not the model.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, {at.x + width, at.y + height}, IM_COL32(230, 160, 40, 60), style.FrameRounding);
  dl->AddRect(at, {at.x + width, at.y + height}, IM_COL32(230, 160, 40, 220), style.FrameRounding);
  ImGui::SetCursorScreenPos({at.x + pad, at.y + pad});
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::TextUnformatted(wrapped.c_str());
  ImGui::PopTextWrapPos();
  if (buttons) {
    ImGui::SetCursorScreenPos({at.x + width - button_w + style.ItemSpacing.x - pad, at.y + pad});
    if (ImGui::Button(label.c_str())) state.view = target;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("view: %s, the view of this model's positional encoding", target.c_str());
  }
  ImGui::SetCursorScreenPos({at.x, at.y + height + style.ItemSpacing.y});
  return height + style.ItemSpacing.y;
}

}  // namespace app
