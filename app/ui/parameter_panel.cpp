#include "ui/parameter_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/models/hf_cache.hpp"
#include "pe/scaling/scaling.hpp"
#include "platform/frame_pacing.hpp"
#include "platform/host.hpp"
#include "plot/space_wrap.hpp"
#include "views/model_family.hpp"
#include "ui/relative_parameters.hpp"
#include "state/hub_config.hpp"
#include "state/weights_usage.hpp"

namespace app {
namespace {

void tip(const char* text) {
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void section(const char* title) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", title);
  ImGui::Separator();
}

void preset_combo(AppState& s, bool narrow) {
  // Every preset: the rotary ones and GPT-2, BERT, T5, BLOOM … (each opens in its own view).
  static std::vector<pe::PresetInfo> presets = pe::list_presets(pe::PresetKinds::All);
  std::string current = s.preset.empty() ? "(custom)" : s.preset;
  for (const auto& p : presets)
    if (p.key == s.preset) current = p.title;
  // The narrow drawer's combo is shorter than a preset's title: its name without the
  // numbers in parentheses, or the key (the list shows the titles whole).
  const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - 2.0f * ImGui::GetStyle().FramePadding.x;
  if (narrow && ImGui::CalcTextSize(current.c_str()).x > room) {
    const std::string name = current.substr(0, current.find(" ("));
    current = ImGui::CalcTextSize(name.c_str()).x <= room ? name : s.preset;
  }
  if (ImGui::BeginCombo("preset", current.c_str())) {
    for (const auto& p : presets) {
      if (ImGui::Selectable(p.title.c_str(), p.key == s.preset)) {
        try {
          apply_preset(s, p.key);
          open_family_view(s);
        } catch (const std::exception&) {
          // A broken embedded preset is a build bug; the combo keeps the current state.
        }
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s — positions: %s\nSource: %s", p.key.c_str(), pe::to_string(p.family), p.source.c_str());
    }
    ImGui::EndCombo();
  }
  tip("preset: a real model's positions — RoPE settings (θ, head dim, scaling), or a model that does not rotate "
      "(GPT-2's learned table, T5's bucketed bias, BLOOM's ALiBi …), which opens in its own view — or the small "
      "teaching default.");
}

// "Model": ORG/NAME[@REVISION] — from the local Hugging Face cache (completed from the cached
// models, listed once when the field is focused), else its config.json from the Hub (fetched
// a step per frame, with its progress and Cancel). "Read weights" reads the q/k weights in the
// frequency-usage view. Errors keep the previous config.
// A page's token for gated and private models (the desktop reads HF_TOKEN and the token file):
// typed here, kept in the page's memory until it closes unless "keep" is ticked.
void draw_page_token(const pe::HubSettings& hub) {
  static std::string typed;
  static bool keep = false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::InputTextWithHint("##hub-token", hub.token.empty() ? "Hub token (gated)" : "token set", &typed,
                               ImGuiInputTextFlags_Password | ImGuiInputTextFlags_EnterReturnsTrue) &&
      !typed.empty()) {
    host::set_hub_token(typed, keep);
    typed.clear();
  }
  tip("A Hugging Face access token (hf_…) for gated and private models; Enter sets it. It goes to the Hub only, as "
      "Authorization: Bearer (the browser asks the Hub's permission first: a CORS preflight). It stays in this page's memory "
      "until the page is closed, unless \"keep\" is ticked; never in a link.");
  ImGui::SameLine();
  if (ImGui::Checkbox("keep##hub-token", &keep) && !hub.token.empty()) host::set_hub_token(hub.token, keep);
  tip("keep: store the token in this browser's local storage, so it is there when the page opens again.");
  if (!hub.token.empty()) {
    ImGui::SameLine();
    if (ImGui::SmallButton("Forget##hub-token")) host::set_hub_token("", false);
    tip("Forget the token (and remove it from this browser's storage).");
  }
}

void draw_model_loader(AppState& s) {
  static std::string model;
  static std::vector<std::string> cached;
  static bool list_open = false;
  static std::unique_ptr<ModelConfigFetch> fetch;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons = ImGui::CalcTextSize("Open").x + ImGui::CalcTextSize("Read weights").x + 4 * style.FramePadding.x + 2 * style.ItemSpacing.x;
  // The buttons beside the field where both fit (a 2× panel: the field whole, the buttons below).
  const bool beside = ImGui::GetContentRegionAvail().x - buttons >= ImGui::GetFontSize() * 6.0f;
  ImGui::SetNextItemWidth(beside ? ImGui::GetContentRegionAvail().x - buttons : ImGui::GetContentRegionAvail().x);
  const bool entered = ImGui::InputTextWithHint("##model", host::capabilities().model_cache ? "ORG/NAME (HF cache or Hub)" : "ORG/NAME (on the Hub)",
                                                &model, ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::IsItemActivated()) cached = pe::list_cached_models();
  const bool typing = ImGui::IsItemActive();
  if (typing) list_open = true;
  const pe::HubSettings hub = host::hub_settings();
  if (host::capabilities().model_cache)
    tip(("model: ORG/NAME or ORG/NAME@REVISION. Read from the Hugging Face hub cache (" + pe::hf_hub_cache_dir().path.string() +
         ") when it is there, else its config.json is fetched from " + hub.endpoint +
         (hub.offline ? " — not now: HF_HUB_OFFLINE is set" : "") + " and kept in that cache. Same as --model.")
            .c_str());
  else
    tip(("model: ORG/NAME or ORG/NAME@REVISION. Its config.json is fetched from " + hub.endpoint +
         " and kept in this page's memory until it is closed; \"Read weights\" reads only the headers and q/k rows by range. "
         "Same as --model and the link #model=ORG/NAME.")
            .c_str());
  if (beside) ImGui::SameLine();
  auto open = [&](const std::string& m) {
    list_open = false;
    fetch = std::make_unique<ModelConfigFetch>(m);
  };
  if ((ImGui::Button("Open") || entered) && !model.empty()) open(model);
  ImGui::SameLine();
  if (ImGui::Button("Read weights") && !model.empty()) {
    forget_weights(model);
    s.weights = model;
    s.weights_layer = 0;
    s.view = "frequency-usage";
  }
  tip("Read the model's q/k weights (frequency-usage view): from the cache when its files are there, else from the Hub by "
      "range — the headers and only the q/k rows, kept in pe-viz's cache so a second read moves nothing. With progress and Cancel.");
  if (!host::capabilities().model_cache) draw_page_token(hub);
  if (fetch) {
    if (fetch->advance(0)) {
      try {
        if (!fetch->error().empty()) {
          if (host::capabilities().persistent_runtime) host::log_line("pe-viz: model " + fetch->model() + " not opened: " + fetch->error());
          throw std::runtime_error(fetch->error());
        }
        load_cached_model(s, fetch->model());
        open_family_view(s);
        s.config_error.clear();
      } catch (const std::exception& e) {
        s.config_error = e.what();
      }
      fetch.reset();
    } else {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", fetch->status().c_str());
      ImGui::PopTextWrapPos();
      if (ImGui::SmallButton("Cancel##model-fetch")) fetch.reset();
      request_frame_within(0.1);
    }
  }
  if (!list_open || cached.empty()) return;
  const std::vector<std::string> matches = pe::closest_names(model, cached, 8);
  const float rows = float(std::min<std::size_t>(matches.size(), 6));
  bool list_hovered = false;
  if (ImGui::BeginListBox("##model-matches", {-FLT_MIN, rows * ImGui::GetTextLineHeightWithSpacing() + style.FramePadding.y * 2})) {
    for (const std::string& m : matches)
      if (ImGui::Selectable(m.c_str())) {
        model = m;
        open(m);
      }
    list_hovered = ImGui::IsWindowHovered();
    ImGui::EndListBox();
  }
  // Closed when focus went elsewhere (a click on the list keeps it until the pick lands).
  if (!typing && !list_hovered) list_open = false;
}

// Where files have no paths (a page): the browser's file dialog, as a drop onto the page.
void draw_model_file_picker() {
  if (ImGui::Button("Open model files…")) host::pick_files(".json,.gguf,.safetensors", "model");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A config.json or a .gguf (its positional setup); with a model.safetensors picked alongside, its q/k weights "
                      "(the frequency-usage view)");
  tip("A Hugging Face config.json (rope_theta, head_dim, rope_scaling …) or a GGUF file (its header and RoPE "
      "factors). You can also drag and drop the file onto the page.");
  ImGui::TextDisabled("Hugging Face cache: not here (?)");
  tip(host::model_cache_unavailable().c_str());
}

void draw_config_loader(AppState& s) {
  static std::string path;
  const ImGuiStyle& style = ImGui::GetStyle();
  auto load = [&](const std::string& p) {
    try {
      load_config_file(s, p);
      open_family_view(s);
    } catch (const std::exception& e) {
      s.config_error = e.what();
    }
  };
  if (host::capabilities().file_paths) {
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Load").x - 2 * style.FramePadding.x -
                            style.ItemSpacing.x);
    ImGui::InputTextWithHint("##config-path", "config.json path (or drop it)", &path);
    tip("A Hugging Face config.json: rope_theta, head_dim, partial_rotary_factor, max_position_embeddings and "
        "rope_scaling / rope_parameters are read. You can also drag and drop the file onto the window.");
    ImGui::SameLine();
    if (ImGui::Button("Load") && !path.empty()) load(path);
  } else {
    draw_model_file_picker();
  }
  if (!s.recent_configs.empty() && host::capabilities().file_paths) {
    if (ImGui::BeginCombo("recent", "recent files…")) {
      for (const std::string& r : std::vector<std::string>(s.recent_configs))
        if (ImGui::Selectable(r.c_str())) {
          path = r;
          load(r);
        }
      ImGui::EndCombo();
    }
    tip("recent_configs: config files opened before (kept in the session).");
  }
  if (!s.config_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    text_wrapped("Not loaded (previous config kept): %s", s.config_error.c_str());
    ImGui::PopStyleColor();
  }
  const pe::RopeConfig& r = s.rope;
  const std::string model = r.title.empty() ? r.name : r.title;
  if (!s.model_encoding.rotates()) {
    // The RoPE lines below would describe the illustration: say what the model is instead.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    text_wrapped("%s", model.c_str());
    ImGui::PopStyleColor();
    text_wrapped("positions: %s — not RoPE; the RoPE controls shape an illustration only",
                       pe::describe_position_encoding(s.model_encoding).c_str());
    if (!r.source.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.source.c_str());
    return;
  }
  // Wrapped, not cut: at projector scales the panel is narrower than these lines.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  if (s.preset.empty() && s.recent_configs.empty())
    text_wrapped("custom parameters%s%s", model.empty() ? "" : ", based on ", model.c_str());
  else
    text_wrapped_unformatted(model.empty() ? "custom parameters" : model.c_str());
  text_wrapped("θ = %.6g, head_dim = %lld, rotary dims = %lld", r.theta, r.head_dim, r.rotary_dim());
  text_wrapped("max_position_embeddings = %lld, L_orig = %lld", r.max_position_embeddings, r.original_max_position_embeddings());
  if (r.scaling.type != pe::RopeType::Default)
    text_wrapped("scaling %s × %.4g (β %.3g/%.3g, freq factors %.3g/%.3g)", pe::to_string(r.scaling.type), r.scaling.factor,
                       r.scaling.beta_fast, r.scaling.beta_slow, r.scaling.low_freq_factor, r.scaling.high_freq_factor);
  ImGui::PopStyleColor();
  if (!r.source.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.source.c_str());
}

}  // namespace

