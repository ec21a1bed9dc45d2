// Unseen rotation angles past the training length (the reason plain RoPE does not extrapolate), counted exactly.
//
// For one pair: A = (L_train−1)·θ is the end of the arc seen in training, θ' the inference
// frequency. Positions are grouped by the turn of their angle (the quotient fmod uses);
// inside one turn the angle grows with p, so the unseen positions of that turn form one
// run [start, end). Both ends are first-true points of predicates that are monotone over
// all p, found by galloping from a closed-form estimate ((2πk + A)/θ', 2π(k+1)/θ') and
// bisecting with the exact definition. Only turns that hold a position are visited, so the
// cost is O(min(turns, L)) predicate evaluations per pair (~140 ns per turn), never O(L)
// for the slow pairs that matter; past kExactTurnLimit a floor-sum closed form takes over.
#include "pe/scaling/extrapolation.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numbers>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"

namespace pe {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
__extension__ typedef __int128 i128;  // floor sums reach ~10^26
constexpr double kAbsTol = kTwoPi * 1e-12;
constexpr double kRelTol = 8.0 * DBL_EPSILON;

struct Angle {
  long long turn;  // exact quotient of fmod(x, 2π)
  double phi;      // x mod 2π, in [0, 2π)
  double tol;
};

Angle angle_at(long long p, double f) {
  const double x = static_cast<double>(p) * f;
  const double phi = std::fmod(x, kTwoPi);
  // fmod is exact: x − phi = n·2π, so rounding the quotient recovers n (x <= 1e15).
  const long long turn = std::llround((x - phi) / kTwoPi);
  return {turn, phi, kAbsTol + kRelTol * x};
}

bool unseen_at(double arc, long long p, double f) {
  if (!(arc < kTwoPi)) return false;
  const Angle a = angle_at(p, f);
  return a.phi > arc + a.tol && a.phi < kTwoPi - a.tol;
}

// First p in [lo, hi) with g(p) true for g monotone (false ... true), hi if none; starts
// from `estimate` (any double, clamped), gallops to a bracket, then bisects.
template <class Pred>
long long first_true(const Pred& g, long long lo, long long hi, double estimate) {
  if (lo >= hi) return hi;
  auto G = [&](long long p) { return p >= hi ? true : (p < lo ? false : g(p)); };
  long long e;
  if (!(estimate > static_cast<double>(lo))) {
    e = lo;  // also NaN
  } else if (estimate >= static_cast<double>(hi)) {
    e = hi;
  } else {
    e = std::clamp(static_cast<long long>(estimate), lo, hi);
  }
  long long a, b;  // G(a) false (or a = lo−1), G(b) true (or b = hi)
  if (G(e)) {
    b = e;
    long long step = 1;
    for (;;) {
      a = b - step;
      if (a < lo) {
        a = lo - 1;
        break;
      }
      if (!G(a)) break;
      b = a;
      step *= 2;
    }
  } else {
    a = e;
    long long step = 1;
    for (;;) {
      b = a + step;
      if (b >= hi) {
        b = hi;
        break;
      }
      if (G(b)) break;
      a = b;
      step *= 2;
    }
  }
  while (b - a > 1) {
    const long long m = a + (b - a) / 2;
    if (G(m)) b = m; else a = m;
  }
  return b;
}

struct Run {
  long long start, end;  // unseen positions of turn k: [start, end), clipped to [.., length)
};

// The run of unseen positions in turn k (requires arc < 2π, f > 0). Positions before `lo`
// are known to lie in earlier turns.
Run unseen_run(double arc, double f, long long length, long long k, long long lo) {
  const auto past_seen = [&](long long p) {  // turn > k, or turn k beyond the seen arc
    const Angle a = angle_at(p, f);
    return a.turn > k || (a.turn == k && a.phi > arc + a.tol);
  };
  const auto past_unseen = [&](long long p) {  // turn > k, or turn k within tol of 2π
    const Angle a = angle_at(p, f);
    return a.turn > k || (a.turn == k && a.phi >= kTwoPi - a.tol);
  };
  const double kd = static_cast<double>(k);
  const long long start = first_true(past_seen, lo, length, std::floor((kd * kTwoPi + arc) / f) + 1.0);
  const long long end = first_true(past_unseen, start, length, std::ceil((kd + 1.0) * kTwoPi / f));
  return {start, end};
}

// The turn after k that holds a position: with θ' > 2π consecutive positions skip turns,
// so visiting only occupied turns bounds the loops by min(turns, L). `next` is the first
// position not in turn k's run (so it lies in turn k, past the gap, or a later turn).
long long next_turn(long long k, long long next, double f) {
  return std::max(k + 1, angle_at(next, f).turn);
}

// Σ_{k=0}^{n−1} floor(a·k + b) for real a, b (Euclid-like: reduce a, b to [0, 1), then
// count lattice points by rows, which swaps the slope to 1/a). Exact up to rounding of
// values that fall on integers.
i128 floor_sum(long double a, long double b, long long n) {
  i128 res = 0;
  if (n <= 0) return 0;
  const long double fa = std::floor(a), fb = std::floor(b);
  if (n >= 2) res += static_cast<i128>(fa) * (static_cast<i128>(n) * (n - 1) / 2);
  res += static_cast<i128>(fb) * n;
  a -= fa;
  b -= fb;
  const long double top = a * static_cast<long double>(n - 1) + b;
  if (!(top >= 1.0L)) return res;
  const long long m = static_cast<long long>(std::floor(top));
  // Σ_k floor(a k + b) = Σ_{j=1}^{m} #{k < n : a k + b >= j} = n·m − Σ_{j=1}^{m} ceil((j − b)/a),
  // ceil(y) = floor(y) + 1 off integers, and Σ_{j=1}^{m} floor((j − b)/a) = F(1/a, (1 − b)/a, m).
  res += static_cast<i128>(n) * m - m;
  res -= floor_sum(1.0L / a, (1.0L - b) / a, m);
  return res;
}

long long count_unseen(double arc, double f, long long length, long long exact_turn_limit) {
  if (!(arc < kTwoPi) || f == 0.0) return 0;
  const long long turns = angle_at(length - 1, f).turn + 1;
  long long count = 0;
  long long first_exact_turn = 0;
  if (std::min(turns, length) > exact_turn_limit) {
    // Full turns k < K lie entirely below position length − 1: count them in closed form,
    // Σ_k [ceil((k+1)α) − floor(kα + β) − 1] with α = 2π/θ', β = A/θ' (tolerance ignored).
    const long long K = std::max(0LL, turns - 3);
    const long double alpha = static_cast<long double>(kTwoPi) / f;
    const long double beta = static_cast<long double>(arc) / f;
    const i128 ceil_sum = -floor_sum(-alpha, -alpha, K);  // Σ_{k<K} ceil((k+1)α)
    const i128 total = ceil_sum - floor_sum(alpha, beta, K) - K;
    count = static_cast<long long>(std::clamp<i128>(total, 0, length));
    first_exact_turn = K;
  }
  long long lo = 0;
  for (long long k = first_exact_turn; k < turns;) {
    const Run r = unseen_run(arc, f, length, k, lo);
    if (r.start >= length) break;
    count += r.end - r.start;
    lo = r.end;
    if (lo >= length) break;
    k = next_turn(k, lo, f);
  }
  return std::min(count, length);
}

void require_scalar_frequency(const char* parameter, double f) {
  if (!std::isfinite(f) || f < 0.0) throw InvalidArgument(parameter, format_double(f), "frequencies must be finite and >= 0");
}

void require_angle_range(const std::string& parameter, double f, long long infer_length) {
  const double max_angle = static_cast<double>(infer_length - 1) * f;
  if (!(max_angle <= kMaxExtrapolationAngle)) {
    throw InvalidArgument(parameter, format_double(f),
                          "(infer_length − 1) · frequency = " + format_double(max_angle) + " rad must be <= " +
                              format_double(kMaxExtrapolationAngle) + " rad (infer_length = " +
                              format_integer(infer_length) + ")");
  }
}

void validate_scalars(double train_inv_freq, long long train_length, double infer_inv_freq, long long infer_length) {
  require_scalar_frequency("train_inv_freq", train_inv_freq);
  require_scalar_frequency("infer_inv_freq", infer_inv_freq);
  require_length("train_length", train_length);
  require_length("infer_length", infer_length);
  require_angle_range("infer_inv_freq", infer_inv_freq, infer_length);
}

double train_arc(double train_inv_freq, long long train_length) {
  return static_cast<double>(train_length - 1) * train_inv_freq;
}

}  // namespace

