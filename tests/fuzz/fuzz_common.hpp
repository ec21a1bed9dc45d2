#pragma once
// Shared by the fuzz targets: invariant checks that abort (libFuzzer records an abort as a
// crash with the input) and a bounded "use the configuration" step, so every accepted
// input also runs the core computations the views would run, at sizes that keep one input
// well under a millisecond.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "pe/analysis/analysis.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/scaling/scaling.hpp"

namespace pe_fuzz {

// Table entries per computation: positions × pairs stays under this.
inline constexpr long long kMaxCells = 1024;
inline constexpr long long kMaxPositions = 64;

[[noreturn]] inline void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz invariant violated: %s: %s\n", what, detail.c_str());
  std::abort();
}

#define PE_FUZZ_CHECK(cond, detail) \
  do {                              \
    if (!(cond)) ::pe_fuzz::fail(#cond, (detail)); \
  } while (0)

// How many rows of a table with `columns` entries each fit the per-input budget.
inline long long rows_for(long long columns) {
  return std::clamp<long long>(kMaxCells / std::max<long long>(columns, 1), 1, kMaxPositions);
}

// A validated configuration's frequencies must be usable by every RoPE entry point
// (finite, >= 0: what require_frequencies checks), and the attention factor finite.
inline void check_frequencies(const pe::ScaledFrequencies& f, const pe::RopeConfig& c) {
  PE_FUZZ_CHECK(f.rotary_dim == c.rotary_dim(), std::to_string(f.rotary_dim));
  PE_FUZZ_CHECK(f.inv_freq.size() == f.rotary_dim / 2, std::to_string(f.inv_freq.size()));
  PE_FUZZ_CHECK(f.original_inv_freq.size() == f.inv_freq.size(), std::to_string(f.original_inv_freq.size()));
  for (Eigen::Index i = 0; i < f.inv_freq.size(); ++i)
    PE_FUZZ_CHECK(std::isfinite(f.inv_freq[i]) && f.inv_freq[i] >= 0.0,
                  "inv_freq[" + std::to_string(i) + "] = " + std::to_string(f.inv_freq[i]));
  PE_FUZZ_CHECK(std::isfinite(f.attention_factor), std::to_string(f.attention_factor));
  PE_FUZZ_CHECK(std::isfinite(f.logit_scale), std::to_string(f.logit_scale));
}

// Frequencies at `length`, then a small cos/sin table and a short relative-score curve
// with them (what rope-cos / relative-score draw), capped at kMaxCells entries.
inline pe::ScaledFrequencies exercise_rope(const pe::RopeConfig& c, long long length, std::uint64_t seed) {
  pe::ScaledFrequencies f = pe::scaled_frequencies(c, length);
  check_frequencies(f, c);
  const long long pairs = f.inv_freq.size();
  const long long rows = std::min(rows_for(pairs), length);
  const pe::RopeTables t = pe::rope_tables(f.inv_freq, rows, length - rows);
  PE_FUZZ_CHECK(t.cos.rows() == rows && t.cos.cols() == pairs, "rope table shape");
  for (Eigen::Index i = 0; i < t.cos.size(); ++i)
    PE_FUZZ_CHECK(std::abs(t.cos.data()[i]) <= 1.0001f && std::abs(t.sin.data()[i]) <= 1.0001f,
                  "rope table entry " + std::to_string(i));
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(rows, 0.0, static_cast<double>(rows - 1));
  const Eigen::ArrayXd s = pe::relative_score_curve(pe::VectorChoice::Identical, f.inv_freq, deltas, seed, 1);
  PE_FUZZ_CHECK(s.size() == rows, "curve size");
  for (Eigen::Index i = 0; i < s.size(); ++i) PE_FUZZ_CHECK(std::isfinite(s[i]), "score " + std::to_string(i));
  return f;
}

}  // namespace pe_fuzz
