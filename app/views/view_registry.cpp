#include <string>
#include <vector>

#include "views/view.hpp"

namespace app {

// Each view lives in its own file (views/<name>_view.cpp) and exposes one draw function.
void draw_sinusoidal_view(ViewContext& ctx);
void draw_learned_view(ViewContext& ctx);
void draw_rope_cos_view(ViewContext& ctx);
void draw_rope_sin_view(ViewContext& ctx);
void draw_rope_spectrum_view(ViewContext& ctx);
void draw_clock_hands_view(ViewContext& ctx);
void draw_relative_score_view(ViewContext& ctx);
void draw_alibi_view(ViewContext& ctx);
void draw_attention_view(ViewContext& ctx);
void draw_scaling_view(ViewContext& ctx);
void draw_extrapolation_view(ViewContext& ctx);
void draw_compare_view(ViewContext& ctx);
void draw_common_mistake_view(ViewContext& ctx);
void draw_walkthrough_view(ViewContext& ctx);
void draw_theta_lesson_view(ViewContext& ctx);
void draw_conventions_view(ViewContext& ctx);
void draw_permutation_view(ViewContext& ctx);
void draw_comparison_view(ViewContext& ctx);

namespace {
const ViewInfo kViews[] = {
    {"sinusoidal", "Sinusoidal", "Sinusoidal PE heatmap (position × dimension) and per-dimension curves", draw_sinusoidal_view, "Absolute"},
    {"learned", "Learned", "Learned (random-initialised) position table and why it stops at max_len", draw_learned_view, "Absolute"},
    {"rope-cos", "RoPE cos", "RoPE cos(p·θ_i) table and cos curves of chosen pairs", draw_rope_cos_view, "RoPE"},
    {"rope-sin", "RoPE sin", "RoPE sin(p·θ_i) table and sin curves of chosen pairs", draw_rope_sin_view, "RoPE"},
    {"rope-spectrum", "Spectrum", "RoPE frequency spectrum θ_i (log) and wavelengths vs the context length", draw_rope_spectrum_view, "RoPE"},
    {"walkthrough", "Walkthrough", "Seed 001's worked example step by step: frequencies, angles, each multiplication", draw_walkthrough_view, "RoPE"},
    {"clock-hands", "Clock hands", "Each dimension pair as a rotating 2D hand at position p, with the numbers", draw_clock_hands_view, "RoPE"},
    {"conventions", "Conventions", "Interleaved vs half-split pairing as wiring between dims; scores equal after the permutation", draw_conventions_view, "RoPE"},
    {"common-mistake", "Common mistake", "Seed 004's mixed cos/sin tables beside the real rotation: norms and relativity break", draw_common_mistake_view, "RoPE"},
    {"relative-score", "Relative score", "s(Δ) = ⟨R(m)q, R(m+Δ)k⟩: depends only on Δ, decays; long-term-decay bound", draw_relative_score_view, "Relative"},
    {"theta-lesson", "Theta lesson", "Low vs high θ side by side: relative score and wavelengths (why long-context models raise θ)", draw_theta_lesson_view, "Relative"},
    {"alibi", "ALiBi", "ALiBi per-head slopes and the causal bias matrix", draw_alibi_view, "Attention"},
    {"attention", "Attention", "Attention patterns softmax(QKᵀ/√d + mask) under each method", draw_attention_view, "Attention"},
    {"permutation", "Permutation", "\"the dog bit the man\" vs \"the man bit the dog\": attention without and with positions", draw_permutation_view, "Attention"},
    {"comparison", "Comparison", "The seeds' comparison table, measured for the current d and max_len", draw_comparison_view, "Attention"},
    {"scaling", "Scaling", "RoPE context extension: wavelengths before/after and θ'/θ of every method", draw_scaling_view, "Long context"},
    {"extrapolation", "Extrapolation", "Which rotation angles are unseen past the training length, per method", draw_extrapolation_view, "Long context"},
    {"compare", "Compare A/B", "Any view for two configurations side by side, and their difference", draw_compare_view, "Long context"},
};
// Teaching order: absolute encodings, RoPE, what it buys (relative scores), attention,
// then long contexts. Views of a group are contiguous in kViews.
constexpr const char* kGroups[] = {"Absolute", "RoPE", "Relative", "Attention", "Long context"};
}  // namespace

std::span<const ViewInfo> all_views() { return kViews; }
std::span<const char* const> view_groups() { return kGroups; }

std::vector<const ViewInfo*> views_in_group(const std::string& group) {
  std::vector<const ViewInfo*> views;
  for (const auto& v : kViews)
    if (group == v.group) views.push_back(&v);
  return views;
}

const ViewInfo* find_view(const std::string& name) {
  for (const auto& v : kViews)
    if (name == v.name) return &v;
  return nullptr;
}

}  // namespace app