bool angle_unseen(double train_inv_freq, long long train_length, double infer_inv_freq, long long position) {
  require_in_range("position", position, 0, kMaxLength - 1);
  validate_scalars(train_inv_freq, train_length, infer_inv_freq, position + 1);
  return unseen_at(train_arc(train_inv_freq, train_length), position, infer_inv_freq);
}

namespace detail {
long long unseen_position_count(double train_inv_freq, long long train_length, double infer_inv_freq,
                                long long infer_length, long long exact_turn_limit) {
  validate_scalars(train_inv_freq, train_length, infer_inv_freq, infer_length);
  return count_unseen(train_arc(train_inv_freq, train_length), infer_inv_freq, infer_length,
                      std::max(0LL, exact_turn_limit));
}
}  // namespace detail

long long unseen_position_count(double train_inv_freq, long long train_length, double infer_inv_freq,
                                long long infer_length) {
  return detail::unseen_position_count(train_inv_freq, train_length, infer_inv_freq, infer_length, kExactTurnLimit);
}

long long first_unseen_position(double train_inv_freq, long long train_length, double infer_inv_freq,
                                long long infer_length) {
  validate_scalars(train_inv_freq, train_length, infer_inv_freq, infer_length);
  const double arc = train_arc(train_inv_freq, train_length);
  const double f = infer_inv_freq;
  if (!(arc < kTwoPi) || f == 0.0) return -1;
  const long long turns = angle_at(infer_length - 1, f).turn + 1;
  // When θ' < 2π − A every turn's gap holds a position, so turn 0 decides; a large θ' can
  // step over the gap for many turns, hence the loop.
  long long lo = 0, k = 0;
  for (long long visited = 0; k < turns && visited < kExactTurnLimit; ++visited) {
    const Run r = unseen_run(arc, f, infer_length, k, lo);
    if (r.start >= infer_length) return -1;
    if (r.end > r.start) return r.start;
    lo = r.end;
    k = next_turn(k, lo, f);
  }
  if (k >= turns) return -1;
  // Absurdly many turns (L ~ 10^12): none of the first kExactTurnLimit turns (positions
  // below lo) meets the gap; bisect the prefix length on the closed-form count, then settle
  // on a position the definition calls unseen.
  if (count_unseen(arc, f, infer_length, kExactTurnLimit) == 0) return -1;
  long long a = lo, b = infer_length;  // count(a) == 0, count(b) >= 1
  while (b - a > 1) {
    const long long m = a + (b - a) / 2;
    if (count_unseen(arc, f, m, kExactTurnLimit) > 0) b = m; else a = m;
  }
  const long long candidate = b - 1;
  for (long long p = std::max(lo, candidate - 64); p < std::min(infer_length, candidate + 64); ++p) {
    if (unseen_at(arc, p, f)) return p;
  }
  return candidate;
}

