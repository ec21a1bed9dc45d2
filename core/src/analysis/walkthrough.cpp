#include "pe/analysis/walkthrough.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

#include "pe/base/errors.hpp"

namespace pe {
namespace {

// A number as a factor inside a formula: negative ones in parentheses ("0.3·(−0.5)").
std::string factor(double v) { return v < 0 ? "(−" + short_number(-v) + ")" : short_number(v); }
// "a − b" / "a + b" with b's sign folded into the operator (b printed as its magnitude).
std::string signed_term(double v) { return v < 0 ? " − " + short_number(-v) : " + " + short_number(v); }
std::string signed_leading(double v) { return v < 0 ? "−" + short_number(-v) : short_number(v); }

}  // namespace

double round_to(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;  // std::round: half away from zero, as by hand
}

double printed_rounding(double value) { return round_to(round_to(value, 4), 3); }

std::string short_number(double value) {
  char buf[48];
  const double a = std::fabs(value);
  if (a >= 1000.0 && a < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", value);
  else
    std::snprintf(buf, sizeof buf, "%.4g", value);
  std::string s = buf;
  if (s == "-0") s = "0";
  // U+2212 minus: a hyphen is hard to see on a projector.
  if (!s.empty() && s[0] == '-') s = "−" + s.substr(1);
  return s;
}

WalkthroughResult compute_walkthrough(const WalkthroughInput& in) {
  const long long d = static_cast<long long>(in.q.size());
  if (d < 2 || d % 2 != 0 || d > kMaxDim)
    throw InvalidArgument("walkthrough_q", std::to_string(d) + " numbers", "an even count 2 ... " + std::to_string(kMaxDim));
  for (double x : in.q) require_finite("walkthrough_q", x);
  require_theta("walkthrough_theta", in.theta);
  require_in_range("walkthrough_position", in.position, 0, kMaxLength);
  require_in_range("walkthrough_position_b", in.position_b, 0, kMaxLength);
  require_in_range("shift", in.shift, 0, kMaxLength);

  WalkthroughResult r;
  r.dim = d;
  r.input = in;
  r.rotated.resize(std::size_t(d));
  r.rotated_printed.resize(std::size_t(d));
  const double p = double(in.position), pb = double(in.position_b), shift = double(in.shift);
  auto rotate = [](double x, double y, double angle, double& xr, double& yr) {
    xr = x * std::cos(angle) - y * std::sin(angle);
    yr = x * std::sin(angle) + y * std::cos(angle);
  };
  for (long long i = 0; i < d / 2; ++i) {
    WalkthroughPair w;
    w.index = i;
    w.dim_a = 2 * i;
    w.dim_b = 2 * i + 1;
    w.exponent = double(2 * i) / double(d);
    w.theta_power = std::pow(in.theta, w.exponent);
    w.freq = 1.0 / w.theta_power;
    w.angle = p * w.freq;
    w.angle_deg = w.angle * 180.0 / std::numbers::pi;
    w.cos = std::cos(w.angle);
    w.sin = std::sin(w.angle);
    w.x = in.q[std::size_t(w.dim_a)];
    w.y = in.q[std::size_t(w.dim_b)];
    w.x_rot = w.x * w.cos - w.y * w.sin;
    w.y_rot = w.x * w.sin + w.y * w.cos;
    w.cos_printed = printed_rounding(w.cos);
    w.sin_printed = printed_rounding(w.sin);
    w.x_terms3[0] = round_to(w.x * w.cos_printed, 3);
    w.x_terms3[1] = round_to(w.y * w.sin_printed, 3);
    w.y_terms3[0] = round_to(w.x * w.sin_printed, 3);
    w.y_terms3[1] = round_to(w.y * w.cos_printed, 3);
    w.x_rot_printed = round_to(w.x_terms3[0] - w.x_terms3[1], 3);
    w.y_rot_printed = round_to(w.y_terms3[0] + w.y_terms3[1], 3);
    w.angle_b = pb * w.freq;
    w.delta_angle = (pb - p) * w.freq;
    // Direct rotations (not the closed form), so the test of "depends only on the difference"
    // is a measurement.
    double qx, qy, kx, ky;
    rotate(w.x, w.y, w.angle, qx, qy);
    rotate(w.x, w.y, w.angle_b, kx, ky);
    w.score_term = qx * kx + qy * ky;
    rotate(w.x, w.y, (p + shift) * w.freq, qx, qy);
    rotate(w.x, w.y, (pb + shift) * w.freq, kx, ky);
    w.score_term_shifted = qx * kx + qy * ky;
    rotate(w.x, w.y, w.angle, qx, qy);
    rotate(w.x, w.y, (pb + 1.0) * w.freq, kx, ky);
    r.score_other_distance += qx * kx + qy * ky;
    r.score += w.score_term;
    r.score_shifted += w.score_term_shifted;
    r.score_closed_form += (w.x * w.x + w.y * w.y) * std::cos(w.delta_angle);
    r.rotated[std::size_t(w.dim_a)] = w.x_rot;
    r.rotated[std::size_t(w.dim_b)] = w.y_rot;
    r.rotated_printed[std::size_t(w.dim_a)] = w.x_rot_printed;
    r.rotated_printed[std::size_t(w.dim_b)] = w.y_rot_printed;
    r.pairs.push_back(w);
  }
  return r;
}

std::string frequency_formula(const WalkthroughResult& r, const WalkthroughPair& w) {
  return "1 / " + short_number(r.input.theta) + "^(" + std::to_string(2 * w.index) + "/" + std::to_string(r.dim) + ") = 1 / " +
         short_number(w.theta_power) + " = " + short_number(w.freq);
}

std::string angle_formula(const WalkthroughResult& r, const WalkthroughPair& w) {
  return std::to_string(r.input.position) + " · " + short_number(w.freq) + " = " + short_number(w.angle) + " rad = " +
         short_number(w.angle_deg) + "°";
}

std::vector<std::string> rotation_formulas(const WalkthroughPair& w) {
  const std::string a = short_number(w.angle);
  // x' = x·cos − y·sin,  y' = x·sin + y·cos, first symbolic, then with cos/sin, then the products.
  std::string xs = signed_leading(w.x) + "·cos(" + a + ") − " + factor(w.y) + "·sin(" + a + ") = " + signed_leading(w.x) + "·" +
                   factor(w.cos) + " − " + factor(w.y) + "·" + factor(w.sin) + " = " + signed_leading(w.x * w.cos) +
                   signed_term(-(w.y * w.sin)) + " = " + signed_leading(w.x_rot);
  std::string ys = signed_leading(w.x) + "·sin(" + a + ") + " + factor(w.y) + "·cos(" + a + ") = " + signed_leading(w.x) + "·" +
                   factor(w.sin) + " + " + factor(w.y) + "·" + factor(w.cos) + " = " + signed_leading(w.x * w.sin) +
                   signed_term(w.y * w.cos) + " = " + signed_leading(w.y_rot);
  return {xs, ys};
}

}  // namespace pe
