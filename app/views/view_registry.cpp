// The list of views in tab order. Each view defines everything about itself (drawing,
// CSV, formula, keys, animatable parameters) in its own file; registering it is one line
// here.
#include <algorithm>
#include <string>
#include <vector>

#include "views/view.hpp"

namespace app {

const ViewInfo& sinusoidal_view();
const ViewInfo& learned_view();
const ViewInfo& rope_cos_view();
const ViewInfo& rope_sin_view();
const ViewInfo& rope_spectrum_view();
const ViewInfo& walkthrough_view();
const ViewInfo& clock_hands_view();
const ViewInfo& conventions_view();
const ViewInfo& common_mistake_view();
const ViewInfo& relative_score_view();
const ViewInfo& theta_lesson_view();
const ViewInfo& alibi_view();
const ViewInfo& attention_view();
const ViewInfo& permutation_view();
const ViewInfo& comparison_view();
const ViewInfo& scaling_view();
const ViewInfo& extrapolation_view();
const ViewInfo& compare_view();
const ViewInfo& mrope_layout_view();
const ViewInfo& mrope_positions_view();
const ViewInfo& rope_2d_view();
const ViewInfo& inspector_view();
const ViewInfo& layers_view();
const ViewInfo& frequency_usage_view();
const ViewInfo& t5_bias_view();
const ViewInfo& deberta_view();
const ViewInfo& relative_key_view();
const ViewInfo& transformer_xl_view();
const ViewInfo& xpos_view();
const ViewInfo& cope_view();
const ViewInfo& distance_bias_view();

namespace {

// Teaching order: absolute encodings, RoPE, what it buys (relative scores), attention,
// relative biases, long contexts, RoPE over images and video, then the loaded model itself. Views of a group are contiguous.
const std::vector<ViewInfo>& registry() {
  static const std::vector<ViewInfo> views = {
      sinusoidal_view(),     learned_view(),    rope_cos_view(),       rope_sin_view(),
      rope_spectrum_view(),  walkthrough_view(), clock_hands_view(),   conventions_view(),
      common_mistake_view(), relative_score_view(), theta_lesson_view(), alibi_view(),
      attention_view(),      permutation_view(), comparison_view(),
      // Bias (issue 32): learned relative biases and relative embeddings.
      t5_bias_view(),        deberta_view(),     relative_key_view(),  transformer_xl_view(),
      scaling_view(),        extrapolation_view(),  distance_bias_view(), xpos_view(),           cope_view(),
      compare_view(),
      // Multimodal (issue 12): which axis each pair follows, the prompt's ids, 2D scores.
      mrope_layout_view(),   mrope_positions_view(), rope_2d_view(),
      // Model (issue 15): what the loaded model's config says, per framework and per layer.
      inspector_view(),      layers_view(),      frequency_usage_view(),
  };
  return views;
}

constexpr const char* kGroups[] = {"Absolute", "RoPE", "Relative", "Attention", "Bias", "Long context", "Multimodal", "Model"};

}  // namespace

std::span<const ViewInfo> all_views() { return registry(); }
std::span<const char* const> view_groups() { return kGroups; }

std::vector<const ViewInfo*> views_in_group(const std::string& group) {
  std::vector<const ViewInfo*> views;
  for (const auto& v : registry())
    if (group == v.group) views.push_back(&v);
  return views;
}

const ViewInfo* find_view(const std::string& name) {
  for (const auto& v : registry())
    if (name == v.name) return &v;
  return nullptr;
}

std::vector<const ViewInfo*> embeddable_views() {
  std::vector<const ViewInfo*> views;
  for (const auto& v : registry())
    if (!v.hosts_views) views.push_back(&v);
  return views;
}

std::string shown_view_label(const AppState& s) {
  const ViewInfo* v = find_view(s.view);
  if (v && v->hosts_views) return s.view + "/" + s.compare_view;
  return s.view;
}

std::vector<const ViewInfo*> shown_views(const AppState& s) {
  std::vector<const ViewInfo*> out;
  auto add = [&](const std::string& name) {
    if (const ViewInfo* v = find_view(name); v && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  if (s.grid) {
    for (const auto& name : s.grid_views) add(name);
    return out;
  }
  add(s.view);
  if (!out.empty() && out.front()->hosts_views) add(s.compare_view);
  return out;
}

void step_view(AppState& s, int delta) {
  const ViewInfo* v = s.grid ? nullptr : find_view(s.view);
  if (v && v->step) v->step(s, delta);
  else s.position = std::clamp<long long>(s.position + delta, 0, s.length - 1);
}

}  // namespace app