void draw_parameter_panel(AppState& s, const std::string& state_error, bool narrow) {
  // Controls take what the longest label leaves, so labels are never cut at 2× or 3×.
  const float label_w = ImGui::CalcTextSize("pairs (convention)").x + ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::PushItemWidth(std::max(ImGui::GetFontSize() * 4.0f, ImGui::GetContentRegionAvail().x - label_w));
  preset_combo(s, narrow);

  section("Encoding");
  double theta = s.rope.theta;
  const double theta_min = 2.0, theta_max = 1e7;
  if (ImGui::SliderScalar("θ (theta)", ImGuiDataType_Double, &theta, &theta_min, &theta_max, "%.6g",
                          ImGuiSliderFlags_Logarithmic)) {
    s.rope.theta = theta;
    s.preset.clear();
  }
  tip("theta: the base of the frequencies θ_i = theta^(−2i/d). Larger theta makes the slowest pairs slower, so "
      "they do not wrap around inside long contexts (Code Llama: 10⁶, Llama 3: 5·10⁵). Ctrl+click to type a value.");
  if (ImGui::InputDouble("θ exact", &theta, 0.0, 0.0, "%.10g", ImGuiInputTextFlags_EnterReturnsTrue)) {
    s.rope.theta = theta;
    s.preset.clear();
  }
  tip("theta, typed exactly (must be > 1).");

  int dim = int(s.rope.head_dim);
  if (ImGui::SliderInt("d (dim)", &dim, 2, 1024, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    s.rope.head_dim = std::max(2, dim - dim % 2);  // RoPE rotates pairs: keep it even
    s.vector.clear();
    s.pair = std::min<long long>(s.pair, s.rope.rotary_dim() / 2 - 1);
    s.preset.clear();
  }
  tip("dim: the head dimension d. RoPE rotates d/2 pairs of dimensions, so d is even.");

  long long length = s.length;
  const long long length_min = 1, length_max = 1'000'000;
  if (ImGui::SliderScalar("L (length)", ImGuiDataType_S64, &length, &length_min, &length_max, "%lld",
                          ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    s.length = std::clamp(length, length_min, length_max);
    s.position = std::min(s.position, s.length - 1);
    s.anchor = std::min(s.anchor, s.length - 1);
  }
  tip("length: how many positions are shown (0 ... L−1). It is also the current sequence length for dynamic scaling.");

  int convention = s.rope.convention == pe::PairConvention::Interleaved ? 0 : 1;
  if (ImGui::Combo("pairs (convention)", &convention, "interleaved (2i, 2i+1)\0half-split (i, i+d/2)\0")) {
    s.rope.convention = convention == 0 ? pe::PairConvention::Interleaved : pe::PairConvention::HalfSplit;
  }
  tip("convention: which dimensions form a rotating pair. Interleaved (2i, 2i+1): RoFormer, Meta's LLaMA code, GPT-J. "
      "Half-split (i, i+d/2): GPT-NeoX and Hugging Face's rotate_half. Same scores up to a fixed permutation of dimensions.");

  section("Selection");
  long long zero = 0, last_position = std::max<long long>(s.length - 1, 0);
  ImGui::SliderScalar("p (position)", ImGuiDataType_S64, &s.position, &zero, &last_position, "%lld", ImGuiSliderFlags_AlwaysClamp);
  tip("position: the token position p shown in the clock hands and marked in the curves.");
  long long last_pair = std::max<long long>(s.rope.rotary_dim() / 2 - 1, 0);
  ImGui::SliderScalar("i (pair)", ImGuiDataType_S64, &s.pair, &zero, &last_pair, "%lld", ImGuiSliderFlags_AlwaysClamp);
  tip("pair: the dimension pair i (rotating at θ_i rad per position) highlighted in the views.");
  const std::uint64_t seed_step = 1;
  ImGui::InputScalar("seed", ImGuiDataType_U64, &s.seed, &seed_step, nullptr, "%llu");
  tip("seed: the random seed for random vectors, learned tables and attention tokens. Same seed, same picture.");

  section("Scaling");
  const auto types = pe::all_rope_types();
  if (ImGui::BeginCombo("scaling", pe::to_string(s.rope.scaling.type))) {
    for (pe::RopeType t : types) {
      // LongRoPE needs the model's searched per-pair factor lists (load Phi-3's preset or config).
      const bool unavailable = t == pe::RopeType::LongRope && (s.rope.scaling.short_factor.empty() || s.rope.scaling.long_factor.empty());
      if (ImGui::Selectable(pe::to_string(t), t == s.rope.scaling.type, unavailable ? ImGuiSelectableFlags_Disabled : 0)) {
        s.rope.scaling.type = t;
        if (t != pe::RopeType::Default && s.rope.scaling.factor <= 1.0) s.rope.scaling.factor = 4.0;
        s.preset.clear();
      }
      if (unavailable && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("longrope needs the model's short_factor / long_factor lists: choose the Phi-3 preset or load its config.json.");
    }
    ImGui::EndCombo();
  }
  tip("scaling: the RoPE context-extension method (Hugging Face rope_type): linear = position interpolation, "
      "ntk = NTK-aware base change, dynamic = NTK by current length, yarn, llama3, longrope.");
  double factor = s.rope.scaling.factor;
  const double factor_min = 1.0, factor_max = 64.0;
  if (ImGui::SliderScalar("factor", ImGuiDataType_Double, &factor, &factor_min, &factor_max, "%.3g",
                          ImGuiSliderFlags_Logarithmic)) {
    s.rope.scaling.factor = factor;
    s.preset.clear();
  }
  tip("factor: how many times longer than the training context the model should run.");

  if (s.rope.scaling.type == pe::RopeType::Dynamic || s.animate_length) {
    ImGui::Checkbox("animate length", &s.animate_length);
    tip("animate_length: sweep the current length L from L_orig/2 to 16·L_orig and back, and watch dynamic NTK raise "
        "the effective base as L passes the training length (see the scaling and spectrum views).");
  }

  draw_relative_parameters(s, state_error);

  section("Model");
  if (host::capabilities().model_cache || host::capabilities().hub_models) draw_model_loader(s);
  draw_config_loader(s);

  section("Display");
  int cmap = int(s.colormap);
  if (ImGui::Combo("colormap", &cmap, "RdBu (diverging)\0viridis\0cividis\0")) s.colormap = ColormapChoice(cmap);
  tip("colormap: RdBu shows sign (red −1, blue +1); viridis and cividis are perceptually uniform and colour-blind safe.");
  ImGui::Checkbox("pixel mean", &s.pixel_mean);
  tip("pixel_mean: when many positions fall into one pixel, show their exact mean (closed form) instead of one "
      "sample — turn off to see the moiré a naive plot would show.");
  float scale = s.ui_scale;
  if (ImGui::SliderFloat("UI scale", &scale, 1.0f, 3.0f, "%.2f×", ImGuiSliderFlags_AlwaysClamp)) s.ui_scale = scale;
  tip("ui_scale: bigger fonts and controls for projectors (1× – 3×). Applied when you release the slider.");
  ImGui::Checkbox("dark theme", &s.dark_theme);
  tip("dark_theme: dark or light window colours (light reads better on some projectors).");
  ImGui::SliderFloat("line width", &s.line_width, 1.0f, 4.0f, "%.1f×", ImGuiSliderFlags_AlwaysClamp);
  tip("line_width: thickness of the plotted curves (axes and grid keep theirs); 2–3× carries to the back of a hall. "
      "Key W cycles it.");

  if (!state_error.empty()) {
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    text_wrapped_unformatted(state_error.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopItemWidth();
}

}  // namespace app
