#include "ui/relative_parameters.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "plot/space_wrap.hpp"
#include "views/view.hpp"

namespace app {
namespace {

void tip(const std::string& text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

std::string number(double v) { return pe::format_double(v); }

// Sliders leave typed values (Ctrl+click) unclamped on purpose: a value out of range is
// kept and named beside the control rather than silently replaced.
void integer_slider(const char* label, long long& value, long long lo, long long hi, bool log) {
  ImGui::SliderScalar(label, ImGuiDataType_S64, &value, &lo, &hi, "%lld", log ? ImGuiSliderFlags_Logarithmic : 0);
}

void number_slider(const char* label, double& value, double lo, double hi, bool log) {
  ImGui::SliderScalar(label, ImGuiDataType_Double, &value, &lo, &hi, "%.6g", log ? ImGuiSliderFlags_Logarithmic : 0);
}

void text_combo(const char* label, std::string& value, std::initializer_list<const char*> choices) {
  if (ImGui::BeginCombo(label, value.c_str())) {
    for (const char* c : choices)
      if (ImGui::Selectable(c, value == c)) value = c;
    ImGui::EndCombo();
  }
}

// One control: the session key it sets and how it draws (with its tooltip).
struct Control {
  const char* key;
  std::function<void(AppState&)> draw;
};

const std::vector<Control>& controls() {
  static const std::vector<Control> list = {
      {"num_buckets",
       [](AppState& s) {
         integer_slider("num_buckets", s.num_buckets, 2, kMaxViewBuckets, true);
         tip("num_buckets = " + std::to_string(s.num_buckets) +
             ": T5's relative_attention_num_buckets (T5, Flan-T5, mT5: 32). The first half (bidirectional) or all "
             "(causal) of them, up to max_exact = " +
             std::to_string(s.causal ? s.num_buckets / 2 : s.num_buckets / 4) +
             ", hold one distance each; the rest share distances on a log scale. Allowed: 4 … 4096 bidirectional, "
             "2 … 4096 causal. Ctrl+click to type.");
       }},
      {"max_distance",
       [](AppState& s) {
         integer_slider("max_distance", s.max_distance, 2, 1'000'000, true);
         const long long max_exact = s.causal ? s.num_buckets / 2 : s.num_buckets / 4;
         tip("max_distance = " + std::to_string(s.max_distance) +
             ": T5's relative_attention_max_distance (128). Every distance from here on shares the last bucket. "
             "Allowed: > max_exact = " + std::to_string(max_exact) + " (num_buckets / " + (s.causal ? "2" : "4") +
             "): at max_exact the reference divides by log(1) = 0.");
       }},
      {"causal",
       [](AppState& s) {
         ImGui::Checkbox("causal (decoder)", &s.causal);
         tip(std::string("causal = ") + (s.causal ? "true" : "false") +
             ": the decoder's buckets (every key after the query in bucket 0, all buckets for keys before it); off: "
             "the encoder's, bidirectional (half the buckets for keys after the query).");
       }},
      {"position_buckets",
       [](AppState& s) {
         integer_slider("pos. buckets", s.position_buckets, 2, 65536, true);
         tip("position_buckets = " + std::to_string(s.position_buckets) +
             ": DeBERTa-v2/v3's log buckets (v3: 256). mid = position_buckets / 2 = " +
             std::to_string(s.position_buckets / 2) + " distances get a bucket each. Allowed: 2 … 65536.");
       }},
      {"max_relative_positions",
       [](AppState& s) {
         const long long step = 1;
         ImGui::InputScalar("max rel. pos.", ImGuiDataType_S64, &s.max_relative_positions, &step, nullptr, "%lld");
         tip("max_relative_positions = " + std::to_string(s.max_relative_positions) +
             ": DeBERTa's log-bucket span; −1 (DeBERTa-v3's config) means max_position_embeddings (" +
             std::to_string(s.max_position_embeddings) + "). Allowed: −1, or position_buckets / 2 + 2 = " +
             std::to_string(s.position_buckets / 2 + 2) + " and up.");
       }},
      {"max_position_embeddings",
       [](AppState& s) {
         integer_slider("positions P", s.max_position_embeddings, 1, 1'000'000, true);
         tip("max_position_embeddings = " + std::to_string(s.max_position_embeddings) +
             ": rows P of BERT's / DeBERTa's position table (BERT, DeBERTa-v3: 512); BERT's distance_embedding "
             "has 2P − 1 rows, for distances −(P − 1) … P − 1. Not RoPE's. Allowed: 1 … 10⁹.");
       }},
      {"pos_att_type",
       [](AppState& s) {
         text_combo("pos_att_type", s.pos_att_type, {"c2p|p2c", "c2p", "p2c", "none"});
         tip("pos_att_type = " + s.pos_att_type +
             ": which position terms DeBERTa adds to content-to-content: c2p (content to position), p2c (position to "
             "content). DeBERTa-v2 and v3: both, scaled by 1/√(3d).");
       }},
      {"position_embedding_type",
       [](AppState& s) {
         text_combo("embedding type", s.position_embedding_type, {"relative_key", "relative_key_query"});
         tip("position_embedding_type = " + s.position_embedding_type +
             ": BERT's relative_key (Shaw et al. 2018: q·e on the key side) or relative_key_query (Huang et al. "
             "2020: q·e + k·e).");
       }},
      {"scale_base",
       [](AppState& s) {
         number_slider("scale_base", s.scale_base, 1.0, 1e6, true);
         tip("scale_base = " + number(s.scale_base) +
             ": xPos's decay ζ_i^(Δ/scale_base) (torchscale: 512). Larger: slower decay. Allowed: > 0.");
       }},
      {"r1",
       [](AppState& s) {
         number_slider("r1", s.r1, 0.01, 100.0, true);
         tip("r1 = " + number(s.r1) + ": KERPLE's scale: log −r1·log(1 + r2·Δ), power −r1·Δ^r2. Learned per head in the "
             "paper (clamped to >= 0.01). Allowed: > 0.");
       }},
      {"r2",
       [](AppState& s) {
         number_slider("r2", s.r2, 0.01, 2.0, false);
         tip("r2 = " + number(s.r2) + ": KERPLE's shape: log's slope inside the log, power's exponent (r2 = 1: ALiBi "
             "with slope r1). One r2 serves both variants, so 0 < r2 <= 2 (power's range).");
       }},
      {"sandwich_dim",
       [](AppState& s) {
         integer_slider("sandwich_dim", s.sandwich_dim, 2, 1024, true);
         if (ImGui::IsItemEdited()) s.sandwich_dim = std::max<long long>(2, s.sandwich_dim - s.sandwich_dim % 2);
         tip("sandwich_dim = " + std::to_string(s.sandwich_dim) +
             ": d̄ of Sandwich's sinusoids, bias Σ cos(Δ·ω_i) − d̄/2. Allowed: even, 2 … 8192.");
       }},
      {"fire_c",
       [](AppState& s) {
         number_slider("fire_c", s.fire_c, 0.01, 100.0, true);
         tip("fire_c = " + number(s.fire_c) + ": FIRE's c in ψ(x) = log(c·x + 1) (learned in the paper). Allowed: > 0.");
       }},
      {"fire_threshold",
       [](AppState& s) {
         number_slider("fire threshold", s.fire_threshold, 1.0, 1e6, true);
         tip("fire_threshold = " + number(s.fire_threshold) +
             ": FIRE's L in ψ(i − j)/ψ(max(L, i)): queries before L are normalised by ψ(L). Allowed: > 0.");
       }},
      {"cope_text",
       [](AppState& s) {
         ImGui::InputText("cope text", &s.cope_text);
         tip("cope_text: the sentence CoPE counts over (words and punctuation marks are tokens; 1 … " +
             std::to_string(kMaxViewCopeTokens) + " tokens).");
       }},
      {"cope_gates",
       [](AppState& s) {
         text_combo("cope gates", s.cope_gates, {"every-token", "sentence-ends", "words", "punctuation"});
         tip("cope_gates = " + s.cope_gates +
             ": which tokens the gates count (0/1 gates standing in for the trained σ(q·k)); every-token gives "
             "ordinary relative positions.");
       }},
      {"cope_npos_max",
       [](AppState& s) {
         integer_slider("npos_max", s.cope_npos_max, 1, 1024, true);
         tip("cope_npos_max = " + std::to_string(s.cope_npos_max) +
             ": CoPE's position embeddings e[0 … npos_max − 1]; counts clamp at npos_max − 1. Allowed: 1 … 65536.");
       }},
      {"training_length",
       [](AppState& s) {
         integer_slider("L_train", s.training_length, 2, 1'000'000, true);
         tip("training_length = " + std::to_string(s.training_length) +
             ": L_train, marked on the distance axis; curves are normalised over distances below it. Allowed: 2 … 10⁹.");
       }},
      {"clamp_len",
       [](AppState& s) {
         integer_slider("clamp_len", s.clamp_len, 0, 4096, false);
         tip("clamp_len = " + std::to_string(s.clamp_len) +
             ": Transformer-XL clamps the distance of R to at most this (0: no clamp). Allowed: 0 … 10⁹.");
       }},
  };
  return list;
}

}  // namespace

std::string parameter_named_by(const std::string& message) {
  const std::size_t eq = message.find(" = ");
  if (eq == std::string::npos || eq == 0 || message.find(' ') < eq) return {};
  return message.substr(0, eq);
}

void draw_relative_parameters(AppState& s, const std::string& state_error) {
  std::vector<std::string> keys;
  for (const ViewInfo* v : shown_views(s))
    for (const char* k : v->panel_parameters)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.emplace_back(k);
  if (keys.empty()) return;
  ImGui::Spacing();
  ImGui::TextDisabled("Relative positions");
  ImGui::Separator();
  const std::string named = parameter_named_by(state_error);
  for (const Control& c : controls()) {
    if (std::find(keys.begin(), keys.end(), c.key) == keys.end()) continue;
    c.draw(s);
    if (named == c.key) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
      text_wrapped("%s", state_error.c_str());
      ImGui::PopStyleColor();
    }
  }
}

}  // namespace app
