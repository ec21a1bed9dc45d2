#include "ui/formula_strip.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <numbers>

#include "pe/alibi.hpp"
#include "pe/errors.hpp"

namespace app {
namespace {

std::string fmt(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

constexpr double kDegrees = 180.0 / std::numbers::pi;

}  // namespace

std::vector<std::string> view_formula(const std::string& view, const AppState& s, const Derived& d) {
  if (!d.error.empty()) return {};
  const double theta = s.rope.theta;
  const long long dim = s.rope.head_dim;
  const long long p = s.position;
  const long long i = std::clamp<long long>(s.pair, 0, std::max<long long>(d.rope.inv_freq.size() - 1, 0));
  const double f = d.rope.inv_freq.size() > 0 ? d.rope.inv_freq[i] : 0.0;
  const double angle = double(p) * f;
  const double two_i_over_d = double(2 * i) / double(dim);

  if (view == "sinusoidal") {
    const double w = std::pow(theta, -two_i_over_d);
    return {"PE(p, 2i) = sin(p / θ^(2i/d)),   PE(p, 2i+1) = cos(p / θ^(2i/d))",
            fmt("p = %lld, i = %lld:  p / %g^(%lld/%lld) = %.6g  →  sin = %.5f,  cos = %.5f", p, i, theta, 2 * i, dim,
                double(p) * w, std::sin(double(p) * w), std::cos(double(p) * w))};
  }
  if (view == "learned") {
    return {"E ∈ ℝ^(max_len × d), row p looked up; rows p ≥ max_len do not exist",
            fmt("max_len × d = %lld × %lld = %lld trained parameters;  position %lld: %s", s.learned_max_len, dim,
                s.learned_max_len * dim, p, p < s.learned_max_len ? "has a row" : "NO embedding (past max_len)")};
  }
  if (view == "rope-cos" || view == "rope-sin" || view == "clock-hands") {
    const bool sine = view == "rope-sin";
    std::vector<std::string> lines = {
        "θ_i = θ^(−2i/d)   (scaled: see Scaling),   angle = p·θ_i,   (x', y') = (x cos − y sin,  x sin + y cos)",
        fmt("p = %lld, i = %lld:  θ_%lld = %.6g,  angle = %.6g rad = %.3f°  →  %s = %.5f", p, i, i, f, angle,
            std::fmod(angle * kDegrees, 360.0), sine ? "sin" : "cos", sine ? std::sin(angle) : std::cos(angle))};
    return lines;
  }
  if (view == "rope-spectrum") {
    const Eigen::Index last = d.rope.inv_freq.size() - 1;
    return {"θ_i = θ^(−2i/d),   wavelength λ_i = 2π / θ_i  (positions per full turn)",
            fmt("θ = %g, d = %lld:  λ_0 = %.4g,  λ_%lld = %.6g  (L = %lld)", theta, dim, 2 * std::numbers::pi / d.rope.inv_freq[0],
                static_cast<long long>(last), 2 * std::numbers::pi / d.rope.inv_freq[last], s.length)};
  }
  if (view == "walkthrough") {
    const double q0 = s.walkthrough_q[0], q1 = s.walkthrough_q[1];
    const double a = double(s.walkthrough_position);
    return {"q' = R(p·θ_i) q per pair:  x' = x cos(pθ_i) − y sin(pθ_i),  y' = x sin(pθ_i) + y cos(pθ_i)",
            fmt("pair 0, p = %lld:  x' = %.3g·cos(%g) − %.3g·sin(%g) = %.5f", s.walkthrough_position, q0, a, q1, a,
                q0 * std::cos(a) - q1 * std::sin(a))};
  }
  if (view == "relative-score") {
    return {"s(Δ) = ⟨R(m)q, R(m+Δ)k⟩ = qᵀ R(Δ) k = Σ_i Re[q̃_i conj(k̃_i) e^(−iΔθ_i)]  — m cancels",
            fmt("m = %lld, %lld pairs, θ = %g;  decay bound: |s| ≤ (max|q̃k̃|) Σ_j |Σ_{i<j} e^(iΔθ_i)|", s.anchor,
                dim / 2, theta)};
  }
  if (view == "theta-lesson") {
    const double lo = 2 * std::numbers::pi * std::pow(s.theta_low, double(dim - 2) / double(dim));
    const double hi = 2 * std::numbers::pi * std::pow(s.theta_high, double(dim - 2) / double(dim));
    return {"longest wavelength λ_max = 2π·θ^((d−2)/d): a larger θ keeps the slowest pair from wrapping",
            fmt("d = %lld:  θ = %g → λ_max = %.4g;   θ = %g → λ_max = %.4g   (L = %lld)", dim, s.theta_low, lo,
                s.theta_high, hi, s.length)};
  }
  if (view == "conventions") {
    return {"interleaved pairs (2i, 2i+1);   half-split pairs (i, i + d/2);   same scores after the permutation",
            fmt("d = %lld: pair %lld is dims (%lld, %lld) interleaved, (%lld, %lld) half-split", dim, i, 2 * i, 2 * i + 1,
                i, i + dim / 2)};
  }
  if (view == "common-mistake") {
    return {"seed 004: cos = cat(f, f)[..., ::2],  sin = cat(f, f)[..., 1::2]  →  pair i gets cos(p·f_{2i mod d/2}), sin(p·f_{(2i+1) mod d/2})",
            "a rotation needs cos and sin of the SAME angle: cos² + sin² = 1, so norms are kept"};
  }
  if (view == "alibi") {
    const auto slopes = pe::alibi_slopes(s.heads);
    const double m = slopes[std::clamp<long long>(s.head - 1, 0, s.heads - 1)];
    return {"bias(i, j) = −m_h · (i − j) for j ≤ i;   m_h = 2^(−8h/H) (H a power of two; otherwise interleaved)",
            fmt("H = %lld, head %lld:  m = %.6g;  bias at distance 10 = %.4g", s.heads, s.head, m, -10 * m)};
  }
  if (view == "attention") {
    return {"A = softmax(Q Kᵀ / √d + bias + causal mask);  positions enter via x + PE, R(p)q·R(p')k, or the ALiBi bias",
            fmt("%lld tokens, seed %llu, ALiBi head %lld of %lld", std::min<long long>(s.length, kAttentionLength),
                static_cast<unsigned long long>(s.seed), s.head, s.heads)};
  }
  if (view == "permutation") {
    return {"A = softmax(Q Kᵀ / √d + bias)  (no mask: a mask would itself reveal order)",
            "no positions: A(P x) = P A(x) Pᵀ  — reordering the words only reorders the attention"};
  }
  if (view == "comparison") {
    return {"parameters: learned = max_len × d;  sinusoidal, RoPE, ALiBi = 0",
            fmt("max_len = %lld, d = %lld:  %lld × %lld = %lld", s.learned_max_len, dim, s.learned_max_len, dim,
                s.learned_max_len * dim)};
  }
  if (view == "scaling" || view == "extrapolation" || view == "compare") {
    const auto& r = d.rope;
    std::string method = pe::to_string(s.rope.scaling.type);
    return {"linear θ_i' = θ_i/s;  NTK θ' = θ·s^(d/(d−2));  YaRN: ramp between the two by wavelength, attention × (0.1 ln s + 1)",
            fmt("%s, s = %g, L_orig = %lld:  effective θ = %.6g,  attention factor = %.4f", method.c_str(), r.factor,
                r.original_max_position_embeddings, r.effective_theta, r.attention_factor)};
  }
  return {};
}

float formula_strip_height(const std::vector<std::string>& lines, float width) {
  if (lines.empty()) return 0.0f;
  const ImGuiStyle& st = ImGui::GetStyle();
  // Long lines wrap (projector scales, narrow windows) rather than being cut off.
  const float wrap = std::max(1.0f, width - 2 * st.WindowPadding.x);
  float h = 2 * st.WindowPadding.y;
  for (const auto& line : lines) h += ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y + st.ItemSpacing.y;
  return h;  // the last line's spacing separates the strip from the view above
}

void draw_formula_strip(const std::vector<std::string>& lines, float height) {
  ImGui::BeginChild("##formula", {0, height - ImGui::GetStyle().ItemSpacing.y}, true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PushTextWrapPos(0.0f);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (k == 0) ImGui::TextUnformatted(lines[k].c_str());
    else ImGui::TextDisabled("%s", lines[k].c_str());
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

}  // namespace app
