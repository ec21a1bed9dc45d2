// Attention patterns softmax(QKᵀ/√d + causal mask) for the same seeded tokens under each
// position method, side by side.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/base/errors.hpp"
#include "platform/frame_pacing.hpp"
#include "platform/worker.hpp"
#include "views/view.hpp"
#include <sstream>
#include "views/view_csv.hpp"
#include "plot/space_wrap.hpp"

namespace app {

namespace {
constexpr long long kMaxAttentionDim = 1024;
constexpr long long kAsyncAttentionDim = 256;  // from here one update takes ~50 ms or more

struct Pattern {
  pe::TableF values;
  std::string error;
};
using Patterns = std::array<Pattern, kAttentionMethods.size()>;
using Keys = std::array<std::string, kAttentionMethods.size()>;

// Each method's inputs: θ moves only the sinusoidal and RoPE patterns, the ALiBi head only
// ALiBi's; the d × d projections make each pattern cost ~0.2 s at d = 1024.
Keys method_keys(const AppState& s, const Derived& derived, long long n) {
  const std::string common = std::to_string(n) + "|" + std::to_string(s.rope.head_dim) + "|" + std::to_string(s.seed);
  Keys keys;
  for (std::size_t m = 0; m < keys.size(); ++m) {
    std::string k = common;
    switch (kAttentionMethods[m]) {
      case pe::AttentionMethod::Sinusoidal: k += "|" + pe::format_double(s.rope.theta); break;
      case pe::AttentionMethod::Rope: k += "|" + std::to_string(derived.version) + "|" + pe::to_string(s.rope.convention); break;
      case pe::AttentionMethod::Alibi: k += "|" + std::to_string(s.heads) + "|" + std::to_string(s.head); break;
      case pe::AttentionMethod::T5Bias:
        k += "|" + std::to_string(s.num_buckets) + "|" + std::to_string(s.max_distance) + "|" + std::to_string(s.causal) + "|" +
             std::to_string(s.heads) + "|" + std::to_string(s.head);
        break;
      case pe::AttentionMethod::Kerple: k += "|" + pe::format_double(s.r1) + "|" + pe::format_double(s.r2); break;
      case pe::AttentionMethod::Xpos: k += "|" + pe::format_double(s.scale_base); break;
      default: break;
    }
    keys[m] = std::move(k);
  }
  return keys;
}

using Tokens = std::shared_ptr<const pe::AttentionTokens>;

// Computes the methods whose key is non-empty, from the shared seeded tokens.
Patterns compute_patterns(const pe::AttentionParams& params, const Keys& which, const Tokens& tokens) {
  Patterns out;
  for (std::size_t m = 0; m < out.size(); ++m) {
    if (which[m].empty()) continue;
    try {
      out[m] = {pe::attention_pattern(kAttentionMethods[m], params, *tokens), {}};
    } catch (const std::exception& e) {
      out[m] = {{}, e.what()};
    }
  }
  return out;
}

// One cache per Derived (the main state and compare's B), so compare A/B does not
// recompute both sides every frame. When an update is slow (large d), patterns are
// recomputed on a worker thread while θ is dragged and the last ones stay on screen;
// exports and shape changes compute them in place instead (the worker runs at background
// priority: nothing waits for it), and the busy worker's result is then dropped.
struct Slot {
  Patterns patterns;
  Keys keys;
  unsigned long long version = 0;
  std::future<Patterns> job;
  Keys job_keys;
  // X, Wq, Wk, XWq, XWk for (length, d, seed): θ leaves them alone (pe::attention_tokens).
  Tokens tokens;
  std::string tokens_error;
};

// The slot's tokens for `params`, made (in place) when the length, d or seed changed; null
// with the slot's tokens_error when they cannot be made.
Tokens tokens_for(Slot& slot, const pe::AttentionParams& params) {
  if (slot.tokens && slot.tokens->length == params.length && slot.tokens->dim == params.dim && slot.tokens->seed == params.seed)
    return slot.tokens;
  slot.tokens.reset();
  try {
    slot.tokens = std::make_shared<const pe::AttentionTokens>(pe::attention_tokens(params.length, params.dim, params.seed));
    slot.tokens_error.clear();
  } catch (const std::exception& e) {
    slot.tokens_error = e.what();
  }
  return slot.tokens;
}

// Every stale method carries `error` (the tokens could not be made).
Patterns failed_patterns(const Keys& which, const std::string& error) {
  Patterns out;
  for (std::size_t m = 0; m < out.size(); ++m)
    if (!which[m].empty()) out[m] = {{}, error};
  return out;
}

Slot& slot_for(const Derived* derived) {
  static std::map<const Derived*, Slot> slots;
  auto it = slots.find(derived);
  if (it != slots.end()) return it->second;
  if (slots.size() >= 4) {  // sessions of tests come and go; keep the ones not busy
    for (auto i = slots.begin(); i != slots.end();)
      i = i->second.job.valid() ? std::next(i) : slots.erase(i);
  }
  return slots[derived];
}

}  // namespace

void draw_attention_view(ViewContext& ctx) {
  const AppState& s = ctx.state;
  constexpr auto& kMethods = kAttentionMethods;
  const long long n = std::clamp<long long>(s.length, 1, kAttentionLength);  // patterns are n² cells: keep them legible
  if (!ctx.derived.error.empty()) return show_state_error(ctx.derived);
  if (s.rope.head_dim > kMaxAttentionDim) {
    teaching_note("Attention patterns are drawn for d ≤ 1024 (the seeded d × d projections grow as d²); lower d to see them.");
    return;
  }
  Slot& slot = slot_for(&ctx.derived);
  auto& patterns = slot.patterns;
  const unsigned long long& version = slot.version;
  auto apply = [&](Patterns&& fresh, const Keys& keys) {
    for (std::size_t m = 0; m < kMethods.size(); ++m)
      if (!keys[m].empty()) {
        slot.patterns[m] = std::move(fresh[m]);
        slot.keys[m] = keys[m];
      }
    // Unique across slots: a heatmap texture is keyed by plot ID and re-uploaded on a new version.
    static unsigned long long next_version = 0;
    slot.version = ++next_version;
  };
  if (slot.job.valid() && slot.job.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    apply(slot.job.get(), slot.job_keys);
  }
  const Keys wanted = method_keys(s, ctx.derived, n);
  Keys stale;
  bool any = false, shape_changed = false;
  for (std::size_t m = 0; m < kMethods.size(); ++m) {
    if (slot.keys[m] == wanted[m]) continue;
    stale[m] = wanted[m];
    any = true;
    const auto& v = slot.patterns[m].values;
    shape_changed = shape_changed || slot.keys[m].empty() || (v.size() > 0 && v.rows() != n);
  }
  // Cheap updates (small d) stay synchronous, so a frame always shows its own state; the
  // choice depends on d alone, so the same inputs always take the same path.
  const pe::AttentionParams params = any ? attention_params(s, ctx.derived) : pe::AttentionParams{};
  const Tokens tokens = any ? tokens_for(slot, params) : nullptr;
  if (any && !tokens) {
    apply(failed_patterns(stale, slot.tokens_error), stale);
    slot.job_keys = {};
  } else if (any && (ctx.exporting || shape_changed || s.rope.head_dim < kAsyncAttentionDim)) {
    apply(compute_patterns(params, stale, tokens), stale);
    slot.job_keys = {};  // a busy worker's patterns are older than these: applied, they change nothing
  } else if (any && !slot.job.valid()) {
    slot.job_keys = stale;
    // The finished worker wakes the GUI, which may be asleep waiting for input.
    slot.job = start_worker([params, stale, tokens] {
      auto patterns = compute_patterns(params, stale, tokens);
      wake_gui();
      return patterns;
    });
  }
  // 4 × 2 grid: eight patterns, a colour bar after the last, each method's mean attention distance.
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const char* const note = "Same random tokens in every panel; only the position method differs. Rows sum to 1, the upper triangle is masked "
                "(causal). ALiBi's, T5's and KERPLE's biases make attention local (see the mean distances); xPos shrinks far scores. "
                "With unrelated random q and k, RoPE adds no locality of its own (relative-score view). T5: illustrative bias table.";
  const float note_h = teaching_note_height(note);
  constexpr double kVmax = 0.25;  // most weights are small: a shared, clipped scale keeps panels comparable
  const char* const bar_label = "weight (clipped at 0.25)";
  const float bar_w = plot::colorbar_width(bar_label, 0.0, kVmax);
  const float w = std::min((ctx.size.x - spacing * 4 - bar_w) / 4.0f, (ImGui::GetContentRegionAvail().y - note_h - spacing) / 2.0f);
  for (std::size_t m = 0; m < kMethods.size(); ++m) {
    if (m % 4 != 0) ImGui::SameLine();
    const std::string title = pe::to_string(kMethods[m]);
    ImGui::BeginGroup();
    if (!patterns[m].error.empty()) {
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
      text_wrapped("%s: %s", title.c_str(), patterns[m].error.c_str());
      ImGui::PopTextWrapPos();
    } else {
      // Mean |i − j| under the attention weights: how far each method looks on average.
      const auto& v = patterns[m].values;
      double distance = 0;
      for (Eigen::Index i = 0; i < v.rows(); ++i)
        for (Eigen::Index j = 0; j <= i; ++j) distance += double(v(i, j)) * double(i - j);
      distance /= double(std::max<Eigen::Index>(v.rows(), 1));
      char plot_title[96];
      std::snprintf(plot_title, sizeof plot_title, "%s — mean distance %.1f", title.c_str(), distance);
      if (plot::begin_plot(("##attention-" + title).c_str(), {w, w}, {.title = plot_title, .legend = false, .equal_aspect = true})) {
        plot::setup_axes({.label = "key j", .min = -0.5, .max = double(n) - 0.5, .format = "%.0f"},
                         {.label = "query i", .min = -0.5, .max = double(n) - 0.5, .invert = true, .format = "%.0f"});
        plot::plot_value_heatmap(title.c_str(), {.values = {v.data(), std::size_t(v.size())}, .rows = int(n), .columns = int(n),
                                                 .x0 = -0.5, .x1 = double(n) - 0.5, .y0 = -0.5, .y1 = double(n) - 0.5,
                                                 .colormap = plot::Colormap::Viridis, .vmin = 0.0, .vmax = kVmax,
                                                 .version = version * 8 + m, .y_down = true});
        if (plot::is_plot_hovered()) {
          const long long i = std::llround(plot::mouse_y()), j = std::llround(plot::mouse_x());
          if (i >= 0 && i < n && j >= 0 && j < n) plot::hover_text("query %lld → key %lld: weight %.5f", i, j, double(v(i, j)));
        }
        plot::end_plot();
      }
    }
    ImGui::EndGroup();
  }
  ImGui::SameLine();
  ImGui::BeginGroup();
  plot::colorbar(bar_label, 0.0, kVmax, plot::Colormap::Viridis, {bar_w, w});
  ImGui::EndGroup();
  teaching_note(note);
}

namespace {

std::string attention_csv(const AppState& s, const Derived& d) {
  std::ostringstream out;
  const pe::AttentionParams params = attention_params(s, d);
  out << "method,query,key,weight\n";
  for (pe::AttentionMethod m : kAttentionMethods) {
    const pe::TableF w = pe::attention_pattern(m, params);
    for (Eigen::Index i = 0; i < w.rows(); ++i)
      for (Eigen::Index j = 0; j <= i; ++j) out << pe::to_string(m) << ',' << i << ',' << j << ',' << csv_number(w(i, j)) << "\n";
  }
  return out.str();
}

std::vector<std::string> attention_formula(const AppState& s, const Derived&) {
  return {"A = softmax(Q Kᵀ / √d + bias + causal mask);  positions enter via x + PE, R(p)q·R(p')k (xPos: × ζ^(Δ/scale_base)), or a "
          "bias (ALiBi, T5, KERPLE)",
          formatted("%lld tokens, seed %llu, ALiBi head %lld of %lld", std::min<long long>(s.length, kAttentionLength),
                    static_cast<unsigned long long>(s.seed), s.head, s.heads)};
}

constexpr const char* kAnimatable[] = {"theta", "dim", "length", "head", "heads", "seed", "num_buckets", "max_distance", "r1", "r2",
                                       "scale_base"};
constexpr const char* kPanel[] = {"num_buckets", "max_distance", "causal", "r1", "r2", "scale_base"};

}  // namespace

const ViewInfo& attention_view() {
  static const ViewInfo info{
      .name = "attention",
      .title = "Attention",
      .summary = "Attention patterns softmax(QKᵀ/√d + mask) under each method",
      .group = "Attention",
      .draw = draw_attention_view,
      .csv = attention_csv,
      .formula = attention_formula,
      .animatable = kAnimatable,
      .panel_parameters = kPanel,
  };
  return info;
}

}  // namespace app
