#pragma once
// CoPE, Contextual Position Encoding (Golovneva, Wang, Weston, Sukhbaatar 2024, "Contextual
// Position Encoding: Learning to Count What's Important", §3 and the code in its appendix):
// positions are counted, not indexed. For query i and key j <= i:
//
//   g_ij = σ(q_i · k_j)                              gate: does key j count for query i?
//   p_ij = Σ_{t=j}^{i} g_it                          the position of j seen from i (inclusive)
//   p_ij ← min(p_ij, npos_max − 1)                   (pos.clamp(max=npos_max − 1))
//   e[p] = (p − ⌊p⌋)·e[⌈p⌉] + (1 − p + ⌊p⌋)·e[⌊p⌋]   interpolation between integer embeddings
//   logit_ij = q_i · k_j + q_i · e[p_ij]
// The appendix code computes the last term as z[⌈p⌉]·w + z[⌊p⌋]·(1 − w) with z[k] = q_i·e[k]
// and w = p − ⌊p⌋ (cope_interpolate). Future keys are masked before the gates (σ(−∞) = 0), so
// they count nothing: p_ij = 0 for j > i.
//
// Here the gates come from a settable pattern over a token sequence instead of from trained
// q, k (the paper's gates are learned; hard 0/1 gates are what it shows they can learn to be):
// "every-token" counts every token (p_ij = i − j + 1: ordinary relative positions, shifted
// by one), "sentence-ends" counts '.', '!' and '?' (p_ij = sentence ends between j and i),
// "words" counts word tokens, "punctuation" counts punctuation tokens. Any other gates
// (soft, per query) go through cope_positions_per_query.
//
// Refused (InvalidArgument naming the parameter): cope_npos_max not 1 … 65536; gates not
// finite or outside [0, 1] ("gates"); an unknown pattern name ("cope_gates").
#include "pe/relative/module_guard.hpp"
#include <string>
#include <vector>

#include "pe/base/types.hpp"

namespace pe {

inline constexpr long long kMaxCopePositions = 65536;

enum class CopeGatePattern { EveryToken, SentenceEnds, Words, Punctuation };
const char* to_string(CopeGatePattern pattern);  // "every-token", "sentence-ends", "words", "punctuation"
// Throws InvalidArgument naming "cope_gates" and listing the four names.
CopeGatePattern cope_gate_pattern_from_string(const std::string& text);

// Splits text into tokens: runs of letters, digits, apostrophes and other non-ASCII bytes
// (UTF-8 stays whole) are words; every other non-space character is a token of its own
// (so "end." is "end", "."). Whitespace separates and is dropped.
std::vector<std::string> cope_tokens(const std::string& text);

// 1 for each token the pattern counts, 0 otherwise (gates that depend on the key only).
Eigen::ArrayXd cope_gates(const std::vector<std::string>& tokens, CopeGatePattern pattern);

// p_ij for gates that depend on the key only (g_ij = key_gates[j]): length × length, row =
// query, entries for j > i are 0. Not clamped. Budget-checked.
TableD cope_positions(const Eigen::Ref<const Eigen::ArrayXd>& key_gates);
// p_ij for general gates (row = query i, column = key t: g_it); only entries t <= i are read.
TableD cope_positions_per_query(const TableD& gates);

// min(p, npos_max − 1), entrywise.
TableD cope_clamp_positions(const TableD& positions, long long npos_max);

// The interpolated logit q·e[p] from the integer-position logits z[k] = q·e[k],
// k = 0 … npos_max − 1 (npos_max = z.size() >= 1): p is clamped to [0, npos_max − 1] first.
double cope_interpolate(double position, const Eigen::Ref<const Eigen::ArrayXd>& integer_logits);

// Everything a view of one sentence needs.
struct CopeCounts {
  std::vector<std::string> tokens;
  Eigen::ArrayXd gates;      // per token
  TableD positions;          // clamped p_ij (row = query)
  long long npos_max = 0;
};
// cope_npos_max 1 … kMaxCopePositions; at most kMaxCopeTokens tokens ("cope_text").
inline constexpr long long kMaxCopeTokens = 4096;
CopeCounts cope_count(const std::string& text, CopeGatePattern pattern, long long npos_max);

}  // namespace pe