ExtrapolationReport extrapolation_report(const Eigen::ArrayXd& train_inv_freq, long long train_length,
                                         const Eigen::ArrayXd& infer_inv_freq, long long infer_length) {
  require_frequencies("train_inv_freq", train_inv_freq);
  require_frequencies("infer_inv_freq", infer_inv_freq);
  if (infer_inv_freq.size() != train_inv_freq.size()) {
    throw InvalidArgument("infer_inv_freq size", format_integer(infer_inv_freq.size()),
                          "must equal train_inv_freq's size (" + format_integer(train_inv_freq.size()) + " pairs)");
  }
  require_length("train_length", train_length);
  require_length("infer_length", infer_length);
  const Eigen::Index n = train_inv_freq.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    require_angle_range("infer_inv_freq[" + std::to_string(i) + "]", infer_inv_freq[i], infer_length);
  }

  ExtrapolationReport r;
  r.train_arc_rad.resize(n);
  r.max_angle_rad.resize(n);
  r.unseen_fraction.resize(n);
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double arc = train_arc(train_inv_freq[i], train_length);
    r.train_arc_rad[i] = std::min(kTwoPi, arc);
    r.max_angle_rad[i] = static_cast<double>(infer_length - 1) * infer_inv_freq[i];
    const long long c = count_unseen(arc, infer_inv_freq[i], infer_length, kExactTurnLimit);
    r.unseen_fraction[i] = static_cast<double>(c) / static_cast<double>(infer_length);
    sum += r.unseen_fraction[i];
    if (c > 0) {
      ++r.pairs_with_unseen;
      if (r.first_unseen_pair < 0) r.first_unseen_pair = static_cast<long long>(i);
    }
  }
  r.mean_unseen_fraction = sum / static_cast<double>(n);
  return r;
}

}  // namespace pe
